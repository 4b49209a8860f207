"""Every explore narration and every refusal of the engine reads in all 11 languages, and every
ruling the engine cites is a published ruling text."""
import ast
import gzip
import json
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.explore import cards, narrate
from bot.i18n import LANGUAGES, LOCALES_DIR
from tests.helpers import PROJECT, SEEDS, SHARED_DATA, needs_shared

ENGINE_FILES = [PROJECT / "bot" / "explore" / name for name in ("engine.py", "choices.py", "scenario.py")]


def engine_messages() -> set[str]:
    """The message ids the engine and the answers raise as ScenarioError."""
    found = set()
    for path in ENGINE_FILES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "ScenarioError"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                found.add(node.args[0].value)
    return found


def narration_messages() -> set[str]:
    return set(narrate.SIMPLE.values()) | {m for _, *pair in narrate.VARIANTS.values() for m in pair}


@pytest.fixture(scope="module")
def catalogs():
    return {lang: read_po(open(LOCALES_DIR / lang / "LC_MESSAGES" / "wayfinder.po", "rb")) for lang in LANGUAGES}


def test_the_engine_refuses_with_messages_and_the_narration_has_them():
    assert "{card} ({id}) is tapped: a tapped creature can't be declared as an attacker (CR 508.1a)." in engine_messages()
    assert len(narration_messages()) > 40


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_explore_message_is_translated(lang, catalogs):
    catalog = catalogs[lang]
    missing = [m for m in sorted(narration_messages() | engine_messages())
               if catalog.get(m) is None or not catalog.get(m).string]
    assert missing == []


def test_a_refusal_is_said_in_the_readers_language(bundled_services):
    from bot.explore.choices import ScenarioError
    from bot.explore.scenario import run
    from bot.i18n import messages
    with pytest.raises(ScenarioError) as caught:
        run({"battlefield": [{"id": "m", "card": "Map", "tapped": True}, {"id": "c", "card": "Merfolk Branchwalker"}],
             "action": {"activate": "m", "target": "c"}}, bundled_services.card_facts)
    assert caught.value.localized(messages("de")) == ("Map (m) ist getappt: {T} ist Teil der Kosten, also kann seine "
                                                      "Fähigkeit nicht aktiviert werden (CR 118.3).")
    assert str(caught.value).startswith("Map (m) is tapped: {T} is part of the cost")


def _seed_and_published_texts() -> str:
    texts = [p.read_text(encoding="utf-8") for p in SEEDS.glob("*.txt")]
    if SHARED_DATA.exists():
        rulings = json.load(gzip.open(SHARED_DATA / "scryfall" / "rulings-derived-2022.json.gz"))
        texts += [r["comment"] for r in rulings]
    return "\n".join(texts).replace("’", "'").replace("“", '"').replace("”", '"')


@needs_shared
def test_every_cited_ruling_is_a_published_text():
    published = _seed_and_published_texts()
    for key, (date, text) in cards.RULINGS.items():
        # the 2023 wording says "explores"; the 2018 one "explores" too, with "you control" at times
        assert text in published or text.replace('"whenever a creature explores"',
                                                  '"whenever a creature you control explores"') in published, key


def test_every_step_of_every_scenario_is_narrated(bundled_services):
    """No silent step: each event of each scenario file reads as a sentence with its citations."""
    from bot.explore.choices import ScenarioError
    from bot.explore.model import Event
    from bot.explore.scenario import run
    from bot.i18n import messages
    silent = set()
    for path in sorted((PROJECT / "tests" / "scenarios").glob("*.json")):
        data = json.loads(path.read_text())
        data.pop("expect"), data.pop("rule")
        try:
            result = run(data, bundled_services.card_facts)
        except ScenarioError:
            continue
        for event in result["events"]:
            line = narrate.describe(Event(event["kind"], {k: v for k, v in event.items() if k not in ("kind", "cites")},
                                          tuple(event["cites"])), messages("it"))
            if not line:
                silent.add(event["kind"])
    assert silent == set()


# explore cards of the real data the engine leaves plain, and why
PLAIN_ON_PURPOSE: dict[str, str] = {}


@needs_shared
def test_every_explore_card_of_the_real_data_has_its_behaviour():
    import re
    cards_data = json.load(gzip.open(SHARED_DATA / "scryfall" / "all-cards-derived-2022.json.gz"))
    explorers = set()
    for card in cards_data:
        if card.get("lang") != "en":
            continue
        text = card.get("oracle_text") or " ".join(f.get("oracle_text", "") for f in card.get("card_faces", []))
        if re.search(r"\bexplores?\b", text):
            explorers.add(card["name"].split(" // ")[0])
    assert len(explorers) >= 20
    missing = {name for name in explorers if cards.behaviour(name) is None} - set(PLAIN_ON_PURPOSE)
    assert missing == set()
