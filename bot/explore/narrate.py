"""Events in words, in the reader's language, each with the rule or ruling behind it."""
from __future__ import annotations

from typing import Callable

from bot.i18n import Messages
from bot.explore.cards import ruling_date
from bot.explore.model import Event

# event kind → the message; its placeholders are filled from the event's details
SIMPLE = {
    "resolve": "{card}'s ability resolves.",
    "reveal": "Reveals {card}.",
    "land_to_hand": "{card} is a land card: it goes to the hand.",
    "counter": "+1/+1 counter on {card} ({total} in all).",
    "no_counter_left": "{id} has left the battlefield: no counter is put on anything.",
    "no_counter_new_object": "{id} left and came back: it is a new object and gets no counter.",
    "keep_on_top": "{card} stays on top of the library.",
    "to_graveyard": "{card} goes to the graveyard (this is not milling).",
    "empty_library": "The library is empty: nothing is revealed.",
    "explored": "{card} has explored.",
    "trigger": "{card} triggers; it waits until the explore ability has finished resolving.",
    "triggers": "{card}'s ability triggers.",
    "order": "These abilities triggered at the same time and go on the stack in this order: {abilities}. "
             "The last one put on the stack resolves first.",
    "replacement_order": "{card}'s replacement effect is applied first.",
    "scry_empty": "Scry 1: the library is empty.",
    "land_to_battlefield": "{card} is put onto the battlefield tapped from the hand.",
    "declined": "No land is put onto the battlefield.",
    "boost": "{card} gets +1/+0 and can't be blocked this turn.",
    "weaken": "{card} gets -2/-2 until end of turn.",
    "create_token": "A {card} token is created.",
    "leave": "{card} leaves the battlefield.",
    "return": "{card} returns to the battlefield: it is a new object.",
    "not_creature": "{card} is not a creature on the battlefield.",
    "card_leaves": "{card} leaves the graveyard.",
    "attack": "{card} attacks.",
    "combat_damage": "{card} deals combat damage to the defending player.",
    "no_damage": "{id} has left the battlefield: it deals no combat damage.",
    "target": "{card} targets {target}.",
    "no_target": "{card}'s ability has no legal target: it is removed from the stack.",
    "fizzle": "The target {target} is gone: {card} does nothing.",
    "fizzle_new_object": "{target} left and came back: it is a new object, not the target, and {card} does nothing.",
    "fizzle_not_creature": "{target} is no longer a creature: it is not a legal target, and {card} does nothing.",
    "target_illegal": "{target} has left the graveyard: it is no longer a legal target of {card}'s ability.",
    "fizzle_all": "All the targets of {card}'s ability are illegal: it doesn't resolve, and {card} doesn't explore.",
    "source_gone": "{card} has left the battlefield: that part of its ability does nothing.",
    "pay_mana": "{cost} is paid.",
    "pay_tap": "{card} is tapped to pay the cost.",
    "sacrifice": "{card} is sacrificed to pay the cost.",
    "discard": "{card} is discarded to pay the cost.",
    "extra_land": "You may play an additional land this turn.",
    "spell_resolved": "{card} has resolved.",
    "unsettled_replacement": "Unsettled: the rules do not say whether “If a creature you control would explore” "
                             "applies to {id}, which has left the battlefield; it is not applied here.",
}
# kinds whose wording depends on a detail: (detail, message when it is set, message otherwise)
VARIANTS = {
    "cast": ("x", "{card} is cast with X = {x}.", "{card} is cast."),
    "enter": ("tapped", "{card} enters the battlefield tapped.", "{card} enters the battlefield."),
    "replacement": ("scry", "{card} replaces the explore: scry 1, then explore.",
                    "{card} replaces the explore: it explores, then explores again."),
    "scry": ("bottom", "Scry 1: {card} goes to the bottom.", "Scry 1: {card} stays on top."),
    "explore": ("opponent", "{card} explores: its controller, the opponent, reveals the top card of their own "
                            "library.", "{card} explores."),
    "gain_life": ("opponent", "The opponent gains {amount} life ({life}).", "You gain {amount} life ({life})."),
    "activate": ("target", "{card}'s ability is activated, targeting {target}.", "{card}'s ability is activated."),
    "target_card": ("opponent", "{card} targets {target} in the opponent's graveyard.",
                    "{card} targets {target} in your graveyard."),
    "exile_card": ("opponent", "{card} is exiled from the opponent's graveyard.",
                   "{card} is exiled from your graveyard."),
}


# the details that name a card or a permanent
NAMED = ("card", "id", "target")


def cite(cites: tuple[str, ...], msg: Messages) -> str:
    parts: list[str] = []
    for c in cites:
        label = f"ruling {ruling_date(c)}" if c.startswith("ruling:") else f"CR {c}"
        if label not in parts:
            parts.append(label)
    return f" [{'; '.join(parts)}]" if parts else ""


def _values(params: dict) -> dict:
    values = {k: v for k, v in params.items() if isinstance(v, (str, int))}
    values["scry"] = params.get("effect") == "scry"
    values["bottom"] = params.get("to") == "bottom"
    values["opponent"] = "opponent" in (params.get("controller"), params.get("player"))
    return values


def describe(event: Event, msg: Messages, name: Callable[[str], str] | None = None) -> str | None:
    """The event in words; ``name`` turns a card's English name (or a permanent's id) into the
    reader's words for it."""
    values = _values(event.params)
    if name is not None:
        values.update({key: name(values[key]) for key in NAMED if isinstance(values.get(key), str)})
    if isinstance(event.params.get("abilities"), list):
        values["abilities"] = ", ".join(name(a) if name else a for a in event.params["abilities"])
    if event.kind == "ability":
        text = msg.n_("{id} is told to explore {count} time.", "{id} is told to explore {count} times.",
                      values["times"], id=values.get("card", values["id"]))
    elif event.kind in VARIANTS:
        detail, when_set, otherwise = VARIANTS[event.kind]
        text = msg._(when_set if values.get(detail) else otherwise, **values)
    elif event.kind in SIMPLE:
        text = msg._(SIMPLE[event.kind], **values)
    else:
        return None
    return text + cite(event.cites, msg)
