"""Community nicknames in /ruling, [[card]] and autocomplete: below the cards' real names."""
import pytest

from bot.i18n import messages
from bot.matching import nicknames as nicknames_module
from bot.matching.lookup import autocomplete_choices, resolve_card
from bot.matching.nicknames import KINDS, nicknames
from bot.text import fold
from tests.helpers import needs_shared

pytestmark = needs_shared


def name(full_catalog, lookup):
    return full_catalog.card(lookup.oracle_id).name if lookup.oracle_id else None


def test_nicknames_name_their_cards(full_matcher, full_catalog):
    en = messages("en")
    assert name(full_catalog, resolve_card(full_matcher, "bolt", en)) == "Lightning Bolt"
    assert name(full_catalog, resolve_card(full_matcher, "Goyf", en)) == "Tarmogoyf"
    assert name(full_catalog, resolve_card(full_matcher, "BoP", en)) == "Birds of Paradise"
    first = autocomplete_choices(full_matcher, "bolt", "en")[0]
    assert first.label == "Lightning Bolt"


def test_a_real_card_named_like_a_nickname_wins(full_matcher, full_catalog, tmp_path, monkeypatch):
    listed = tmp_path / "nicknames.tsv"
    listed.write_text("# test\nopt\tcard\tLightning Bolt\nzapzap\tcard\tLightning Bolt\n", encoding="utf-8")
    monkeypatch.setattr(nicknames_module, "NICKNAMES_FILE", listed)
    nicknames.cache_clear()
    try:
        en = messages("en")
        assert name(full_catalog, resolve_card(full_matcher, "Opt", en)) == "Opt"
        assert name(full_catalog, resolve_card(full_matcher, "zapzap", en)) == "Lightning Bolt"
        labels = [c.label for c in autocomplete_choices(full_matcher, "opt", "en")]
        assert labels[0] == "Opt" and labels[1] == "Lightning Bolt"
    finally:
        nicknames.cache_clear()


def test_every_nickname_points_at_something_real(full_matcher, rules_book):
    for key, entries in nicknames().items():
        for nick in entries:
            assert nick.kind in KINDS
            if nick.kind == "card":
                found = full_matcher.resolve(nick.target, prefer_lang="en")
                assert found.status == "one" and nick.target in found.best.english_name.split(" // "), nick
            elif nick.kind == "rule":
                assert nick.target in rules_book.current.rules, nick


def test_a_nickname_names_the_card_its_full_name_names(full_matcher, full_catalog):
    """Typing a nickname gives the card (and autocomplete label) typing the card's name gives."""
    en = messages("en")
    for key, entries in nicknames().items():
        for nick in entries:
            if nick.kind != "card":
                continue
            typed = full_matcher.resolve(key, prefer_lang="en")
            if typed.status == "one" and typed.best.how == "exact":
                continue      # a card named so ("Uro", a token): it wins, as tested above
            by_name = full_matcher.resolve(nick.target, prefer_lang="en")
            assert resolve_card(full_matcher, key, en).oracle_id == by_name.best.oracle_id, nick
            labels = [c.label for c in autocomplete_choices(full_matcher, key, "en")]
            assert by_name.best.label() in labels[:1 + sum(fold(label) == key for label in labels)], nick
    # a name that several cards print exactly ("Fire": Fire // Ice, Start // Fire) names none of them
    assert full_matcher.resolve("Fire", prefer_lang="en").status == "ambiguous"
    assert full_matcher.exact("Fire", "en") is None
    assert full_matcher.exact("fire // ice", "en").english_name == "Fire // Ice"
