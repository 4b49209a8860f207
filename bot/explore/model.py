"""Small value types for the explore engine: cards, permanents, the game state, events."""
from __future__ import annotations

from dataclasses import dataclass, field

from bot.explore.cards import behaviour


@dataclass(frozen=True)
class CardFacts:
    """What the engine needs to know of a card: its name and its front face's types.

    In a library a double-faced card has only its front face's characteristics (CR 712.8a).
    """
    name: str
    type_line: str
    token: bool = False
    double_faced: bool = False

    @property
    def front_name(self) -> str:
        """The front face's name: what abilities are known by ("Twists and Turns")."""
        return self.name.split(" // ")[0]

    @property
    def types(self) -> str:
        return self.type_line.split("—")[0]

    @property
    def is_land(self) -> bool:
        return "Land" in self.types

    @property
    def is_creature(self) -> bool:
        return "Creature" in self.types

    @classmethod
    def from_card(cls, card) -> "CardFacts":
        front = card.front
        double = card.layout in ("transform", "modal_dfc", "reversible_card")
        return cls(card.name, front.type_line, card.kind == "token", double)


@dataclass
class Permanent:
    id: str
    card: CardFacts
    controller: str = "you"
    counters: int = 0
    tapped: bool = False
    attached_to: str | None = None
    creature: bool | None = None       # None: as its type line says; False: "somehow not a creature"
    object_number: int = 0             # a new object each time it enters (CR 400.7)
    boosts: list[str] = field(default_factory=list)   # "+1/+0 and can't be blocked this turn"…
    owner: str | None = None           # None: its controller

    @property
    def is_creature(self) -> bool:
        return self.card.is_creature if self.creature is None else self.creature

    @property
    def owned_by(self) -> str:
        return self.owner or self.controller

    def snapshot(self) -> "Permanent":
        """Last known information: the permanent as it last existed on the battlefield."""
        return Permanent(self.id, self.card, self.controller, self.counters, self.tapped, self.attached_to,
                         self.creature, self.object_number, list(self.boosts), self.owner)


PLAYERS = ("you", "opponent")


@dataclass
class Player:
    """One player's own zones (CR 400.1) and life."""
    library: list[CardFacts] = field(default_factory=list)      # top first
    hand: list[CardFacts] = field(default_factory=list)
    graveyard: list[CardFacts] = field(default_factory=list)
    exile: list[CardFacts] = field(default_factory=list)
    life: int = 20

    def as_dict(self) -> dict:
        return {"library": [c.name for c in self.library], "hand": [c.name for c in self.hand],
                "graveyard": [c.name for c in self.graveyard], "exile": [c.name for c in self.exile],
                "life": self.life}


class GameState:
    """Two players' zones, the shared battlefield and who the active player is. ``library``, ``hand``,
    ``graveyard``, ``exile`` and ``life`` are yours."""

    def __init__(self, library=None, hand=None, graveyard=None, exile=None, battlefield=None, life: int = 20,
                 opponent: Player | None = None, active: str = "you"):
        self.players = {"you": Player(list(library or []), list(hand or []), list(graveyard or []),
                                      list(exile or []), life),
                        "opponent": opponent or Player()}
        self.battlefield: dict[str, Permanent] = battlefield if battlefield is not None else {}  # in order of arrival
        self.active = active
        self.two_players = opponent is not None

    def player(self, name: str) -> Player:
        return self.players[name]

    you = property(lambda self: self.players["you"])
    library = property(lambda self: self.you.library)
    hand = property(lambda self: self.you.hand)
    graveyard = property(lambda self: self.you.graveyard)
    exile = property(lambda self: self.you.exile)

    @property
    def life(self) -> int:
        return self.you.life

    @life.setter
    def life(self, value: int) -> None:
        self.you.life = value

    def controlled(self, controller: str = "you") -> list[Permanent]:
        return [p for p in self.battlefield.values() if p.controller == controller]

    def as_dict(self) -> dict:
        top_visible = self.top_card_visible()
        two = self.two_players or any(p.controller != "you" for p in self.battlefield.values())
        return {
            **self.you.as_dict(),
            "battlefield": [{"id": p.id, "card": p.card.name, "counters": p.counters, "tapped": p.tapped,
                             **({"controller": p.controller} if p.controller != "you" else {}),
                             **({"attached_to": p.attached_to} if p.attached_to else {}),
                             **({"effects": list(p.boosts)} if p.boosts else {})}
                            for p in self.battlefield.values()],
            **({"opponent": self.players["opponent"].as_dict()} if two else {}),
            **({"top_card_visible": top_visible} if top_visible is not None else {}),
        }

    def top_card_visible(self) -> str | None:
        """Glowcap Lantern: while attached to a creature you control, you may look at the top card."""
        for p in self.battlefield.values():
            card = behaviour(p.card.front_name)
            if card and card.looks_at_top and p.attached_to in self.battlefield:
                holder = self.battlefield[p.attached_to]
                if holder.is_creature and holder.controller == p.controller == "you":
                    return self.library[0].name if self.library else ""
        return None


@dataclass(frozen=True)
class Event:
    """One step of the resolution, with the rule or ruling behind it."""
    kind: str
    params: dict
    cites: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        return {"kind": self.kind, **self.params, "cites": list(self.cites)}


@dataclass(frozen=True)
class Explored:
    """One completed explore (CR 701.44b): who explored and what was revealed."""
    permanent: str
    card: str
    revealed: str | None
    was_creature: bool
    controller: str


# -- actions: what a scenario (or /explore) does; parsed and checked in scenario.py -------------

@dataclass(frozen=True)
class Explore:
    """A permanent is told to explore ``times`` times by one ability."""
    id: str
    times: int = 1


@dataclass(frozen=True)
class Enter:
    """A permanent spell resolves: the card enters under ``controller``'s control; ``x`` is the X paid,
    ``target`` the target of its entering ability; ``creature=False``: it is somehow not a creature."""
    card: str
    id: str | None = None
    x: int = 0
    target: str | None = None
    controller: str = "you"
    creature: bool = True


@dataclass(frozen=True)
class Cast:
    """An instant or sorcery is cast and resolves: ``target`` is a permanent id (Enter the Unknown) or a
    card in your graveyard (Defossilize); ``creature=False``: the returned card is somehow not a creature."""
    card: str
    target: str | None = None
    creature: bool = True


@dataclass(frozen=True)
class Attack:
    """A creature is declared as an attacker; ``damage``: it then deals combat damage to the player."""
    id: str
    damage: bool = False


@dataclass(frozen=True)
class Activate:
    """A permanent's activated ability is activated: its target (a permanent's id), the cards it targets
    in a graveyard (by name), and what pays a discard or sacrifice cost."""
    id: str
    target: str | None = None
    discard: str | None = None
    sacrifice: str | None = None
    targets: tuple[str, ...] = ()


Action = Explore | Enter | Cast | Attack | Activate


@dataclass(frozen=True)
class Leaves:
    """Something leaves its zone after an ability is put on the stack, before it resolves.

    ``id``: a permanent leaves the battlefield (``to`` the graveyard, exile or hand); ``returns``: it
    comes back at once, as a new object. ``card``: a card leaves its ``owner``'s graveyard (``to`` exile).
    ``before``: in response to the ability of this source (a card name or an id) — by default the
    action's own ability, or the abilities that trigger when the action happens.
    """
    id: str | None = None
    card: str | None = None
    returns: bool = False
    to: str = "graveyard"
    before: str | None = None
    owner: str = "you"
