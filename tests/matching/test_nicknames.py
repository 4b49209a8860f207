"""Community nicknames in /ruling, [[card]] and autocomplete: below the cards' real names."""
import pytest

from bot.i18n import messages
from bot.matching import nicknames as nicknames_module
from bot.matching.lookup import autocomplete_choices, resolve_card
from bot.matching.nicknames import KINDS, nicknames
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
