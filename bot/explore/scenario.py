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

from bot.catalog.errors import byte_position
from bot.explore.choices import Choices, ScenarioError
from bot.explore.engine import Engine
from bot.explore.model import (PLAYERS, Action, Activate, Attack, CardFacts, Cast, Enter, Explore, GameState,
                               Leaves, Permanent, Player)
from bot.explore.shuffle import shuffled
from bot.i18n import Note

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
    "activate": (Activate, {"target": "id", "targets": "names", "discard": "name", "sacrifice": "id"}),
}


def _nesting_too_deep(text: str, limit: int = 100) -> tuple[int, int]:
    """(line, column) of the first bracket nested more than ``limit`` deep."""
    depth, in_string, escaped, line, column = 0, False, False, 1, 0
    for char in text:
        column += 1
        if char == "\n":
            line, column = line + 1, 0
        elif in_string:
            escaped, in_string = (False, True) if escaped else (char == "\\", char != '"')
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                break
        elif char in "]}":
            depth -= 1
    return line, column


def load(path: Path | str) -> dict:
    """A scenario file's JSON. A file that is not one is refused with a line that says why in words
    (missing, a folder, unreadable, not UTF-8 text, not JSON, nested too deeply) and where."""
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise ScenarioError("{path}: no such file.", path=str(path)) from None
    except OSError as exc:
        raise ScenarioError("{path} can't be read: {error}", path=str(path), error=_unreadable(exc)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioError("{path} is not UTF-8 text ({position}).", path=str(path),
                            position=byte_position(raw, exc.start)) from None
    try:
        return json.loads(text)
    except RecursionError:
        line, column = _nesting_too_deep(text)
        raise ScenarioError("{path} is nested too deeply (line {line}, column {column}).", path=str(path),
                            line=line, column=column) from None
    except json.JSONDecodeError as exc:
        raise ScenarioError("{path} is not valid JSON (line {line}, column {column}).", path=str(path),
                            line=exc.lineno, column=exc.colno) from None


def _unreadable(exc: OSError) -> Note:
    """Why a file cannot be read, in words rather than the system's."""
    if isinstance(exc, IsADirectoryError):
        return Note("it is a folder")
    if isinstance(exc, PermissionError):
        return Note("reading it is not permitted")
    return Note("the system could not read it")


def _names(value, field: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ScenarioError("“{field}” must be a list of card names.", field=field)
    if len(value) > MAX_CARDS:
        raise ScenarioError("“{field}” has more than {max} cards.", field=field, max=MAX_CARDS)
    return value


def build(data: dict, lookup: Callable[[str], CardFacts], deck_lookup=None) -> tuple[Engine, dict]:
    if not isinstance(data, dict):
        raise ScenarioError("A scenario is a JSON object.")
    unknown = set(data) - KEYS
    if unknown:
        raise ScenarioError("Unknown field(s): {fields}.", fields=", ".join(sorted(unknown)))
    if "action" not in data:
        raise ScenarioError("The scenario has no “action”.")
    if "library" in data and "deck" in data:
        raise ScenarioError("Give “library” or “deck” and “seed”, not both.")
    if "deck" in data:
        if deck_lookup is None:
            raise ScenarioError("No decks are available here.")
        try:
            seed = int(data.get("seed"))
        except (TypeError, ValueError):
            raise ScenarioError("“deck” needs a whole-number “seed”.") from None
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
        raise ScenarioError("“battlefield” must be a list of permanents, each with an “id” and a “card”.")
    for number, entry in enumerate(battlefield, start=1):
        if not isinstance(entry, dict) or "id" not in entry or "card" not in entry:
            raise ScenarioError("Battlefield entry {number} needs an “id” and a “card”.", number=number)
        pid = str(entry["id"])
        if pid in state.battlefield:
            raise ScenarioError("The battlefield id “{id}” is used twice.", id=pid)
        state.battlefield[pid] = Permanent(
            pid, lookup(entry["card"]), _player(entry.get("controller", "you"), "controller"),
            _int(entry.get("counters", 0), "counters"), bool(entry.get("tapped", False)),
            str(entry["attached_to"]) if entry.get("attached_to") else None,
            False if entry.get("creature") is False else None, number)
    for p in state.battlefield.values():
        if p.attached_to and p.attached_to not in state.battlefield:
            raise ScenarioError("{id} is attached to “{other}”, which is not on the battlefield.", id=p.id,
                                other=p.attached_to)
    answers = data.get("choices") or []
    if not isinstance(answers, list):
        raise ScenarioError("“choices” must be a list of answers.")
    leaving = data.get("leaves_before_resolution") or []
    if not isinstance(leaving, list):
        raise ScenarioError("“leaves_before_resolution” must be a list.")
    answers = [a if isinstance(a, dict) else str(a) for a in answers]
    engine = Engine(state, Choices(answers), lookup)
    return engine, {"action": parse_action(data["action"]), "leaving": parse_leaving(leaving)}


def parse_action(data) -> Action:
    """The scenario's ``action`` as a typed action, every field checked."""
    names = set(data) & set(ACTIONS) if isinstance(data, dict) else set()
    if len(names) != 1:
        raise ScenarioError("The action must be one of: {actions}.", actions=", ".join(ACTIONS))
    (name,) = names
    kind, fields = ACTIONS[name]
    unknown = set(data) - set(fields) - {name}
    if unknown:
        raise ScenarioError("The {action} action has no field(s) {fields} (it takes: {known}).", action=name,
                            fields=", ".join(sorted(unknown)), known=", ".join(fields) or "—")
    values = {}
    for key, what in fields.items():
        value = data.get(key)
        if value is None or value == "":
            continue
        if what == "count":
            values[key] = _count(value, key)
        elif what == "flag":
            if not isinstance(value, bool):
                raise ScenarioError("“{field}” must be true or false.", field=key)
            values[key] = value
        elif what == "player":
            values[key] = _player(value, key)
        elif what == "names":
            values[key] = tuple(_names(value, key))
        else:
            values[key] = str(value)
    first = "card" if kind in (Enter, Cast) else "id"
    return kind(**{first: str(data[name])}, **values)


# the keys of an entry of "leaves_before_resolution" that is an object, by the key that it must
# have: a permanent ("id"), or a card that leaves its owner's graveyard ("card")
LEAVING_KEYS = {"id": ("id", "returns", "to", "before"), "card": ("card", "owner", "to", "before")}


def parse_leaving(items: list) -> tuple[Leaves, ...]:
    """Each entry: an id, or an object of one of the forms LEAVING_KEYS names (a permanent, or a
    card that leaves its owner's graveyard: yours unless ``owner`` is "opponent")."""
    out = []
    for item in items:
        if isinstance(item, str):
            out.append(Leaves(item))
            continue
        forms = [keys for must, keys in LEAVING_KEYS.items() if isinstance(item, dict) and isinstance(item.get(must), str)]
        if len(forms) != 1 or not set(item) <= set(forms[0]):
            raise ScenarioError("Each entry of “leaves_before_resolution” is an id, an object with the keys {by_id}"
                                " (“id” required) or an object with the keys {by_card} (“card” required: a card in a"
                                " graveyard).", by_id=", ".join(LEAVING_KEYS["id"]),
                                by_card=", ".join(LEAVING_KEYS["card"]))
        to = item.get("to", "graveyard" if "id" in item else "exile")
        if to not in LEAVES_TO or ("card" in item and to != "exile"):
            raise ScenarioError("“to” must be one of {zones} (for a card in the graveyard: exile).",
                                zones=", ".join(LEAVES_TO))
        out.append(Leaves(item.get("id"), item.get("card"), bool(item.get("returns")), to,
                          str(item["before"]) if item.get("before") else None,
                          _player(item.get("owner", "you"), "owner")))
    return tuple(out)


def _player(value, what: str) -> str:
    if value not in PLAYERS:
        raise ScenarioError("“{field}” must be one of {players}.", field=what, players=", ".join(PLAYERS))
    return value


def _opponent(data, lookup) -> Player:
    if not isinstance(data, dict) or set(data) - set(ZONES) - {"life"}:
        raise ScenarioError("“opponent” is an object with “library”, “hand”, “graveyard”, “exile” and “life”.")
    zones = {zone: [lookup(n) for n in _names(data.get(zone), f"opponent.{zone}")] for zone in ZONES}
    return Player(**zones, life=_int(data.get("life", 20), "opponent.life"))


def _count(value, what: str) -> int:
    n = _int(value, what)
    if not 0 <= n <= MAX_COUNT:
        raise ScenarioError("“{field}” must be between 0 and {max}.", field=what, max=MAX_COUNT)
    return n


def _int(value, what: str) -> int:
    if isinstance(value, bool):
        raise ScenarioError("“{field}” must be a whole number.", field=what)
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ScenarioError("“{field}” must be a whole number, not {value}.", field=what,
                            value=repr(value)) from None


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
