"""Scenario files for judges: one board, one action, the answers to its decisions; the result as JSON.

    {"library": ["Forest", "Opt"], "hand": [], "graveyard": [],
     "battlefield": [{"id": "w", "card": "Wildgrowth Walker", "counters": 0}],
     "life": 20, "action": {"enter": "Jadelight Ranger", "id": "j"},
     "leaves_before_resolution": [], "choices": ["graveyard"]}

``deck`` + ``seed`` may replace ``library``. The schema is documented in README.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from bot.explore.choices import Choices, ScenarioError
from bot.explore.engine import Engine
from bot.explore.model import (PLAYERS, Action, Activate, Attack, CardFacts, Cast, Enter, Explore, GameState,
                               Leaves, Permanent, Player)
from bot.explore.shuffle import shuffled

KEYS = {"library", "deck", "seed", "hand", "graveyard", "exile", "battlefield", "life", "action",
        "leaves_before_resolution", "choices", "opponent", "active"}
ZONES = ("library", "hand", "graveyard", "exile")
LEAVES_TO = ("graveyard", "exile", "hand")
MAX_CARDS = 1000
MAX_COUNT = 100     # the most explores or X a scenario may ask for

# the action's first key names it; its other keys and whether each is a card name, an id or a number
ACTIONS: dict[str, tuple[type, dict[str, str]]] = {
    "explore": (Explore, {"times": "count"}),
    "enter": (Enter, {"id": "id", "x": "count", "target": "id", "controller": "player", "creature": "flag"}),
    "cast": (Cast, {"target": "name", "creature": "flag"}),
    "attack": (Attack, {"damage": "flag"}),
    "activate": (Activate, {"target": "id", "discard": "name", "sacrifice": "id"}),
}


def load(path: Path | str) -> dict:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ScenarioError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"{path}: unreadable: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    return data


def _names(value, field: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ScenarioError(f"{field!r} must be a list of card names")
    if len(value) > MAX_CARDS:
        raise ScenarioError(f"{field!r} has more than {MAX_CARDS} cards")
    return value


def build(data: dict, lookup: Callable[[str], CardFacts], deck_lookup=None) -> tuple[Engine, dict]:
    if not isinstance(data, dict):
        raise ScenarioError("a scenario is a JSON object")
    unknown = set(data) - KEYS
    if unknown:
        raise ScenarioError(f"unknown field(s): {', '.join(sorted(unknown))}")
    if "action" not in data:
        raise ScenarioError("the scenario has no 'action'")
    if "library" in data and "deck" in data:
        raise ScenarioError("give 'library' or 'deck' + 'seed', not both")
    if "deck" in data:
        if deck_lookup is None:
            raise ScenarioError("no decks available")
        try:
            seed = int(data.get("seed"))
        except (TypeError, ValueError):
            raise ScenarioError("'deck' needs a whole-number 'seed'") from None
        library = shuffled(deck_lookup(str(data["deck"])), seed)
    else:
        library = [lookup(n) for n in _names(data.get("library"), "library")]
    state = GameState(
        library=library,
        hand=[lookup(n) for n in _names(data.get("hand"), "hand")],
        graveyard=[lookup(n) for n in _names(data.get("graveyard"), "graveyard")],
        exile=[lookup(n) for n in _names(data.get("exile"), "exile")],
        life=_int(data.get("life", 20), "life"),
        opponent=_opponent(data["opponent"], lookup) if "opponent" in data else None,
        active=_player(data.get("active", "you"), "active"),
    )
    battlefield = data.get("battlefield") or []
    if not isinstance(battlefield, list):
        raise ScenarioError("'battlefield' must be a list of {id, card, counters, attached_to, controller}")
    for number, entry in enumerate(battlefield, start=1):
        if not isinstance(entry, dict) or "id" not in entry or "card" not in entry:
            raise ScenarioError(f"battlefield entry {number} needs an 'id' and a 'card'")
        pid = str(entry["id"])
        if pid in state.battlefield:
            raise ScenarioError(f"battlefield id {pid!r} is used twice")
        state.battlefield[pid] = Permanent(
            pid, lookup(entry["card"]), _player(entry.get("controller", "you"), f"controller of {pid}"),
            _int(entry.get("counters", 0), f"counters of {pid}"), bool(entry.get("tapped", False)),
            str(entry["attached_to"]) if entry.get("attached_to") else None,
            False if entry.get("creature") is False else None, number)
    for p in state.battlefield.values():
        if p.attached_to and p.attached_to not in state.battlefield:
            raise ScenarioError(f"{p.id} is attached to {p.attached_to!r}, which is not on the battlefield")
    answers = data.get("choices") or []
    if not isinstance(answers, list):
        raise ScenarioError("'choices' must be a list of answers")
    leaving = data.get("leaves_before_resolution") or []
    if not isinstance(leaving, list):
        raise ScenarioError("'leaves_before_resolution' must be a list of ids")
    answers = [a if isinstance(a, dict) else str(a) for a in answers]
    engine = Engine(state, Choices(answers), lookup)
    return engine, {"action": parse_action(data["action"]), "leaving": parse_leaving(leaving)}


def parse_action(data) -> Action:
    """The scenario's ``action`` as a typed action, every field checked."""
    names = set(data) & set(ACTIONS) if isinstance(data, dict) else set()
    if len(names) != 1:
        raise ScenarioError(f"the action must be one of: {', '.join(ACTIONS)}")
    (name,) = names
    kind, fields = ACTIONS[name]
    unknown = set(data) - set(fields) - {name}
    if unknown:
        raise ScenarioError(f"the {name} action has no field(s) {', '.join(sorted(unknown))}"
                            f" (it takes: {', '.join(fields) or 'nothing else'})")
    values = {}
    for key, what in fields.items():
        value = data.get(key)
        if value is None or value == "":
            continue
        if what == "count":
            values[key] = _count(value, key)
        elif what == "flag":
            if not isinstance(value, bool):
                raise ScenarioError(f"{key} must be true or false")
            values[key] = value
        elif what == "player":
            values[key] = _player(value, key)
        else:
            values[key] = str(value)
    first = "card" if kind in (Enter, Cast) else "id"
    return kind(**{first: str(data[name])}, **values)


