"""Community nicknames (data/nicknames.tsv): "bolt" is Lightning Bolt, "lki" is rule 608.2h.

/ruling, inline [[card]], card autocomplete and /ask read them; a card whose real name is the
nickname always wins. Add a row to teach one more, no code change.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import lru_cache

from bot.config import DATA_DIR
from bot.text import fold

NICKNAMES_FILE = DATA_DIR / "nicknames.tsv"
KINDS = ("card", "rule", "term")


@dataclass(frozen=True)
class Nickname:
    nickname: str      # folded
    kind: str          # card | rule | term
    target: str        # an English card name, a rule number, or English words


def read_tsv(path) -> list[list[str]]:
    """Rows of a tab-separated file; lines starting with # are comments."""
    with open(path, encoding="utf-8", newline="") as fh:
        lines = [line for line in fh if line.strip() and not line.startswith("#")]
    return list(csv.reader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


@lru_cache(maxsize=1)
def nicknames() -> dict[str, tuple[Nickname, ...]]:
    found: dict[str, list[Nickname]] = {}
    for row in read_tsv(NICKNAMES_FILE):
        if len(row) != 3 or row[1] not in KINDS:
            raise ValueError(f"{NICKNAMES_FILE}: bad row {row!r} (nickname, kind, target)")
        key = fold(row[0])
        found.setdefault(key, []).append(Nickname(key, row[1], row[2]))
    return {k: tuple(v) for k, v in found.items()}


def nickname_card(text: str) -> str | None:
    """The English card name a nickname stands for ("bolt" → "Lightning Bolt"), if any."""
    for nick in nicknames().get(fold(text or ""), ()):
        if nick.kind == "card":
            return nick.target
    return None
