"""/ruling end to end: the real bot, through discord.py's gateway and HTTP code, against the fake."""
import time

from tests.e2e.helpers import ANSWERED_OR_DEFERRED, answer_of, custom_ids, embed_text, option  # noqa: F401


async def test_sync_carries_localized_names_and_descriptions(shared_bot):
    commands = {c["name"]: c for c in shared_bot.fake.commands["global"]}
    ruling = commands["ruling"]
    assert ruling["name_localizations"]["fr"] == "clarification"
    assert ruling["description_localizations"]["it"].startswith("Mostra")
    card = next(o for o in ruling["options"] if o["name"] == "card")
    assert card["name_localizations"]["ja"] == "カード"
    assert card["autocomplete"] is True
    run = next(o for o in commands["explore"]["options"] if o["name"] == "run")
    assert commands["explore"]["name_localizations"]["zh-CN"] == "勘察"
    assert run["name_localizations"]["fr"] == "lancer"
    assert run["description_localizations"]["de"].startswith("Erkundet Schritt für Schritt")
    seed = next(o for o in run["options"] if o["name"] == "seed")
    assert seed["name_localizations"]["pt-BR"] == "semente"
    machine = next(o for o in commands["settings"]["options"] if o["name"] == "machine")
    choices = machine["options"][0]["choices"]
    assert choices[0]["name_localizations"]["it"] == "mostrate, segnalate"


async def test_italian_reader_gets_defossilize_in_italian(shared_bot):
    fake = shared_bot.fake
    answer = await fake.slash("ruling", [option("card", "defossilizare")], locale="it")
    assert answer.type in (4, 5)
    text = embed_text(await answer_of(fake, answer))
    assert "Defossilizzare (Defossilize)" in text
    assert "Se una magia o abilità in risoluzione" in text
    assert "10 novembre 2023" in text
    assert (await answer_of(fake, answer))["allowed_mentions"]["parse"] == []


async def test_french_reader_of_glowcap_lantern_gets_english_with_a_note(shared_bot):
    answer = await shared_bot.fake.slash("ruling", [option("card", "lanterne calotte")], locale="fr")
    text = embed_text(await answer_of(shared_bot.fake, answer))
    assert "Lanterne à calotte luisante (Glowcap Lantern)" in text
    assert "Aucune traduction en français" in text
    assert "If Glowcap Lantern isn't attached" in text


async def test_portuguese_reader_sees_the_duplicate_once(shared_bot):
    fake = shared_bot.fake
    answer = await fake.slash("ruling", [option("card", "agente da rainha")], locale="pt-BR")
    text = embed_text(await answer_of(fake, answer))
    pages = [text]
    while "wf:ruling:next" in custom_ids(await answer_of(fake, answer)) and len(pages) < 5:
        answer = await fake.click((await answer_of(fake, answer))["id"], "wf:ruling:next")
        pages.append(embed_text(await answer_of(fake, answer)))
    everything = "\n".join(pages)
    assert "Agente da Rainha (Queen's Agent)" in everything
    assert everything.count("em resolução instrui") == 1
    assert "em resolução instruir" not in everything  # the second wording is folded, not shown again
    assert "19 de janeiro de 2018" in everything


async def test_autocomplete_in_french_offers_the_french_name(shared_bot):
    fake = shared_bot.fake
    started = time.perf_counter()
    answer = await fake.autocomplete("ruling", [option("card", "tishana", focused=True)], locale="fr")
    elapsed = time.perf_counter() - started
    assert answer.type == 8
    names = [c["name"] for c in answer.data["choices"]]
    assert "Guidevoie de Tishana (Tishana's Wayfinder)" in names
    assert all(len(c["value"]) <= 100 and len(c["name"]) <= 100 for c in answer.data["choices"])
    assert elapsed < 1.0


async def test_everyone_typed_as_the_card_pings_nobody(shared_bot):
    fake = shared_bot.fake
    answer = await fake.slash("ruling", [option("card", "@everyone <@&123> <@456>")], locale="en-US")
    assert (await answer_of(fake, answer))["allowed_mentions"]["parse"] == []
    assert "@everyone" not in (await answer_of(fake, answer))["content"]
    for body in fake.bodies_sent():
        assert body.get("allowed_mentions", {}).get("parse") == [], body


