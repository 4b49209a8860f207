"""The explore engine: actions on a small two-player game state, resolved as the rules say.

CR 701.44a–d and the explore rulings, event by event. Every ability is an object on the stack: the
action's own ability (or spell) goes on the stack, then what triggered; responses (something that
leaves before resolution) happen, and what triggers from them goes on top (CR 603.3). Then the top
object resolves, targets checked first (CR 608.2b). Abilities that trigger while an object
resolves wait until it has resolved (nobody acts in the middle), then go on the stack: the active
player's first, each player's in the order they choose (CR 603.3b); the last one put on the stack
resolves first. Replacement effects on an explore apply one at a time, each to the event the
previous one produced, each at most once (CR 614.5, 616.1f).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Callable

from bot.explore.cards import MAP_TOKEN, Card, CreateMap, ExileCards, Explores, Payoff, Spell, behaviour
from bot.explore.choices import Choices, NeedChoice, ScenarioError
from bot.explore.model import (PLAYERS, Action, Activate, Attack, CardFacts, Cast, Enter, Event, Explore, Explored,
                               GameState, Leaves, Permanent)

__all__ = ["Engine", "NeedChoice", "ScenarioError"]

BOOST = "+1/+0, can't be blocked this turn"
WEAKEN = "-2/-2 until end of turn"


@dataclass(frozen=True)
class Ref:
    """A permanent as one object: its id and which object it was (CR 400.7)."""
    id: str
    object_number: int


@dataclass
class Ability:
    """A spell or ability waiting to be put on the stack, or on the stack."""
    source: str                 # the id of its source (a permanent), or the spell's name
    card: str                   # its source's name
    controller: str
    effect: object              # from the card table: Explores, CreateMap, Payoff, Spell
    ref: Ref | None = None      # "it": the object the ability refers to
    target: object = None       # a Ref, or a card in a graveyard (checked on resolution)
    wants_target: str | None = None   # "creature you control" | "creature an opponent controls"
    data: dict = field(default_factory=dict)
    cards: tuple[CardFacts, ...] = ()   # target cards in a graveyard, exiled first (checked on resolution)
    graveyard: str = "opponent"         # whose graveyard ``cards`` are in
    exiles: ExileCards | None = None    # what the card table says of them (their rulings)

    def label(self) -> str:
        return self.card


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
        self.pending: list[Ability] = []
        self.stack: list[Ability] = []
        self.last_known: dict[str, Permanent] = {}
        self._x: dict[str, int] = {}          # X paid for a permanent that entered
        self._targets: dict[str, str] = {}    # a chosen target for a permanent's entering ability
        self._objects = 1 + max((p.object_number for p in state.battlefield.values()), default=0)
        self._responses: list[Leaves] = []

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
            raise ScenarioError("No permanent with id “{id}” on the battlefield.", id=pid)
        return self.state.battlefield[pid]

    def ref(self, pid: str) -> Ref:
        return Ref(pid, self.permanent(pid).object_number)

    def current(self, ref: Ref) -> Permanent | None:
        """The permanent if it is still the same object on the battlefield."""
        p = self.state.battlefield.get(ref.id)
        return p if p is not None and p.object_number == ref.object_number else None

    def info(self, ref: Ref) -> Permanent:
        """The permanent, or its last known information (CR 701.44c)."""
        return self.current(ref) or self.last_known[ref.id]

    def put_onto_battlefield(self, card: CardFacts, pid: str | None = None, *, tapped: bool = False,
                             controller: str = "you", from_zone: str | None = None,
                             creature: bool = True) -> Permanent:
        pid = pid or self._new_id(card.name)
        if pid in self.state.battlefield:
            raise ScenarioError("The id “{id}” is already used on the battlefield.", id=pid)
        permanent = Permanent(pid, card, controller, tapped=tapped, object_number=self._objects,
                              creature=None if creature else False)
        self._objects += 1
        self.state.battlefield[pid] = permanent
        self.emit("enter", (), id=pid, card=card.name, tapped=tapped, **({"from": from_zone} if from_zone else {}))
        if not creature and card.is_creature:
            self.emit("not_creature", ("ruling:noncreature",), id=pid, card=card.name)
        self._entered(permanent)
        return permanent

    def leave(self, pid: str, *, returns: bool = False, to: str = "graveyard") -> None:
        """The permanent leaves the battlefield for its owner's ``to`` zone (a token ceases to exist);
        if it ``returns``, it comes back from there at once as a new object (CR 400.7)."""
        p = self.permanent(pid)
        if returns and p.card.token:
            raise ScenarioError("{card} ({id}) is a token: once it has left the battlefield it can't come back.",
                                id=pid, card=p.card.name)
        self.last_known[pid] = p.snapshot()
        del self.state.battlefield[pid]
        for other in self.state.battlefield.values():
            if other.attached_to == pid:
                other.attached_to = None
        zone = getattr(self.state.player(p.owned_by), to)
        card = replace(p.card)               # a new object in its new zone (CR 400.7)
        if not p.card.token:
            zone.append(card)
        self.emit("leave", ("400.7",), id=pid, card=p.card.name, to=to)
        if returns:
            zone.remove(card)
            self.emit("return", ("400.7",), id=pid, card=p.card.name)
            self.put_onto_battlefield(replace(card), pid, controller=p.owned_by, from_zone=to,
                                      creature=p.creature is not False)

    # -- triggers ----------------------------------------------------------------------------

    def _entered(self, p: Permanent) -> None:
        card = behaviour(p.card.front_name)
        for ability in card.enters if card else ():
            wants = "creature you control" if isinstance(ability, Explores) and ability.target else None
            self.pending.append(Ability(p.id, p.card.front_name, p.controller, ability, self.ref(p.id),
                                        wants_target=wants))
        if p.is_creature:
            for source in self.state.controlled(p.controller):
                source_card = behaviour(source.card.front_name)
                if source_card and source_card.creature_enters:
                    self.pending.append(Ability(source.id, source.card.front_name, source.controller,
                                                source_card.creature_enters, self.ref(p.id)))

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
                wants = "creature an opponent controls" if "weaken" in payoff.steps else None
                self.pending.append(Ability(source.id, source.card.front_name, source.controller, payoff,
                                            self.ref(source.id), wants_target=wants,
                                            data={"explorer": record.permanent,
                                                  "revealed": revealed.name if revealed else None}))
                self.emit("trigger", ("603.2", "ruling:no-actions"), source=source.id, card=source.card.front_name,
                          explorer=record.permanent)

    def settle(self, leaving: tuple[Leaves, ...] = ()) -> None:
        """Put what triggered on the stack, let what leaves in response leave (what triggers then goes
        on top, CR 603.3), then resolve the stack one object at a time."""
        self._responses = list(leaving)
        self._push_pending()
        self._respond(None)
        while self.stack:
            top = self.stack[-1]
            if self._respond(top):
                continue
            self.stack.pop()
            self._resolve(top)
            self._push_pending()
        for item in self._responses:
            raise ScenarioError("Nothing named “{name}” was on the stack for {what} to leave in response to.",
                                name=item.before, what=item.id or item.card)

    def _respond(self, top: Ability | None) -> bool:
        """Let what leaves in response to ``top`` (None: the first chance) leave; True if anything did."""
        due = [item for item in self._responses if self._answers(item, top)]
        for item in due:
            self._responses.remove(item)
            self._leave_in_response(item)
        if due:
            self._push_pending()
        return bool(due)

    @staticmethod
    def _answers(item: Leaves, top: Ability | None) -> bool:
        if top is None or item.before is None:
            return top is None and item.before is None
        return item.before.lower() in (top.source.lower(), top.card.lower())

    def _leave_in_response(self, item: Leaves) -> None:
        if item.id is not None:
            self.leave(item.id, returns=item.returns, to=item.to)
            return
        owner = self.state.player(item.owner)
        card = next(iter(self._named(owner.graveyard, item.card or "")), None)
        if card is None:
            raise ScenarioError("No card named “{card}” in the graveyard to leave it.", card=item.card or "")
        _remove(owner.graveyard, card)
        getattr(owner, item.to).append(replace(card))
        self.emit("card_leaves", ("400.7",), card=card.name, to=item.to)

    def _push_pending(self) -> None:
        """Put waiting abilities on the stack: the active player's first, each player's in the order
        they choose (CR 603.3b); targets are chosen as each goes on the stack (CR 603.3d)."""
        if not self.pending:
            return
        order = list(self.state.battlefield)
        batch = sorted(self.pending, key=lambda t: order.index(t.source) if t.source in order else len(order))
        self.pending = []
        players = [self.state.active] + [p for p in ("you", "opponent") if p != self.state.active]
        for player in players:
            mine = [t for t in batch if t.controller == player]
            if not mine:
                continue
            # by default, the ability whose source came first onto the battlefield resolves first
            placed = self.choices.order([t.label() for t in mine], list(range(len(mine)))[::-1],
                                        ids=[t.source for t in mine])
            mine = [mine[i] for i in placed]
            if len(mine) > 1:
                self.emit("order", ("603.3b", "405.5"), abilities=[t.label() for t in mine])
            for ability in mine:
                if ability.wants_target and not self._choose_target(ability):
                    continue
                self.stack.append(ability)

    def _choose_target(self, ability: Ability) -> bool:
        if ability.wants_target == "creature you control":
            options = [p.id for p in self.state.controlled(ability.controller) if p.is_creature]
            wanted = self._targets.get(ability.source)
        else:
            options = [p.id for p in self.state.battlefield.values()
                       if p.is_creature and p.controller != ability.controller]
            wanted = None
        if wanted is not None and wanted not in options:
            raise ScenarioError("{card} needs a target: {target} is not a creature you control.", card=ability.card,
                                target=wanted)
        if not options:
            self.emit("no_target", ("603.3d",), card=ability.card)
            return False
        chosen = wanted or (self.choices.ask("target", options, options[0], card=ability.card)
                            if len(options) > 1 else options[0])
        ability.target = self.ref(chosen)
        cites = ability.effect.cites if isinstance(ability.effect, Payoff) else ()
        self.emit("target", ("601.2c",) + cites, card=ability.card, target=chosen)
        return True

    # -- resolving ---------------------------------------------------------------------------

    def _target_problem(self, ability: Ability) -> str | None:
        """Why the target is illegal now (CR 608.2b), or None if it is still legal."""
        target = ability.target
        if isinstance(target, CardFacts):
            return None if any(c is target for c in self.state.graveyard) else "gone"
        present = self.current(target)
        if present is None:
            return "new object" if target.id in self.state.battlefield else "gone"
        if not present.is_creature:
            return "not a creature"
        mine = present.controller == ability.controller
        if mine != (ability.wants_target == "creature you control"):
            return "gone"
        return None

    def _legal_cards(self, ability: Ability) -> list[CardFacts]:
        """The target cards still in the graveyard they were targeted in (CR 608.2b); the others are said."""
        graveyard = self.state.player(ability.graveyard).graveyard
        legal = [c for c in ability.cards if any(c is g for g in graveyard)]
        exiles = ability.exiles
        for card in ability.cards:
            if not any(card is c for c in legal):
                self.emit("target_illegal", ("608.2b", "400.7") + (exiles.one_illegal if legal else ()),
                          card=ability.card, target=card.name)
        if not legal:
            self.emit("fizzle_all", ("608.2b",) + exiles.all_illegal, card=ability.card)
        return legal

    def _resolve(self, ability: Ability) -> None:
        exiled = self._legal_cards(ability) if ability.cards else []
        if ability.cards and not exiled:
            return
        if ability.target is not None:
            problem = self._target_problem(ability)
            if problem is not None:
                name = ability.target.name if isinstance(ability.target, CardFacts) else ability.target.id
                kind = {"gone": "fizzle", "new object": "fizzle_new_object", "not a creature": "fizzle_not_creature"}
                cites = ability.effect.cites if isinstance(ability.effect, Spell) else ()
                self.emit(kind[problem], ("608.2b",) + (("400.7",) if problem == "new object" else ()) + cites,
                          card=ability.card, target=name)
                if isinstance(ability.effect, Spell):
                    self.state.player(ability.controller).graveyard.append(ability.data["card"])
                return
        self.emit("resolve", ("608.2",), source=ability.source, card=ability.card)
        owner = self.state.player(ability.graveyard)
        for card in exiled:
            _remove(owner.graveyard, card)
            owner.exile.append(replace(card))
            self.emit("exile_card", ("701.13a",), card=card.name, player=ability.graveyard)
        effect = ability.effect
        if isinstance(effect, CreateMap):
            token = CardFacts(MAP_TOKEN, "Token Artifact — Map", token=True)
            self.emit("create_token", ("111.10s",), card=MAP_TOKEN)
            self.put_onto_battlefield(token, self._new_id("map"), controller=ability.controller)
        elif isinstance(effect, Spell):
            self._resolve_spell(ability, effect)
        elif isinstance(effect, Explores):
            times = self._x.get(ability.source, 0) if effect.times == "X" else effect.times
            explorer = ability.target if effect.target else ability.ref
            self.explore(explorer, times)
        elif isinstance(effect, Payoff):
            for step in effect.steps:
                self._payoff_step(step, ability, effect)

    def _resolve_spell(self, ability: Ability, spell: Spell) -> None:
        controller = self.state.player(ability.controller)
        if spell.returns:
            card = ability.target
            controller.graveyard.remove(card)
            returned = self.put_onto_battlefield(replace(card), controller=ability.controller, from_zone="graveyard",
                                                 creature=ability.data.get("creature", True))
            self.explore(self.ref(returned.id), spell.effect.times)  # "That creature explores, then it explores again."
        else:
            self.explore(ability.target, spell.effect.times)
        if spell.extra_land:
            self.emit("extra_land", ("305.2",), card=ability.card)
        controller.graveyard.append(ability.data["card"])
        self.emit("spell_resolved", ("608.2n",), card=ability.card)

    def _payoff_step(self, step: str, ability: Ability, payoff: Payoff) -> None:
        source = self.current(ability.ref)
        name, cites, gone = ability.card, payoff.cites, ("113.7a", "400.7") + payoff.left
        player = self.state.player(ability.controller)
        if step == "counter":
            if source:
                source.counters += 1
                self.emit("counter", cites, id=source.id, card=name, total=source.counters)
            else:
                self.emit("source_gone", gone, id=ability.source, card=name)
        elif step.startswith("life "):
            amount = int(step.split()[1])
            player.life += amount
            self.emit("gain_life", (), amount=amount, life=player.life, player=ability.controller)
        elif step == "boost":
            if source:
                source.boosts.append(BOOST)
                self.emit("boost", (), id=source.id, card=name)
            else:
                self.emit("source_gone", gone, id=ability.source, card=name)
        elif step == "weaken":
            target = self.current(ability.target)
            target.boosts.append(WEAKEN)
            self.emit("weaken", (), id=target.id, card=target.card.name)
        elif step == "land from hand":
            lands = sorted({c.name for c in player.hand if c.is_land})
            answer = self.choices.ask("land", lands + ["no"], "no", revealed=ability.data["revealed"])
            if answer != "no":
                card = next(c for c in player.hand if c.name == answer)
                player.hand.remove(card)
                self.emit("land_to_battlefield", cites, card=card.name)
                self.put_onto_battlefield(replace(card), tapped=True, controller=ability.controller, from_zone="hand")
            else:
                self.emit("declined", cites, card=name)
        else:
            raise ValueError(f"unknown payoff step {step!r}")

    # -- explore -----------------------------------------------------------------------------

    def explore(self, ref: Ref, times: int = 1) -> None:
        """One ability tells ``ref`` to explore ``times`` times (each instruction may be replaced)."""
        for _ in range(times):
            self._instruction(ref, frozenset())

    def _instruction(self, ref: Ref, applied: frozenset) -> None:
        """One explore event: a replacement effect that has not yet applied to it (or to the event it
        came from) may replace it; the modified events are then open to the others (CR 614.5, 616.1f)."""
        present = self.current(ref)
        effects: list[Permanent] = []
        if present is not None and present.is_creature:
            effects = self._replacements(present.controller, applied)
        elif present is None and not applied and self.info(ref).is_creature and self._replacements(self.info(ref).controller):
            # the rules do not settle whether "if a creature you control would explore" applies to one that left
            self.emit("unsettled_replacement", ("701.44c", "614.1a"), id=ref.id)
        if not effects:
            self._explore_once(ref)
            return
        effect = effects[0]
        if len(effects) > 1:
            names = [p.card.front_name for p in effects]
            chosen = self.choices.ask("replacement", list(dict.fromkeys(names)), names[0])
            effect = next(p for p in effects if p.card.front_name == chosen)
            self.emit("replacement_order", ("616.1", "616.1e"), card=chosen)
        kind = behaviour(effect.card.front_name).replacement
        self.emit("replacement", ("614.1a", "614.5") + (("616.1f",) if applied else ()), card=effect.card.front_name,
                  id=effect.id,
                  effect=kind, explorer=ref.id)
        now = applied | {(effect.id, effect.object_number)}
        if kind == "scry":
            self.scry(effect.controller)        # "instead you scry 1, then that creature explores"
            self._instruction(ref, now)
        else:
            self._instruction(ref, now)         # "instead it explores, then it explores again"
            self._instruction(ref, now)

    def _replacements(self, controller: str, applied: frozenset = frozenset()) -> list[Permanent]:
        """The permanents of ``controller`` whose "if a creature you control would explore" effect has
        not yet applied to this event (a land face has no such ability)."""
        return [p for p in self.state.controlled(controller)
                if not p.card.is_land and (p.id, p.object_number) not in applied
                and (card := behaviour(p.card.front_name)) and card.replacement]

    def scry(self, player: str = "you") -> None:
        library = self.state.player(player).library
        if not library:
            self.emit("scry_empty", ("701.22a",))
            return
        card = library[0]
        answer = self.choices.ask("scry", ["top", "bottom"], "top", card=card.name)
        if answer == "bottom":
            library.append(library.pop(0))
        self.emit("scry", ("701.22a",), card=card.name, to=answer)

    def _explore_once(self, ref: Ref) -> None:
        present = self.current(ref)
        who = self.info(ref)
        player = self.state.player(who.controller)    # the permanent's controller's own library (CR 701.44a)
        was_creature = who.is_creature
        self.emit("explore", ("701.44a",) + (() if present else ("701.44c", "ruling:left-before")) +
                  (() if was_creature else ("ruling:noncreature",)), id=ref.id, card=who.card.name,
                  controller=who.controller)
        revealed: CardFacts | None = None
        if not player.library:
            self.emit("empty_library", ("ruling:empty", "701.44b"))
            self._counter(ref, present, empty=True)
        else:
            revealed = player.library[0]
            self.emit("reveal", ("701.44a", "712.8a") if revealed.double_faced else ("701.44a",),
                      card=revealed.name, land=revealed.is_land)
            if revealed.is_land:
                player.hand.append(replace(player.library.pop(0)))
                self.emit("land_to_hand", ("701.44a",), card=revealed.name)
            else:
                self._counter(ref, present, empty=False)
                answer = self.choices.ask("reveal", ["keep", "graveyard"], "keep", card=revealed.name,
                                          explorer=ref.id)
                if answer == "graveyard":
                    player.graveyard.append(replace(player.library.pop(0)))
                    self.emit("to_graveyard", ("701.44a",), card=revealed.name)
                else:
                    self.emit("keep_on_top", ("701.44a", "ruling:again"), card=revealed.name)
        record = Explored(ref.id, who.card.name, revealed.name if revealed else None, was_creature, who.controller)
        self.explored.append(record)
        self.emit("explored", ("701.44b",), id=ref.id, card=who.card.name)
        self._triggers_for_explore(record, revealed)

    def _counter(self, ref: Ref, present: Permanent | None, empty: bool) -> None:
        if present is not None:
            present.counters += 1
            cites = ("701.44a", "ruling:empty") if empty else ("701.44a",)
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
            raise TypeError(f"not an action: {action!r}")
        handler(action, leaving)

    def _explore_action(self, action: Explore, leaving: tuple[Leaves, ...]) -> None:
        p = self.permanent(action.id)
        self.emit("ability", ("701.44a",), id=p.id, card=p.card.front_name, times=action.times)
        self.stack.append(Ability(p.id, p.card.front_name, p.controller, Explores(action.times), self.ref(p.id)))
        self.settle(leaving)

    def _enter(self, action: Enter, leaving: tuple[Leaves, ...]) -> None:
        card = self._card(action.card)
        pid = action.id or self._new_id(card.name)
        self._x[pid] = action.x
        if action.target:
            self._targets[pid] = action.target
        self.emit("cast", ("601.2",), card=card.name, x=action.x)
        self.put_onto_battlefield(card, pid, from_zone="stack", controller=action.controller,
                                  creature=action.creature)
        self.settle(leaving)

    def _attack(self, action: Attack, leaving: tuple[Leaves, ...]) -> None:
        attacker = self.permanent(action.id)
        if not attacker.is_creature:
            raise ScenarioError("{card} ({id}) is not a creature: only creatures can attack.",
                                card=attacker.card.name, id=attacker.id)
        if attacker.tapped:
            raise ScenarioError("{card} ({id}) is tapped: a tapped creature can't be declared as an attacker "
                                "(CR 508.1a).", card=attacker.card.name, id=attacker.id)
        if attacker.controller != self.state.active:
            raise ScenarioError("{card} ({id}) can't attack: only the active player declares attackers "
                                "(CR 508.1a).", card=attacker.card.name, id=attacker.id)
        attacker.tapped = True
        self.emit("attack", ("508.1", "508.1a"), id=attacker.id, card=attacker.card.name)
        for p in self.state.battlefield.values():
            card = behaviour(p.card.front_name)
            if p.attached_to == attacker.id and card and card.equipped_attacks:
                self.pending.append(Ability(attacker.id, attacker.card.front_name, attacker.controller,
                                            card.equipped_attacks, self.ref(attacker.id)))
                self.emit("triggers", ("603.2",), source=attacker.id, card=attacker.card.front_name)
        self.settle(leaving)
        if action.damage:
            self._combat_damage(attacker.id)

    def _combat_damage(self, pid: str) -> None:
        attacker = self.state.battlefield.get(pid)
        if attacker is None:
            self.emit("no_damage", ("506.4",), id=pid)
            return
        self.emit("combat_damage", ("510.2",), id=pid, card=attacker.card.name)
        card = behaviour(attacker.card.front_name)
        if card and card.combat_damage:
            self.pending.append(Ability(pid, attacker.card.front_name, attacker.controller, card.combat_damage,
                                        self.ref(pid)))
            self.emit("triggers", ("603.2",), source=pid, card=attacker.card.front_name)
        self.settle()

    def _activate(self, action: Activate, leaving: tuple[Leaves, ...]) -> None:
        source = self.permanent(action.id)
        card = behaviour(source.card.front_name)
        if card is None or card.activated is None:
            raise ScenarioError("{card} has no activated ability the engine knows.", card=source.card.name)
        ability = card.activated
        if ability.sorcery and source.controller != self.state.active:
            raise ScenarioError("{card}'s ability can be activated only as a sorcery: only by the active player "
                                "(CR 307.5).", card=source.card.name)
        if "tap" in ability.cost and source.tapped:
            raise ScenarioError("{card} ({id}) is tapped: {{T}} is part of the cost, so its ability can't be "
                                "activated (CR 118.3).", card=source.card.name, id=source.id)
        item = Ability(source.id, source.card.front_name, source.controller, ability.effect, self.ref(source.id))
        if ability.effect.target:
            options = [p.id for p in self.state.controlled(source.controller) if p.is_creature]
            if action.target not in options:
                raise ScenarioError("{card} needs a target: {target} is not a creature you control.",
                                    card=source.card.name, target=action.target or "—")
            item.target, item.wants_target = self.ref(action.target), "creature you control"
        if ability.exiles is not None:
            item.exiles, item.graveyard = ability.exiles, next(p for p in PLAYERS if p != source.controller)
            item.cards = self._graveyard_targets(source, ability.exiles, action.targets, item.graveyard)
        elif action.targets:
            raise ScenarioError("{card}'s ability doesn't target cards in a graveyard: “targets” is not for it.",
                                card=source.card.name)
        self.emit("activate", ("602.2",), id=source.id, card=source.card.front_name, target=action.target or "")
        for card in item.cards:
            self.emit("target_card", ("602.2b", "601.2c") + ability.exiles.targeting, card=source.card.front_name,
                      target=card.name, player=item.graveyard)
        self._pay(source, ability.cost, action)
        self.stack.append(item)
        self.settle(leaving)

    def _graveyard_targets(self, source: Permanent, exiles: ExileCards, names: tuple[str, ...],
                           owner: str) -> tuple[CardFacts, ...]:
        """The cards named, each a different card in ``owner``'s graveyard (CR 115.3, 601.2c): with fewer
        cards there than it needs, the ability can't be activated (CR 602.2)."""
        graveyard, card = self.state.player(owner).graveyard, source.card.front_name
        if len(graveyard) < exiles.count:
            raise ScenarioError("{card}'s ability can't be activated: it needs {count} different target cards in one "
                                "opponent's graveyard, and that graveyard has fewer than {count} cards (CR 115.3, "
                                "601.2c, 602.2).", card=card, count=exiles.count)
        if len(names) != exiles.count:
            raise ScenarioError("{card} needs {count} target cards in an opponent's graveyard: name them in "
                                "“targets”.", card=card, count=exiles.count)
        chosen: list[CardFacts] = []
        for name in names:
            matches = self._named(graveyard, name)
            if not matches:
                raise ScenarioError("{card} can't target “{target}”: there is no card of that name in an opponent's "
                                    "graveyard.", card=card, target=name)
            free = [c for c in matches if not any(c is t for t in chosen)]
            if not free:
                raise ScenarioError("{card} can't target the same card twice, and there is no other “{target}” in "
                                    "that graveyard (CR 115.3).", card=card, target=name)
            chosen.append(free[0])
        return tuple(chosen)

    def _named(self, cards: list[CardFacts], name: str) -> list[CardFacts]:
        """The cards called ``name``: their English name or front face's, else a printed name the catalog knows."""
        wanted = name.strip().lower()
        found = [c for c in cards if wanted in (c.name.lower(), c.front_name.lower())]
        if found or self.lookup is None or not wanted:
            return found
        try:
            english = self.lookup(name).name
        except ScenarioError:
            return []
        return [c for c in cards if c.name == english]

    def _pay(self, source: Permanent, cost: tuple[str, ...], action: Activate) -> None:
        """Pay the costs in full (CR 601.2h, 602.2b); a cost that can't be paid refuses the activation."""
        hand = self.state.player(source.controller).hand
        discard = sacrifice = None
        if "discard" in cost:
            discard = next((c for c in hand if c.name.lower() == (action.discard or "").lower()), None)
            if discard is None:
                raise ScenarioError("Discarding a card is part of the cost: name a card in the hand with "
                                    "“discard”.")
        if "sacrifice another" in cost:
            others = [p.id for p in self.state.controlled(source.controller) if p.is_creature and p.id != source.id]
            if action.sacrifice not in others:
                raise ScenarioError("Sacrificing another creature is part of the cost: name one you control "
                                    "with “sacrifice”.")
            sacrifice = action.sacrifice
        for part in cost:
            if part.startswith("{"):
                self.emit("pay_mana", ("602.2b",), cost=part)
            elif part == "tap":
                source.tapped = True
                self.emit("pay_tap", ("602.2b",), id=source.id, card=source.card.name)
            elif part == "sacrifice":
                self.emit("sacrifice", ("602.2b", "701.21a"), id=source.id, card=source.card.name)
                self.leave(source.id)
            elif part == "sacrifice another":
                self.emit("sacrifice", ("602.2b", "701.21a"), id=sacrifice, card=self.permanent(sacrifice).card.name)
                self.leave(sacrifice)
            elif part == "discard":
                hand.remove(discard)
                self.state.player(source.controller).graveyard.append(replace(discard))
                self.emit("discard", ("602.2b", "701.9a"), card=discard.name)

    def _cast(self, action: Cast, leaving: tuple[Leaves, ...]) -> None:
        card = self._card(action.card)
        entry: Card | None = behaviour(card.front_name)
        if entry is None or entry.spell is None:
            raise ScenarioError("Casting {card} is not simulated.", card=card.name)
        spell = entry.spell
        item = Ability(card.name, card.front_name, "you", spell, data={"card": card, "creature": action.creature})
        wanted = action.target or ""
        if spell.returns:
            target = next((c for c in self.state.graveyard if c.name.lower() == wanted.lower()), None)
            if target is None or not target.is_creature:
                raise ScenarioError("{card} needs a creature card in your graveyard as its target (“{target}” "
                                    "is not one).", card=card.name, target=wanted)
            item.target, item.wants_target = target, "creature card in your graveyard"
        else:
            options = [p.id for p in self.state.controlled("you") if p.is_creature]
            if wanted not in options:
                raise ScenarioError("{card} needs a target: {target} is not a creature you control.",
                                    card=card.name, target=wanted or "—")
            item.target, item.wants_target = self.ref(wanted), "creature you control"
        self.emit("cast", ("601.2",), card=card.name, target=item.target.name if spell.returns else wanted)
        self.stack.append(item)
        self.settle(leaving)

    def _card(self, name) -> CardFacts:
        if self.lookup is None:
            raise RuntimeError("the engine has no card catalog to look cards up in")
        return self.lookup(str(name))


def _remove(cards: list[CardFacts], card: CardFacts) -> None:
    """Take this very card out of a zone (an equal card beside it is another object, CR 400.7)."""
    del cards[next(i for i, c in enumerate(cards) if c is card)]
