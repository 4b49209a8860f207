"""A shuffle from a seed that gives the same order on every platform and Python version.

Algorithm (documented so anyone can replay a shuffle by hand or in another language):
SplitMix64 seeded with the seed (taken modulo 2**64) draws 64-bit numbers; a Fisher–Yates shuffle
walks i from the last position down to 1 and swaps position i with position j, where j is the next
draw modulo (i + 1) — rejection-sampled so that every j is equally likely. It does not use
Python's ``random`` module, whose internals may change.
"""
from __future__ import annotations

from typing import Sequence, TypeVar

T = TypeVar("T")
MASK = (1 << 64) - 1
MAX_SEED = 2 ** 63 - 1


class SplitMix64:
    def __init__(self, seed: int):
        self.state = seed & MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform integer in [0, bound) (rejection sampling, no modulo bias)."""
        limit = (1 << 64) - ((1 << 64) % bound)
        while True:
            value = self.next()
            if value < limit:
                return value % bound


def shuffled(items: Sequence[T], seed: int) -> list[T]:
    out = list(items)
    rng = SplitMix64(seed)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def new_seed() -> int:
    """A random seed for a run that did not give one; shown so that anyone can replay it."""
    import secrets   # only a run without a seed needs it (it loads OpenSSL's hashes)
    return secrets.randbelow(10 ** 9)


def parse_seed(value) -> int:
    """A seed from user input: a whole number from 0 to 2**63-1."""
    text = str(value).strip()
    if not text.isdigit() or int(text) > MAX_SEED:
        raise ValueError(text)
    return int(text)