def parse_leaving(items: list) -> tuple[Leaves, ...]:
    """Each entry: an id, {"id", "returns", "to", "before"}, or {"card", "to", "before"} for a card
    that leaves the graveyard."""
    out = []
    for item in items:
        if isinstance(item, str):
            out.append(Leaves(item))
            continue
        if not (isinstance(item, dict) and set(item) <= {"id", "card", "returns", "to", "before"}
                and (isinstance(item.get("id"), str)) != (isinstance(item.get("card"), str))):
            raise ScenarioError("each of 'leaves_before_resolution' is an id, {\"id\": ID, \"returns\": true, "
                                "\"to\": ZONE, \"before\": CARD} or {\"card\": NAME_IN_GRAVEYARD}")
        to = item.get("to", "graveyard" if "id" in item else "exile")
        if to not in LEAVES_TO or ("card" in item and to != "exile"):
            raise ScenarioError(f"'to' must be one of {', '.join(LEAVES_TO)} (a card in a graveyard: exile)")
        out.append(Leaves(item.get("id"), item.get("card"), bool(item.get("returns")), to,
                          str(item["before"]) if item.get("before") else None))
    return tuple(out)


def _player(value, what: str) -> str:
    if value not in PLAYERS:
        raise ScenarioError(f"{what} must be one of {', '.join(PLAYERS)}")
    return value


def _opponent(data, lookup) -> Player:
    if not isinstance(data, dict) or set(data) - set(ZONES) - {"life"}:
        raise ScenarioError("'opponent' is an object with library, hand, graveyard, exile and life")
    zones = {zone: [lookup(n) for n in _names(data.get(zone), f"opponent's {zone}")] for zone in ZONES}
    return Player(**zones, life=_int(data.get("life", 20), "opponent's life"))


def _count(value, what: str) -> int:
    n = _int(value, what)
    if not 0 <= n <= MAX_COUNT:
        raise ScenarioError(f"{what} must be between 0 and {MAX_COUNT}")
    return n


def _int(value, what: str) -> int:
    if isinstance(value, bool):
        raise ScenarioError(f"{what} must be a whole number")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ScenarioError(f"{what} must be a whole number, not {value!r}") from None


def run(data: dict, lookup: Callable[[str], CardFacts], deck_lookup=None) -> dict:
    engine, plan = build(data, lookup, deck_lookup)
    engine.run_action(plan["action"], plan["leaving"])
    return result(engine)


def result(engine: Engine) -> dict:
    return {
        "explored": [{"permanent": e.permanent, "card": e.card, "revealed": e.revealed} for e in engine.explored],
        "events": [e.as_dict() for e in engine.events],
        "state": engine.state.as_dict(),
    }
