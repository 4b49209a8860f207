"""Find which card a document is about, from its title or the names mentioned in its text.

Looks names up in the catalog being built (by their folded form, through an index), so that
memory does not grow with the catalog.
"""
from __future__ import annotations

import re
import sqlite3
from collections import Counter

from rapidfuzz import fuzz, process

from bot.text import fold

_CAPITALISED = re.compile(r"[A-ZÀ-Ý][\w’'\-]*(?:,?\s+(?:[A-ZÀ-Ý][\w’'\-]*|of|the|de|du|des|la|le|da|di|del|der|von))*")
_POSSESSIVE = re.compile(r"[’']s$")


class DocumentCardFinder:
    """Folded printed name → card, answered by the catalog's names table."""

    def __init__(self, con: sqlite3.Connection):
        self.con = con

    def _ids(self, key: str) -> set[str]:
        return {row[0] for row in self.con.execute(
            "SELECT DISTINCT n.oracle_id FROM names n JOIN cards c USING (oracle_id)"
            " WHERE n.folded = ? AND c.kind = 'card'", (key,))}

    def exact(self, name: str) -> str | None:
        ids = self._ids(fold(name))
        return min(ids) if len(ids) == 1 else None

    def _short(self, name: str) -> str | None:
        """Rulings call a legendary card by the part of its name before the comma ("Nicanzil")."""
        key = fold(name)
        if not key:
            return None
        ids = {oracle_id for oracle_id, printed in self.con.execute(
            "SELECT DISTINCT n.oracle_id, n.name FROM names n JOIN cards c USING (oracle_id)"
            " WHERE n.folded >= ? AND n.folded < ? AND c.kind = 'card'", (key + " ", key + "!"))
            if ", " in printed and " // " not in printed and fold(printed.split(", ")[0]) == key}
        return min(ids) if len(ids) == 1 else None

    def closest(self, name: str, cutoff: float = 88) -> str | None:
        found = self.exact(name)
        key = fold(name)
        if found or len(key) < 3:
            return found
        keys = [row[0] for row in self.con.execute(
            "SELECT DISTINCT folded FROM names WHERE folded >= ? AND folded < ?", (key[:3], key[:3] + "\U0010ffff"))]
        best = process.extractOne(key, keys, scorer=fuzz.ratio, score_cutoff=cutoff)
        return self.exact(best[0]) if best else None

    def mentioned(self, texts: list[str]) -> str | None:
        """The card named most often in ``texts`` (longest names first)."""
        counts: Counter[str] = Counter()
        first_seen: dict[str, int] = {}
        position = 0
        for text in texts:
            for match in _CAPITALISED.finditer(text):
                words = match.group(0).replace(",", " ,").split()
                for oracle_id in self._longest_names(words):
                    counts[oracle_id] += 1
                    first_seen.setdefault(oracle_id, position)
                    position += 1
        if not counts:
            return None
        return max(counts, key=lambda oid: (counts[oid], -first_seen[oid]))

    def _longest_names(self, words: list[str]) -> list[str]:
        found = []
        i = 0
        while i < len(words):
            for j in range(min(len(words), i + 8), i, -1):
                phrase = _POSSESSIVE.sub("", " ".join(words[i:j]).replace(" ,", ","))
                oracle_id = self.exact(phrase) or self._short(phrase)
                if oracle_id:
                    found.append(oracle_id)
                    i = j
                    break
            else:
                i += 1
        return found
