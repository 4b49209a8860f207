"""The keyword actions and abilities (CR 701, 702) a card's text uses: "explores" → rule 701.44.

Only the current edition's rule titles are read: a /ruling lists these rules without loading the
rules book.
"""
from __future__ import annotations

import re
from functools import lru_cache, partial

SECTIONS = ("701", "702")   # keyword actions, keyword abilities


class Keywords:
    def __init__(self, rules):
        """``rules``: (number, parent, title) of the current edition's rules, in order."""
        self.entries = [(title.lower(), number, title) for number, parent, title in rules
                        if parent in SECTIONS and title and len(title) > 2]
        self._titles = {word for word, _, _ in self.entries}
        self._longest_first = sorted(self.entries, key=lambda entry: -len(entry[0]))

    @classmethod
    def from_catalog(cls, catalog) -> "Keywords":
        # the numbers from 701. to 702.x: a range of the table's key, not a scan of the edition
        return cls(catalog.query(
            "SELECT number, parent, title FROM cr_rules WHERE edition_id ="
            " (SELECT id FROM cr_editions WHERE lang = 'en' AND effective_date NOT LIKE 'excerpt:%'"
            "  ORDER BY effective_date DESC LIMIT 1)"
            " AND number >= '701.' AND number < '703' AND parent IN ('701', '702') ORDER BY position"))

    def rules(self, text: str, limit: int = 5, name: str | None = None) -> list[str]:
        """The numbers of the keyword rules ``text`` uses, in the rules' order. A longer title
        claims its words first ("double strike" is 702.4, not 701.10 Double), and "counter" is the
        keyword action only as a verb ("counter target spell", not "a +1/+1 counter": rule 122).
        ``name``: the card whose text it is; where the text names the card ("Opal Champion",
        "Etali"), the name's words are not keywords (unless the name is a keyword itself)."""
        if not text:
            return []
        lowered = re.sub(r"\([^)]*\)", "", text.lower())   # reminder text repeats the keyword
        for part in (name or "").lower().split(" // "):
            for own in (part, part.split(",")[0]):   # the whole name, and its short form
                if own and own not in self._titles:  # a card named "Exile" exiles all the same
                    lowered = re.sub(rf"\b{re.escape(own)}\b", " ", lowered)   # as words: "Ram" is not in "trample"
        found = set()
        for word, number, _ in self._longest_first:
            if word in lowered:
                # what a longer title matched is blanked out: not matched again
                lowered, uses = (_ACTIONS.get(word) or _keyword(word))(lowered)
                if uses:
                    found.add(number)
        return [number for _, number, _ in self.entries if number in found][:limit]

    def title(self, number: str) -> str | None:
        return next((title for _, n, title in self.entries if n == number), None)


# "counter" the keyword action (CR 701.6) takes what is countered ("counter target spell", "can't
# be countered"); the noun (CR 122: "a +1/+1 counter on it", "each counter that was removed") comes
# after an article, a number or the counter's kind
_COUNTER = re.compile(r"(\S*)\s*\b(counter(?:s|ed|ing)?)\b(?=(\s+\S+)?)")
_OBJECTS = re.compile(r"\s+(?:target|that|those|it|them|the|all|each|up|any|another|this|spells?|abilit\w*|an?)$")
_NOUN_BEFORE = {"a", "an", "the", "each", "of", "no", "one", "two", "three", "x", "that", "those", "this", "more",
                "fewer", "any", "additional", "many", "+1/+1", "-1/-1", "-0/-1", "+1/+0", "+0/+1", "+2/+2", "-2/-2"}


def _counter_verbs(text: str) -> tuple[str, int]:
    """``text`` with the verb uses of "counter" blanked out, and how many there were."""
    verbs = [match for match in _COUNTER.finditer(text)
             if match.group(2) == "countered"
             or (match.group(1) not in _NOUN_BEFORE and _OBJECTS.match(match.group(3) or ""))]
    for match in reversed(verbs):
        text = text[:match.start(2)] + " " + text[match.end(2):]
    return text, len(verbs)


# the keyword actions whose word is also a noun, read as actions only: text → (text with the
# action's uses blanked out, how many)
_ACTIONS = {
    "counter": _counter_verbs,
    # "exile target creature", "exiled": the action (701.13); "from exile", "in exile": the zone (CR 406)
    "exile": partial(re.compile(r"(?<!\bin )(?<!\bfrom )\bexile(?:s|d|ing)?\b").subn, " "),
}


@lru_cache(maxsize=None)
def _keyword(word: str):
    """The keyword as a word, inflected ("explores"), blanked out of a text: text → (text, uses);
    compiled for the keywords texts use."""
    return partial(re.compile(rf"\b{re.escape(word)}(?:s|es|ed|ing)?\b").subn, " ")
