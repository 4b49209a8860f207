"""Find which card a document is about, from its title or the names mentioned in its text."""
from __future__ import annotations

import re
import sqlite3
from collections import Counter

from rapidfuzz import fuzz, process

from ..text import fold

_CAPITALISED = re.compile(r"[A-ZÀ-Ý][\w’'\-]*(?:,?\s+(?:[A-ZÀ-Ý][\w’'\-]*|of|the|de|du|des|la|le|da|di|del|der|von))*")
_POSSESSIVE = re.compile(r"[’']s$")


class NameIndex:
    """Folded printed name → oracle ids, read from the catalog being built."""

    def __init__(self, con: sqlite3.Connection):
        self.by_name: dict[str, set[str]] = {}
        # Rulings call a legendary card by the part of its name before the comma ("Nicanzil").
        self.short_names: dict[str, set[str]] = {}
        for oracle_id, name in con.execute(
                "SELECT n.oracle_id, n.name FROM names n JOIN cards c USING (oracle_id)"
                " WHERE c.kind = 'card'"):
            self.by_name.setdefault(fold(name), set()).add(oracle_id)
            if ", " in name and " // " not in name:
                self.short_names.setdefault(fold(name.split(", ")[0]), set()).add(oracle_id)
        self._keys = list(self.by_name)

    def exact(self, name: str) -> str | None:
        ids = self.by_name.get(fold(name))
        return min(ids) if ids and len(ids) == 1 else None

    def _short(self, name: str) -> str | None:
        ids = self.short_names.get(fold(name))
        return min(ids) if ids and len(ids) == 1 else None

    def closest(self, name: str, cutoff: float = 88) -> str | None:
        found = self.exact(name)
        if found or not self._keys:
            return found
        best = process.extractOne(fold(name), self._keys, scorer=fuzz.ratio, score_cutoff=cutoff)
        return self.exact(best[0]) if best else None

    def mentioned(self, texts: list[str]) -> str | None:
        """The card named most often in ``texts`` (longest names first)."""
        counts: Counter[str] = Counter()
        first_seen: dict[str, int] = {}
        position = 0
        for text in texts:
            for match in _CAPITALISED.finditer(text):
                words = match.group(0).replace(",", " ,").split()
                found = self._longest_name(words)
                for oracle_id in found:
                    counts[oracle_id] += 1
                    first_seen.setdefault(oracle_id, position)
                    position += 1
        if not counts:
            return None
        return max(counts, key=lambda oid: (counts[oid], -first_seen[oid]))

    def _longest_name(self, words: list[str]) -> list[str]:
        found = []
        i = 0
        while i < len(words):
            for j in range(min(len(words), i + 8), i, -1):
                phrase = " ".join(words[i:j]).replace(" ,", ",")
                oracle_id = self.exact(_POSSESSIVE.sub("", phrase)) or self._short(_POSSESSIVE.sub("", phrase))
                if oracle_id:
                    found.append(oracle_id)
                    i = j
                    break
            else:
                i += 1
        return found