@ANSWERED_OR_DEFERRED
async def test_pagination_and_english_original_by_click_and_others_are_refused(shared_bot):
    fake = shared_bot.fake
    answer = await fake.slash("ruling", [option("card", "defossilizzare")], locale="it")
    # the menu of the rules the card's text uses (701.44 Explore) comes with the bundled rules
    assert custom_ids(await answer_of(fake, answer)) == ["wf:ruling:originals", "wf:ruling:rule"]
    first = embed_text(await answer_of(fake, answer))
    assert "Originale inglese" not in first

    stranger = fake.new_user("Stranger")
    refused = await fake.click((await answer_of(fake, answer))["id"], "wf:ruling:originals", user=stranger, locale="it")
    assert refused.type == 4 and (await answer_of(fake, refused))["flags"] & 64
    assert "Solo chi ha usato il comando" in (await answer_of(fake, refused))["content"]

    shown = await fake.click((await answer_of(fake, answer))["id"], "wf:ruling:originals", locale="it")
    assert shown.type in (6, 7)
    assert "Originale inglese" in embed_text(await answer_of(fake, shown))
    assert custom_ids(await answer_of(fake, shown)) == ["wf:ruling:prev", "wf:ruling:next", "wf:ruling:originals", "wf:ruling:rule"]
    assert "If a resolving spell or ability" in embed_text(await answer_of(fake, shown))

    second = await fake.click((await answer_of(fake, answer))["id"], "wf:ruling:next", locale="it")
    assert second.type in (6, 7)
    assert embed_text(await answer_of(fake, second)) != embed_text(await answer_of(fake, shown))
    assert "Pagina 2 di" in embed_text(await answer_of(fake, second))
    hidden = await fake.click((await answer_of(fake, answer))["id"], "wf:ruling:originals", locale="it")
    assert "Originale inglese" not in embed_text(await answer_of(fake, hidden))


@ANSWERED_OR_DEFERRED
async def test_unknown_card_answers_with_suggestions_to_pick(shared_bot):
    fake = shared_bot.fake
    answer = await fake.slash("ruling", [option("card", "tishana wayfindr pathfinder")], locale="en-US")
    text = (await answer_of(fake, answer)).get("content") or ""
    if "wf:pick" in custom_ids(await answer_of(fake, answer)):
        picked = await fake.click((await answer_of(fake, answer))["id"], "wf:pick", component_type=3,
                                  values=[(await answer_of(fake, answer))["components"][0]["components"][0]["options"][0]["value"]])
        assert picked.type in (6, 7) and (await answer_of(fake, picked))["embeds"]
    else:
        assert (await answer_of(fake, answer))["embeds"], text
    nothing = await fake.slash("ruling", [option("card", "zzqqxxv")], locale="fr")
    assert "Aucune carte ne s'appelle « zzqqxxv »." in (await answer_of(fake, nothing))["content"]
    assert (await answer_of(fake, nothing))["flags"] & 64


async def test_buttons_are_disabled_with_a_note_when_they_expire(discord_bot, monkeypatch):
    import dataclasses
    services = discord_bot.bot.services
    monkeypatch.setattr(services, "config", dataclasses.replace(services.config, view_timeout=0.3))
    fake = discord_bot.fake
    answer = await fake.slash("ruling", [option("card", "defossilizzare")], locale="it")
    assert "wf:ruling:originals" in custom_ids(await answer_of(fake, answer))
    kind, message = await fake.next_edit(answer.token, timeout=5)
    assert kind == "edit"
    assert "Questi pulsanti sono scaduti" in message["content"]
    buttons = [c for row in message["components"] for c in row["components"]]
    assert buttons and all(b.get("disabled") for b in buttons)
    assert message["embeds"], "the rulings stay readable"


async def test_every_reader_language_sees_each_ruling_under_its_own_language(shared_bot):
    from bot.languages import DISCORD_LOCALES, LANGUAGES
    from tests.rulings.languages import CARDS, check_field, header_language
    fake = shared_bot.fake
    for lang in LANGUAGES:
        for card in CARDS:
            answer = await fake.slash("ruling", [option("card", card)], locale=DISCORD_LOCALES[lang][0])
            default = header_language(lang, (await answer_of(fake, answer))["embeds"][0]["description"])
            shown = []
            while True:
                shown += [check_field(lang, f["value"], default) for f in (await answer_of(fake, answer))["embeds"][0]["fields"]
                          if f["name"] != "…"]
                if "wf:ruling:next" not in custom_ids(await answer_of(fake, answer)) or (await answer_of(fake, answer))["components"][0][
                        "components"][1].get("disabled"):
                    break
                answer = await fake.click((await answer_of(fake, answer))["id"], "wf:ruling:next", locale=DISCORD_LOCALES[lang][0])
            expected = {"Queen's Agent": 6, "Defossilize": 6}.get(card, 9)
            assert len(shown) == expected, (lang, card, shown)
            if card == "Queen's Agent":
                assert set(shown) == {"pt"}, (lang, shown)


async def test_english_original_button_on_portuguese_only_rulings_says_there_is_none(shared_bot):
    fake = shared_bot.fake
    answer = await fake.slash("ruling", [option("card", "agente da rainha")], locale="pt-BR")
    assert "wf:ruling:originals" in custom_ids(await answer_of(fake, answer))
    shown = await fake.click((await answer_of(fake, answer))["id"], "wf:ruling:originals", locale="pt-BR")
    text = embed_text(await answer_of(fake, shown))
    assert "O catálogo não tem o original em inglês deste esclarecimento." in text
    assert "Original em inglês\n" not in text
