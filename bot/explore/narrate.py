"""Events in words, in the reader's language, each with the rule or ruling behind it."""
from __future__ import annotations

from ..i18n import Messages
from .cards import RULING_DATE
from .model import Event


def cite(cites: tuple[str, ...], msg: Messages) -> str:
    parts = []
    for c in cites:
        if c.startswith("ruling:"):
            label = f"ruling {RULING_DATE}"
            if label not in parts:
                parts.append(label)
        else:
            parts.append(f"CR {c}")
    return f" [{'; '.join(parts)}]" if parts else ""


def describe(event: Event, msg: Messages) -> str | None:
    p, k = event.params, event.kind
    _ = msg._
    if k == "cast":
        text = _("{card} is cast with X = {x}.", card=p["card"], x=p["x"]) if p.get("x") else \
            _("{card} is cast.", card=p["card"])
    elif k == "enter":
        text = (_("{card} enters the battlefield tapped.", card=p["card"]) if p.get("tapped")
                else _("{card} enters the battlefield.", card=p["card"]))
    elif k == "resolve":
        text = _("{card}'s ability resolves.", card=p["card"])
    elif k == "ability":
        text = msg.n_("{id} is told to explore {count} time.", "{id} is told to explore {count} times.",
                      p["times"], id=p["id"])
    elif k == "explore":
        text = _("{card} explores.", card=p["card"])
    elif k == "reveal":
        text = _("Reveals {card}.", card=p["card"])
    elif k == "land_to_hand":
        text = _("{card} is a land card: it goes to the hand.", card=p["card"])
    elif k == "counter":
        text = _("+1/+1 counter on {card} ({total} in all).", card=p["card"], total=p["total"])
    elif k == "no_counter_left":
        text = _("{id} has left the battlefield: no counter is put on anything.", id=p["id"])
    elif k == "no_counter_new_object":
        text = _("{id} left and came back: it is a new object and gets no counter.", id=p["id"])
    elif k == "keep_on_top":
        text = _("{card} stays on top of the library.", card=p["card"])
    elif k == "to_graveyard":
        text = _("{card} goes to the graveyard (this is not milling).", card=p["card"])
    elif k == "empty_library":
        text = _("The library is empty: nothing is revealed.")
    elif k == "explored":
        text = _("{card} has explored.", card=p["card"])
    elif k == "trigger":
        text = _("{card} triggers; it waits until the explore ability has finished resolving.", card=p["card"])
    elif k == "order":
        text = _("Several abilities triggered: they go on the stack in battlefield order, the first resolving first.")
    elif k == "replacement":
        text = (_("{card} replaces the explore: it explores, then explores again.", card=p["card"])
                if p["effect"] == "twice" else _("{card} replaces the explore: scry 1, then explore.", card=p["card"]))
    elif k == "replacement_order":
        text = _("{card}'s replacement effect is applied first.", card=p["card"])
    elif k == "scry":
        text = (_("Scry 1: {card} goes to the bottom.", card=p["card"]) if p["to"] == "bottom"
                else _("Scry 1: {card} stays on top.", card=p["card"]))
    elif k == "scry_empty":
        text = _("Scry 1: the library is empty.")
    elif k == "gain_life":
        text = _("You gain {amount} life ({life}).", amount=p["amount"], life=p["life"])
    elif k == "land_to_battlefield":
        text = _("{card} is put onto the battlefield tapped from the hand.", card=p["card"])
    elif k == "declined":
        text = _("No land is put onto the battlefield.")
    elif k == "boost":
        text = _("{card} gets +1/+0 and can't be blocked this turn.", card=p["card"])
    elif k == "create_token":
        text = _("A {card} token is created.", card=p["card"])
    elif k == "leave":
        text = _("{card} leaves the battlefield.", card=p["card"])
    elif k == "attack":
        text = _("{card} attacks.", card=p["card"])
    elif k == "activate":
        text = _("The Map is sacrificed: {target} is its target.", target=p["target"])
    elif k == "fizzle":
        text = _("The target {target} is gone: the ability does nothing.", target=p["target"])
    elif k == "spell_resolved":
        text = _("{card} has resolved.", card=p["card"])
    else:
        return None
    return text + cite(event.cites, msg)
