"""The cards whose abilities the explore engine knows, in one table, and the rulings it cites.

Each entry of ``CARDS`` declares what a card does, in the engine's vocabulary: abilities that
trigger when it enters, whenever a creature enters under your control, when the creature it
equips attacks, when it deals combat damage to a player, whenever a creature you control explores
(payoffs), its activated ability, what it does as a spell, and the replacement effect it has.
Adding a card with one of these behaviours is one entry here (and, for a payoff that does
something new, its step and the message that narrates it). Every other card is a plain card: a land
or a nonland by its front face's type line.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Explores:
    """"It explores N times" ("X": the X paid); with ``target``, "target creature you control explores"."""
    times: int | str = 1
    target: bool = False


@dataclass(frozen=True)
class CreateMap:
    """Create a Map token."""


@dataclass(frozen=True)
class Payoff:
    """"Whenever a creature you control explores [a land card | a nonland card], …": the steps it does.

    Steps: "counter" (a +1/+1 counter on the payoff's source), "life 3" (its controller gains 3 life),
    "boost" (+1/+0 and can't be blocked this turn), "weaken" (target creature an opponent controls
    gets -2/-2 until end of turn), "land from hand" (you may put a land card from your hand onto the
    battlefield tapped).
    """
    steps: tuple[str, ...]
    revealed: str = "any"          # "land" | "nonland": the explored card as it was revealed
    cites: tuple[str, ...] = ()    # rulings on what it does
    left: tuple[str, ...] = ()     # rulings on what it does once its source has left the battlefield


@dataclass(frozen=True)
class ExileCards:
    """"Exile N target cards from an opponent's graveyard", before the rest of the effect: the N
    targets are N different cards in one opponent's graveyard, chosen as the ability is activated."""
    count: int
    targeting: tuple[str, ...] = ()     # rulings on choosing the targets
    one_illegal: tuple[str, ...] = ()   # rulings when some targets are illegal as it resolves
    all_illegal: tuple[str, ...] = ()   # rulings when all of them are


@dataclass(frozen=True)
class Activated:
    """An activated ability: its costs ("tap", "sacrifice", "discard", "sacrifice another", or mana
    text like "{2}{G}") and what it does (``exiles`` first, then ``effect``)."""
    cost: tuple[str, ...]
    effect: Explores
    sorcery: bool = False          # "Activate only as a sorcery"
    exiles: ExileCards | None = None


@dataclass(frozen=True)
class Spell:
    """An instant or sorcery: ``returns`` a target creature card from your graveyard to the battlefield
    first (Defossilize), then the effect; ``extra_land``: "You may play an additional land this turn"."""
    effect: Explores
    returns: bool = False
    extra_land: bool = False
    cites: tuple[str, ...] = ()    # rulings on what happens when its target is illegal


@dataclass(frozen=True)
class Card:
    enters: tuple[Explores | CreateMap, ...] = ()   # "When this enters, …"
    creature_enters: Explores | None = None           # "Whenever a creature enters under your control, it …"
    equipped_attacks: Explores | None = None          # "Equipped creature has 'Whenever this creature attacks, …'"
    combat_damage: Explores | None = None             # "Whenever this deals combat damage to a player, it …"
    payoffs: tuple[Payoff, ...] = ()                  # "Whenever a creature you control explores, …"
    activated: Activated | None = None
    spell: Spell | None = None
    replacement: str | None = None    # "If a creature you control would explore, instead …": "twice" | "scry"
    looks_at_top: bool = False        # "You may look at the top card of your library any time" (while equipping)


ONCE = Explores(1)
MAP_TOKEN = "Map"

CARDS: dict[str, Card] = {
    # When it enters, it explores (N times; X: the X paid to cast it).
    "Merfolk Branchwalker": Card(enters=(ONCE,)),
    "Tishana's Wayfinder": Card(enters=(ONCE,)),
    "Queen's Agent": Card(enters=(ONCE,)),
    "Seekers' Squire": Card(enters=(ONCE,)),
    "Ixalli's Diviner": Card(enters=(ONCE,)),
    "Jadelight Ranger": Card(enters=(Explores(2),)),
    "Jadelight Spelunker": Card(enters=(Explores("X"),)),
    "Dire Fleet Interloper": Card(enters=(ONCE,)),
    "Siren Lookout": Card(enters=(ONCE,)),
    "Sunrise Seeker": Card(enters=(ONCE,)),
    "Emissary of Sunrise": Card(enters=(ONCE,)),
    "Brazen Buccaneers": Card(enters=(ONCE,)),
    # It explores when it deals combat damage to a player, or as its activated ability.
    "Emperor's Vanguard": Card(combat_damage=ONCE),
    "Seeker of Sunlight": Card(activated=Activated(("{2}{G}",), ONCE, sorcery=True)),
    "Tomb Robber": Card(activated=Activated(("{1}", "discard"), ONCE)),
    "Legion Vanguard": Card(activated=Activated(("{1}", "sacrifice another"), ONCE)),
    "Deadeye Tracker": Card(activated=Activated(("{1}{B}", "tap"), ONCE, exiles=ExileCards(
        2, targeting=("ruling:deadeye-single",), one_illegal=("ruling:deadeye-one",),
        all_illegal=("ruling:deadeye-each",)))),
    # Creating a Map; the Map's ability; "target creature you control explores" when it enters.
    "Topography Tracker": Card(enters=(CreateMap(),), replacement="twice"),
    MAP_TOKEN: Card(activated=Activated(("{1}", "tap", "sacrifice"), Explores(1, target=True), sorcery=True)),
    "Twists and Turns": Card(enters=(Explores(1, target=True),), replacement="scry"),
    "Path of Discovery": Card(creature_enters=ONCE),
    "Glowcap Lantern": Card(equipped_attacks=ONCE, looks_at_top=True),
    "Defossilize": Card(spell=Spell(Explores(2), returns=True)),
    "Enter the Unknown": Card(spell=Spell(Explores(1, target=True), extra_land=True,
                                          cites=("ruling:unknown-illegal",))),
    # Whenever a creature you control explores …
    "Wildgrowth Walker": Card(payoffs=(Payoff(("counter", "life 3"), left=("ruling:wildgrowth-left",)),)),
    "Nicanzil, Current Conductor": Card(payoffs=(
        Payoff(("land from hand",), revealed="land", cites=("ruling:nicanzil-after",)),
        Payoff(("counter",), revealed="nonland", cites=("ruling:nicanzil-revealed",)))),
    "Merfolk Cave-Diver": Card(payoffs=(Payoff(("boost",)),)),
    "Shadowed Caravel": Card(payoffs=(Payoff(("counter",)),)),
    "Lurking Chupacabra": Card(payoffs=(Payoff(("weaken",), cites=("ruling:chupacabra-target",)),)),
}


def behaviour(front_name: str) -> Card | None:
    """The card's entry, by its front face's name; None for a plain card."""
    return CARDS.get(front_name)


def explore_count(front_name: str) -> int | str | None:
    """How many times the card explores when it enters (or as its own ability); None if it doesn't."""
    card = CARDS.get(front_name)
    if card is None:
        return None
    for ability in card.enters:
        if isinstance(ability, Explores) and not ability.target:
            return ability.times
    return None


def usual_explores(front_name: str) -> int:
    """How many times the card explores by its own ability when nothing else is said: its count, 1
    for X (the X /explore run pays), 1 for a card that explores some other way."""
    count = explore_count(front_name)
    return count if isinstance(count, int) else 1


# The rulings cited by the events, as published: key → (date, text). The explore rulings are those of
# 2023-11-10 (The Lost Caverns of Ixalan), which repeat the 2018-01-19 ones; tests check each text
# against the seed documents or the published rulings in the real data.
EXPLORE_RULINGS = "2023-11-10"
RULINGS = {
    "ruling:how": (EXPLORE_RULINGS,
        "If an ability instructs a creature to explore, its controller reveals the top card of their "
        "library. If it's a land card, they'll put it into their hand. Otherwise, they'll put a +1/+1 "
        "counter on that creature, then choose to either leave that card on top of their library or put "
        "it into their graveyard."),
    "ruling:left": (EXPLORE_RULINGS,
        "If a resolving spell or ability instructs a specific creature to explore but that creature has "
        "left the battlefield, the creature still explores. If you reveal a nonland card this way, you "
        "won't put a +1/+1 counter on anything, but you may put the revealed card into your graveyard. "
        "Effects that trigger \"whenever a creature explores\" trigger as appropriate."),
    "ruling:left-before": (EXPLORE_RULINGS,
        "If a creature leaves the battlefield before an effect instructs it to explore, it still "
        "explores. Abilities like Nicanzil's that trigger whenever a creature you control explores will "
        "still trigger."),
    "ruling:empty": (EXPLORE_RULINGS,
        "If no card is revealed, most likely because that player's library is empty, the exploring "
        "creature receives a +1/+1 counter."),
    "ruling:noncreature": (EXPLORE_RULINGS,
        "In some unusual cases, noncreature permanents may explore. For example, if the creature card "
        "returned by Defossilize is somehow not a creature once it's on the battlefield, it can still "
        "explore. You'll take all the same actions, and you may end up putting a +1/+1 counter on the "
        "permanent."),
    "ruling:again": (EXPLORE_RULINGS,
        "Some spells or abilities might cause a creature to explore multiple times in a row. If you "
        "reveal a nonland card when a creature explores and leave it on top of your library, then the "
        "creature explores again immediately afterwards, you'll reveal the same card again."),
    "ruling:no-actions": (EXPLORE_RULINGS,
        "Once an ability that causes a creature to explore begins to resolve, no player may take any "
        "other actions until it's done. Notably, opponents can't try to remove the exploring creature "
        "after you reveal a nonland card but before it receives a counter."),
    "ruling:nicanzil-after": (EXPLORE_RULINGS,
        "Nicanzil's first ability won't resolve until after you're done exploring. You may put any land "
        "card from your hand onto the battlefield, including the land card you explored (if it's still in"
        " your hand) or one that was already in your hand."),
    "ruling:nicanzil-revealed": (EXPLORE_RULINGS,
        "Nicanzil, Current Conductor's triggered abilities care about the characteristics of the card as "
        "it was revealed while a creature explored. It doesn't matter what happened to the card after "
        "that."),
    "ruling:wildgrowth-left": ("2017-09-29",
        "If Wildgrowth Walker leaves the battlefield while its triggered ability is on the stack, you "
        "won't put a +1/+1 counter on anything but you will gain 3 life."),
    "ruling:chupacabra-target": ("2017-09-29",
        "You don't choose a target for Lurking Chupacabra's ability until after your creature has "
        "finished exploring."),
    "ruling:unknown-illegal": ("2018-01-19",
        "If the target creature is an illegal target by the time Enter the Unknown tries to resolve, the "
        "spell doesn't resolve. It won't explore, and you won't be able to play an additional land."),
    "ruling:deadeye-single": ("2017-09-29",
        "You can't activate Deadeye Tracker's ability without targeting two cards in a single opponent's "
        "graveyard."),
    "ruling:deadeye-one": ("2017-09-29",
        "If one target card is an illegal target by the time Deadeye Tracker's ability resolves, the remaining "
        "legal target is exiled and Deadeye Tracker explores."),
    "ruling:deadeye-each": ("2017-09-29",
        "If each target card is an illegal target by the time Deadeye Tracker's ability resolves, the entire "
        "ability doesn't resolve. Deadeye Tracker won't explore."),
}


def ruling_date(key: str) -> str:
    return RULINGS[key][0] if key in RULINGS else EXPLORE_RULINGS
