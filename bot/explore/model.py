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

    @property
    def is_creature(self) -> bool:
        return self.card.is_creature if self.creature is None else self.creature

    def snapshot(self) -> "Permanent":
        """Last known information: the permanent as it last existed on the battlefield."""
        return Permanent(self.id, self.card, self.controller, self.counters, self.tapped, self.attached_to,
                         self.creature, self.object_number, list(self.boosts))


@dataclass
class GameState:
    library: list[CardFacts] = field(default_factory=list)      # top first
    hand: list[CardFacts] = field(default_factory=list)
    graveyard: list[CardFacts] = field(default_factory=list)
    exile: list[CardFacts] = field(default_factory=list)
    battlefield: dict[str, Permanent] = field(default_factory=dict)   # in order of arrival
    life: int = 20

    def controlled(self, controller: str = "you") -> list[Permanent]:
        return [p for p in self.battlefield.values() if p.controller == controller]

    def as_dict(self) -> dict:
        top_visible = self.top_card_visible()
        return {
            "library": [c.name for c in self.library],
            "hand": [c.name for c in self.hand],
            "graveyard": [c.name for c in self.graveyard],
            "exile": [c.name for c in self.exile],
            "battlefield": [{"id": p.id, "card": p.card.name, "counters": p.counters, "tapped": p.tapped,
                             **({"attached_to": p.attached_to} if p.attached_to else {}),
                             **({"effects": list(p.boosts)} if p.boosts else {})}
                            for p in self.battlefield.values()],
            "life": self.life,
            **({"top_card_visible": top_visible} if top_visible is not None else {}),
        }

    def top_card_visible(self) -> str | None:
        """Glowcap Lantern: while attached to a creature you control, you may look at the top card."""
        for p in self.battlefield.values():
            card = behaviour(p.card.front_name)
            if card and card.looks_at_top and p.attached_to in self.battlefield:
                holder = self.battlefield[p.attached_to]
                if holder.is_creature and holder.controller == p.controller:
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
    """A permanent spell resolves: the card enters; ``x`` is the X paid, ``target`` the target of its
    entering ability."""
    card: str
    id: str | None = None
    x: int = 0
    target: str | None = None


@dataclass(frozen=True)
class Cast:
    """An instant or sorcery is cast and resolves (Defossilize: ``target`` is a card in the graveyard)."""
    card: str
    target: str | None = None


@dataclass(frozen=True)
class Attack:
    """A creature is declared as an attacker."""
    id: str


@dataclass(frozen=True)
class Activate:
    """An activated ability of a permanent (a Map's) is activated."""
    id: str
    target: str | None = None


Action = Explore | Enter | Cast | Attack | Activate


@dataclass(frozen=True)
class Leaves:
    """A permanent leaves the battlefield after the ability is put on the stack, before it resolves;
    ``returns``: it comes back at once (as a new object)."""
    id: str
    returns: bool = False
