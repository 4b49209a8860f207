"""Exact odds of exploring: lands to hand, +1/+1 counters, cards put into the graveyard.

Computed combinatorially with exact fractions. A library of N cards holds L lands (front faces);
the explorer explores t times and the player follows one policy for revealed nonland cards:

* "graveyard": every explore reveals a new card, so what happens depends on the top min(t, N)
  cards only — the number of lands among them is hypergeometric;
* "keep": a nonland card left on top is revealed again by the next explore (ruling), so the
  explores reveal lands until the first nonland card, then that card again and again.

An explore with an empty library reveals nothing and still puts a counter (ruling).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb, perm

POLICIES = ("keep", "graveyard")


@dataclass(frozen=True)
class Odds:
    library: int
    lands: int
    times: int
    policy: str
    lands_to_hand: dict[int, Fraction]
    counters: dict[int, Fraction]
    to_graveyard: dict[int, Fraction]

    def expected(self, distribution: dict[int, Fraction]) -> Fraction:
        return sum((k * p for k, p in distribution.items()), Fraction(0))

    def as_dict(self) -> dict:
        def table(d):
            return {str(k): {"fraction": f"{p.numerator}/{p.denominator}", "probability": float(p)}
                    for k, p in sorted(d.items())}
        return {"library": self.library, "lands": self.lands, "times": self.times, "policy": self.policy,
                "lands_to_hand": table(self.lands_to_hand), "counters": table(self.counters),
                "to_graveyard": table(self.to_graveyard),
                "expected": {"lands_to_hand": float(self.expected(self.lands_to_hand)),
                             "counters": float(self.expected(self.counters)),
                             "to_graveyard": float(self.expected(self.to_graveyard))}}


def explore_odds(library: int, lands: int, times: int, policy: str = "keep") -> Odds:
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)}")
    if not 0 <= lands <= library or times < 0:
        raise ValueError("need 0 <= lands <= library and times >= 0")
    seen = min(times, library)
    to_hand: dict[int, Fraction] = {}
    counters: dict[int, Fraction] = {}
    graveyard: dict[int, Fraction] = {}

    def add(d, k, p):
        if p:
            d[k] = d.get(k, Fraction(0)) + p

    nonlands = library - lands
    if policy == "graveyard":
        total = comb(library, seen)
        for k in range(0, seen + 1):
            p = Fraction(comb(lands, k) * comb(nonlands, seen - k), total)
            add(to_hand, k, p)
            add(counters, times - k, p)
            add(graveyard, seen - k, p)
    else:
        for j in range(0, seen):   # j lands, then a nonland card that stays on top
            p = Fraction(perm(lands, j) * nonlands, perm(library, j + 1))
            add(to_hand, j, p)
            add(counters, times - j, p)
            add(graveyard, 0, p)
        p = Fraction(perm(lands, seen), perm(library, seen))   # the first min(t, N) cards are all lands
        add(to_hand, seen, p)
        add(counters, times - seen, p)
        add(graveyard, 0, p)
    return Odds(library, lands, times, policy, to_hand, counters, graveyard)
