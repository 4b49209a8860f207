"""The keyword actions and abilities (CR 701, 702) a card's text uses: "explores" → rule 701.44.

Only the current edition's rule titles are read: a /ruling lists these rules without loading the
rules book.
"""
from __future__ import annotations

import re
from functools import lru_cache

SECTIONS = ("701", "702")   # keyword actions, keyword abilities


class Keywords:
    def __init__(self, rules):
        """``rules``: (number, parent, title) of the current edition's rules, in order."""
        self.entries = [(title.lower(), number, title) for number, parent, title in rules
                        if parent in SECTIONS and title and len(title) > 2]

    @classmethod
    def from_catalog(cls, catalog) -> "Keywords":
        # the numbers from 701. to 702.x: a range of the table's key, not a scan of the edition
        return cls(catalog.query(
            "SELECT number, parent, title FROM cr_rules WHERE edition_id ="
            " (SELECT id FROM cr_editions WHERE lang = 'en' AND effective_date NOT LIKE 'excerpt:%'"
            "  ORDER BY effective_date DESC LIMIT 1)"
            " AND number >= '701.' AND number < '703' AND parent IN ('701', '702') ORDER BY position"))

    def rules(self, text: str, limit: int = 5) -> list[str]:
        """The numbers of the keyword rules ``text`` uses, in the rules' order."""
        if not text:
            return []
        lowered = re.sub(r"\([^)]*\)", "", text.lower())   # reminder text repeats the keyword
        return [number for word, number, _ in self.entries
                if word in lowered and _keyword(word).search(lowered)][:limit]

    def title(self, number: str) -> str | None:
        return next((title for _, n, title in self.entries if n == number), None)


@lru_cache(maxsize=None)
def _keyword(word: str) -> re.Pattern:
    """The keyword as a word, inflected ("explores"): compiled for the keywords texts use."""
    return re.compile(rf"\b{re.escape(word)}(?:s|es|ed|ing)?\b")
