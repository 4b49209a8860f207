"""The explore engine: actions on a small game state, resolved as the rules say.

CR 701.44a–d and the explore rulings, event by event. Triggered abilities that trigger while an
ability resolves wait until it has resolved (nobody acts in the middle), then go on the stack in
the order of their sources on the battlefield and resolve one at a time, the last one put on the
stack first; what triggers while one of them resolves goes on top.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from bot.explore.cards import MAP_TOKEN, CreateMap, Explores, Payoff, behaviour
from bot.explore.choices import Choices, NeedChoice, ScenarioError
from bot.explore.model import (Action, Activate, Attack, CardFacts, Cast, Enter, Event, Explore, Explored,
                               GameState, Leaves, Permanent)

__all__ = ["Engine", "NeedChoice", "ScenarioError"]


@dataclass
class Trigger:
    """An ability waiting to be put on the stack, or on the stack."""
    source: str               # the permanent id whose ability it is
    effect: object            # what it does, from the card table (Explores, CreateMap, Payoff)
    data: dict = field(default_factory=dict)


@dataclass(frozen=True)
class ExplorerRef:
    """The object told to explore: a permanent id and which object it was (CR 400.7)."""
    id: str
    object_number: int


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "card"


class Engine:
    def __init__(self, state: GameState, choices: Choices | None = None,
                 card_lookup: Callable[[str], CardFacts] | None = None):
        self.state = state
        self.choices = choices or Choices()
        self.lookup = card_lookup
        self.events: list[Event] = []
        self.explored: list[Explored] = []
        self.pending: list[Trigger] = []
        self.stack: list[Trigger] = []
        self.last_known: dict[str, Permanent] = {}
        self._x: dict[str, int] = {}          # X paid for a permanent that entered
        self._targets: dict[str, str] = {}    # a chosen target for a permanent's entering ability
        self._objects = 1 + max((p.object_number for p in state.battlefield.values()), default=0)

    # -- bookkeeping -------------------------------------------------------------------------

    def emit(self, kind: str, cites: tuple[str, ...] = (), **params) -> None:
        self.events.append(Event(kind, params, cites))

    def _new_id(self, name: str) -> str:
        base = slug(name)
        candidate, n = base, 1
        while candidate in self.state.battlefield or candidate in self.last_known:
            n += 1
            candidate = f"{base}-{n}"
        return candidate

    def permanent(self, pid: str) -> Permanent:
        if pid not in self.state.battlefield:
            raise ScenarioError(f"no permanent with id {pid!r} on the battlefield")
        return self.state.battlefield[pid]

    def ref(self, pid: str) -> ExplorerRef:
        return ExplorerRef(pid, self.permanent(pid).object_number)

    def current(self, ref: ExplorerRef) -> Permanent | None:
        """The permanent if it is still the same object on the battlefield."""
        p = self.state.battlefield.get(ref.id)
        return p if p is not None and p.object_number == ref.object_number else None

    def info(self, ref: ExplorerRef) -> Permanent:
        """The permanent, or its last known information (CR 701.44c)."""
        return self.current(ref) or self.last_known[ref.id]

    def put_onto_battlefield(self, card: CardFacts, pid: str | None = None, *, tapped: bool = False,
                             controller: str = "you", from_zone: str | None = None) -> Permanent:
        pid = pid or self._new_id(card.name)
        if pid in self.state.battlefield:
            raise ScenarioError(f"id {pid!r} is already used on the battlefield")
        permanent = Permanent(pid, card, controller, tapped=tapped, object_number=self._objects)
        self._objects += 1
        self.state.battlefield[pid] = permanent
        self.emit("enter", (), id=pid, card=card.name, tapped=tapped, **({"from": from_zone} if from_zone else {}))
        self._entered(permanent)
        return permanent

    def leave(self, pid: str, *, returns: bool = False) -> None:
        """The permanent leaves the battlefield (after the ability is on the stack, before it resolves)."""
        p = self.permanent(pid)
        self.last_known[pid] = p.snapshot()
        del self.state.battlefield[pid]
        for other in self.state.battlefield.values():
            if other.attached_to == pid:
                other.attached_to = None
        if not p.card.token:
            self.state.graveyard.append(p.card)
        self.emit("leave", ("400.7",), id=pid, card=p.card.name)
        if returns:
            back = self.put_onto_battlefield(p.card, pid, controller=p.controller, from_zone="graveyard")
            back.creature = p.creature

    # -- triggers ----------------------------------------------------------------------------

    def _entered(self, p: Permanent) -> None:
        card = behaviour(p.card.front_name)
        for ability in card.enters if card else ():
            self.pending.append(Trigger(p.id, ability, {"ref": self.ref(p.id)}))
        if p.is_creature:
            for source in self.state.controlled(p.controller):
                source_card = behaviour(source.card.front_name)
                if source_card and source_card.creature_enters:
                    self.pending.append(Trigger(source.id, source_card.creature_enters, {"ref": self.ref(p.id)}))

    def _triggers_for_explore(self, record: Explored, revealed: CardFacts | None) -> None:
        if not record.was_creature:
            return  # "whenever a creature you control explores" ignores a noncreature permanent
        for source in self.state.controlled(record.controller):
            card = behaviour(source.card.front_name)
            for payoff in card.payoffs if card else ():
                if payoff.revealed != "any":
                    if revealed is None:
                        continue  # nothing was revealed: neither a land card nor a nonland card
                    if (payoff.revealed == "land") != revealed.is_land:
                        continue
                self.pending.append(Trigger(source.id, payoff, {"explorer": record.permanent,
                                                                "revealed": revealed.name if revealed else None}))
                self.emit("trigger", ("603.2", "ruling:no-actions"), source=source.id, card=source.card.front_name,
                          explorer=record.permanent)

    def resolve_pending(self, leaving: tuple = ()) -> None:
        """Put what triggered on the stack (sources in battlefield order), apply what leaves before
        resolution, then resolve the stack; what triggers meanwhile goes on top."""
        self._push_pending()
        self._apply_leaving(leaving)
        while self.stack:
            trigger = self.stack.pop()
            self._resolve_trigger(trigger)
            self._push_pending()

    def _push_pending(self) -> None:
        if not self.pending:
            return
        order = list(self.state.battlefield)
        batch = sorted(self.pending, key=lambda t: order.index(t.source) if t.source in order else len(order))
        self.pending = []
        if len(batch) > 1:
            self.emit("order", ("603.3b",), abilities=[self._source_name(t.source) for t in batch])
        self.stack.extend(reversed(batch))  # the first in battlefield order resolves first

    def _source_name(self, pid: str) -> str:
        p = self.state.battlefield.get(pid) or self.last_known.get(pid)
        return p.card.front_name if p else pid

    def _apply_leaving(self, leaving: tuple[Leaves, ...]) -> None:
        for item in leaving:
            self.leave(item.id, returns=item.returns)

    def _resolve_trigger(self, t: Trigger) -> None:
        source = self.state.battlefield.get(t.source)
        name = self._source_name(t.source)
        self.emit("resolve", ("608.2",), source=t.source, card=name)
        effect = t.effect
        if isinstance(effect, CreateMap):
            token = CardFacts(MAP_TOKEN, "Token Artifact — Map", token=True)
            self.emit("create_token", ("111.1",), card=MAP_TOKEN)
            self.put_onto_battlefield(token, self._new_id("map"))
        elif isinstance(effect, Explores) and "target" in t.data:   # an activated ability's target
            target = self.state.battlefield.get(t.data["target"])
            if target is None or not target.is_creature:
                self.emit("fizzle", ("608.2b",), target=t.data["target"])
            else:
                self.explore(self.ref(target.id), 1)
        elif isinstance(effect, Explores) and effect.target:
            target = self._target_creature(self._targets.get(t.source))
            if target is not None:
                self.explore(self.ref(target), 1)
        elif isinstance(effect, Explores):
            times = self._x.get(t.source, 0) if effect.times == "X" else effect.times
            self.explore(t.data["ref"], times)
        elif isinstance(effect, Payoff):
            for step in effect.steps:
                self._payoff_step(step, source, name, t.data, effect.cites)

    def _payoff_step(self, step: str, source: Permanent | None, name: str, data: dict, cites: tuple) -> None:
        if step == "counter":
            if source:
                source.counters += 1
                self.emit("counter", cites, id=source.id, card=name, total=source.counters)
        elif step.startswith("life "):
            amount = int(step.split()[1])
            self.state.life += amount
            self.emit("gain_life", (), amount=amount, life=self.state.life)
        elif step == "boost":
            if source:
                source.boosts.append("+1/+0, can't be blocked this turn")
                self.emit("boost", (), id=source.id, card=name)
        elif step == "land from hand":
            lands = sorted({c.name for c in self.state.hand if c.is_land})
            answer = self.choices.ask("land", lands + ["no"], "no", revealed=data["revealed"])
            if answer != "no":
                card = next(c for c in self.state.hand if c.name == answer)
                self.state.hand.remove(card)
                self.emit("land_to_battlefield", cites, card=card.name)
                self.put_onto_battlefield(card, tapped=True, from_zone="hand")
            else:
                self.emit("declined", cites, card=name)
        else:
            raise ValueError(f"unknown payoff step {step!r}")

    def _target_creature(self, wanted: str | None) -> str | None:
        creatures = [p.id for p in self.state.controlled() if p.is_creature]
        if wanted:
            if wanted not in creatures:
                raise ScenarioError(f"{wanted!r} is not a creature you control")
            return wanted
        return creatures[0] if creatures else None

    # -- explore -----------------------------------------------------------------------------

    def explore(self, ref: ExplorerRef, times: int = 1) -> None:
        """One ability tells ``ref`` to explore ``times`` times (each instruction may be replaced)."""
        for _ in range(times):
            self._instruction(ref)

    def _instruction(self, ref: ExplorerRef) -> None:
        present = self.current(ref)
        who = self.info(ref)
        scry, count = 0, 1
        if present is not None and present.is_creature:
            effects = [p for p in self.state.controlled(who.controller) if not p.card.is_land
                       and (card := behaviour(p.card.front_name)) and card.replacement]
            remaining = list(effects)
            while remaining:
                if len(remaining) > 1:
                    names = [p.card.front_name for p in remaining]
                    chosen = self.choices.ask("replacement", list(dict.fromkeys(names)), names[0])
                    effect = next(p for p in remaining if p.card.front_name == chosen)
                    self.emit("replacement_order", ("616.1", "616.1e"), card=chosen)
                else:
                    effect = remaining[0]
                remaining.remove(effect)
                kind = behaviour(effect.card.front_name).replacement
                if kind == "twice":
                    count *= 2
                else:
                    scry += 1
                self.emit("replacement", ("614.1a", "614.5"), card=effect.card.front_name, id=effect.id,
                          effect=kind, explorer=ref.id)
        for _ in range(scry):
            self.scry()
        for _ in range(count):
            self._explore_once(ref)

    def scry(self) -> None:
        if not self.state.library:
            self.emit("scry_empty", ("701.22a",))
            return
        card = self.state.library[0]
        answer = self.choices.ask("scry", ["top", "bottom"], "top", card=card.name)
        if answer == "bottom":
            self.state.library.append(self.state.library.pop(0))
        self.emit("scry", ("701.22a",), card=card.name, to=answer)

    def _explore_once(self, ref: ExplorerRef) -> None:
        present = self.current(ref)
        who = self.info(ref)
        was_creature = who.is_creature
        self.emit("explore", ("701.44a",) + (() if present else ("701.44c", "ruling:left-before")) +
                  (() if was_creature else ("ruling:noncreature",)), id=ref.id, card=who.card.name)
        revealed: CardFacts | None = None
        if not self.state.library:
            self.emit("empty_library", ("ruling:empty", "701.44b"))
            self._counter(ref, present, empty=True)
        else:
            revealed = self.state.library[0]
            self.emit("reveal", ("701.44a", "712.8a") if revealed.double_faced else ("701.44a",),
                      card=revealed.name, land=revealed.is_land)
            if revealed.is_land:
                self.state.hand.append(self.state.library.pop(0))
                self.emit("land_to_hand", ("701.44a",), card=revealed.name)
            else:
                self._counter(ref, present, empty=False)
                answer = self.choices.ask("reveal", ["keep", "graveyard"], "keep", card=revealed.name,
                                          explorer=ref.id)
                if answer == "graveyard":
                    self.state.graveyard.append(self.state.library.pop(0))
                    self.emit("to_graveyard", ("701.44a", "701.17a"), card=revealed.name)
                else:
                    self.emit("keep_on_top", ("701.44a", "ruling:again"), card=revealed.name)
        record = Explored(ref.id, who.card.name, revealed.name if revealed else None, was_creature, who.controller)
        self.explored.append(record)
        self.emit("explored", ("701.44b",), id=ref.id, card=who.card.name)
        self._triggers_for_explore(record, revealed)

    def _counter(self, ref: ExplorerRef, present: Permanent | None, empty: bool) -> None:
        if present is not None:
            present.counters += 1
            cites = ("ruling:empty",) if empty else ("701.44a",)
            if not present.is_creature:
                cites += ("ruling:noncreature",)
            self.emit("counter", cites, id=present.id, card=present.card.name, total=present.counters)
        elif ref.id in self.state.battlefield:
            self.emit("no_counter_new_object", ("400.7", "701.44c"), id=ref.id)
        else:
            self.emit("no_counter_left", ("ruling:left", "701.44c"), id=ref.id)

    # -- actions -----------------------------------------------------------------------------

    def run_action(self, action: Action, leaving: tuple[Leaves, ...] = ()) -> None:
        handlers = {Explore: self._explore_action, Enter: self._enter, Cast: self._cast, Attack: self._attack,
                    Activate: self._activate}
        handler = handlers.get(type(action))
        if handler is None:
            raise ScenarioError("the action must be one of: explore, enter, cast, attack, activate")
        handler(action, leaving)

    def _explore_action(self, action: Explore, leaving: tuple[Leaves, ...]) -> None:
        ref = self.ref(action.id)
        self.emit("ability", ("701.44a",), id=ref.id, card=self.permanent(ref.id).card.front_name, times=action.times)
        self._apply_leaving(leaving)
        self.explore(ref, action.times)
        self.resolve_pending()

    def _enter(self, action: Enter, leaving: tuple[Leaves, ...]) -> None:
        card = self._card(action.card)
        pid = action.id or self._new_id(card.name)
        self._x[pid] = action.x
        if action.target:
            self._targets[pid] = action.target
        self.emit("cast", ("601.2",), card=card.name, x=action.x)
        self.put_onto_battlefield(card, pid, from_zone="stack")
        self.resolve_pending(leaving)

    def _attack(self, action: Attack, leaving: tuple[Leaves, ...]) -> None:
        attacker = self.permanent(action.id)
        attacker.tapped = True
        self.emit("attack", ("508.1",), id=attacker.id, card=attacker.card.name)
        for p in self.state.battlefield.values():
            card = behaviour(p.card.front_name)
            if p.attached_to == attacker.id and card and card.equipped_attacks:
                self.pending.append(Trigger(attacker.id, card.equipped_attacks, {"ref": self.ref(attacker.id)}))
                self.emit("trigger", ("603.2",), source=attacker.id, card=p.card.name, explorer=attacker.id)
        self.resolve_pending(leaving)

    def _activate(self, action: Activate, leaving: tuple[Leaves, ...]) -> None:
        source = self.permanent(action.id)
        card = behaviour(source.card.front_name)
        if card is None or card.activated is None:
            raise ScenarioError(f"{source.card.name} has no ability to activate here (only Map tokens)")
        target = action.target or ""
        if self._target_creature(target) is None:
            raise ScenarioError("a Map needs a target creature you control")
        self.emit("activate", ("602.2",), id=source.id, target=target)
        self.leave(source.id)  # {1}, {T}, sacrifice this artifact: a cost
        self.stack.append(Trigger(source.id, card.activated.effect, {"target": target}))
        self.resolve_pending(leaving)

    def _cast(self, action: Cast, leaving: tuple[Leaves, ...]) -> None:
        card = self._card(action.card)
        spell = behaviour(card.front_name)
        if spell is None or spell.spell is None:
            raise ScenarioError(f"casting {card.name} is not simulated (Defossilize is)")
        wanted = action.target or ""
        in_graveyard = next((c for c in self.state.graveyard if c.name.lower() == wanted.lower()), None)
        if in_graveyard is None or not in_graveyard.is_creature:
            raise ScenarioError(f"{card.name} needs a creature card in your graveyard as its target ({wanted!r} is not)")
        self.emit("cast", ("601.2",), card=card.name, target=in_graveyard.name)
        self._apply_leaving(leaving)
        self.state.graveyard.remove(in_graveyard)
        returned = self.put_onto_battlefield(in_graveyard, from_zone="graveyard")
        self.explore(self.ref(returned.id), spell.spell.effect.times)  # "That creature explores, then it explores again."
        self.state.graveyard.append(card)
        self.emit("spell_resolved", ("608.2n",), card=card.name)
        self.resolve_pending()

    def _card(self, name) -> CardFacts:
        if self.lookup is None:
            raise ScenarioError("no card catalog to look cards up in")
        return self.lookup(str(name))

