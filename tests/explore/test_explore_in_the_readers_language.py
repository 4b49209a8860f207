"""/explore speaks of cards and numbers as the reader knows them: printed names, local numbers."""
from __future__ import annotations

from bot.explore.command import ExploreRequest, odds, run


def steps_and_zones(reply) -> str:
    return "\n".join(page.as_text() for page in reply.pages)


def seed_42(services, lang: str, interactive: bool = False):
    """Jadelight Ranger enters from the Ixalan deck shuffled with seed 42: a Forest, then Seekers' Squire."""
    return run(services, ExploreRequest(deck="ixalan", explorer="Jadelight Ranger", seed=42), lang,
               interactive=interactive)


def test_narration_names_cards_as_printed_in_french(bundled_services):
    reply = seed_42(bundled_services, "fr")
    text = steps_and_zones(reply)
    # the explorer, and every card revealed, by its French name; the English name beside it once
    assert reply.pages[0].title == "Explorer — Ranger jadefeu (Jadelight Ranger)"
    assert "Ranger jadefeu explore." in text
    assert "Révèle Forêt (Forest)." in text
    assert text.count("(Jadelight Ranger)") == 1 and text.count("(Forest)") == 1
    assert "Forêt est une carte de terrain : elle va dans la main." in text
    assert "Jadelight Ranger explores" not in text and "Forest" not in text.replace("(Forest)", "")
    # the data for programs keeps the English names
    assert reply.data["explorer"] == "Jadelight Ranger"
    assert "Forest" in reply.data["state"]["hand"]


def test_narration_names_cards_as_printed_in_japanese(bundled_services):
    reply = seed_42(bundled_services, "ja")
    text = steps_and_zones(reply)
    assert reply.pages[0].title == "探検 — 翡翠光のレインジャー（Jadelight Ranger）"
    assert "翡翠光のレインジャーが探検を行う。" in text
    assert "森（Forest）を公開する。" in text
    hand = next(f for page in reply.pages for f in page.fields if f.name == "手札")
    assert hand.value == "森"


def test_a_revealed_card_waits_for_a_choice_under_its_printed_name(bundled_services):
    reply = seed_42(bundled_services, "fr", interactive=True)
    assert reply.content.startswith("Carte révélée : ")
    assert "Seekers' Squire" not in reply.content.replace("(Seekers' Squire)", "")


def test_english_readers_see_english_names_once(bundled_services):
    text = steps_and_zones(seed_42(bundled_services, "en"))
    assert "Jadelight Ranger explores." in text and "(Jadelight Ranger)" not in text


def test_odds_in_german_numbers(bundled_services):
    reply = odds(bundled_services, ExploreRequest(deck="ixalan", explorer="Jadelight Ranger", times=4), "de", "keep")
    text = reply.pages[0].as_text()
    assert "0: 59,32\xa0% (35/59)" in text          # not "59.32%"
    assert "Erwartungswert 0,654" in text            # not "0.654"
    assert reply.pages[0].title == "Wahrscheinlichkeiten — Jadelicht-Jägerin (Jadelight Ranger)"
    french = odds(bundled_services, ExploreRequest(deck="ixalan", explorer="Jadelight Ranger", times=4), "fr", "keep")
    assert "59,32\xa0%" in french.pages[0].as_text()
    english = odds(bundled_services, ExploreRequest(deck="ixalan", explorer="Jadelight Ranger", times=4), "en", "keep")
    assert "59.32% (35/59)" in english.pages[0].as_text()


def test_deck_lists_name_cards_as_printed(bundled_services):
    from bot.explore.command import list_decks
    reply = list_decks(bundled_services, "fr", ["mon deck"])
    fields = {f.name: f.value for f in reply.pages[0].fields}
    ixalan = fields["`ixalan`"].split("\n")
    assert "4 Ranger jadefeu (Jadelight Ranger)" in fields["`double-faced`"].split("\n")
    assert "4 Ranger jadefeu" in ixalan and "10 Forêt" in ixalan and "7 Marais (Swamp)" in ixalan
    assert fields["Decks enregistrés"] == "`mon deck`"
    assert "Jadelight Ranger" in list_decks(bundled_services, "en").pages[0].fields[1].value
