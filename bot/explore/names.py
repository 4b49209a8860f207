"""Cards named as the reader knows them, in the steps, zones and odds of an explore."""
from __future__ import annotations

from typing import TYPE_CHECKING

from bot.i18n import messages

if TYPE_CHECKING:
    from bot.services import Services


class CardNames:
    """Cards as the reader knows them: the name printed in the reader's language, with the English
    name beside it the first time a card is named ("Ranger jadefeu (Jadelight Ranger)"), English
    where the card was never printed in that language. A permanent's id is named by its card."""

    def __init__(self, services: Services, lang: str, ids: dict[str, str] | None = None):
        self.catalog, self.lang, self.msg = services.catalog, lang, messages(lang)
        self.ids = dict(ids or {})
        self._printed: dict[str, str] = {}
        self._named: set[str] = set()

    def printed(self, english: str) -> str:
        if english not in self._printed:
            self._printed[english] = self._lookup(english) if self.lang != "en" else english
        return self._printed[english]

    def _lookup(self, english: str) -> str:
        card = self.catalog.card_by_english_name(english)
        if card is not None:
            return self.catalog.printed_name(card.oracle_id, self.lang) or english
        # one face of a double-faced card: the same face as printed in the language
        for oracle_id, face in self.catalog.query(
                "SELECT oracle_id, face FROM names WHERE lang = 'en' AND name = ? LIMIT 1", (english,)):
            for (name,) in self.catalog.query("SELECT name FROM names WHERE oracle_id = ? AND lang = ? AND face = ?"
                                              " LIMIT 1", (oracle_id, self.lang, face)):
                return name
        return english

    def __call__(self, english: str) -> str:
        english = self.ids.get(english, english)
        printed = self.printed(english)
        if printed == english or english in self._named:
            return printed
        self._named.add(english)
        return self.msg._("{printed} ({english})", printed=printed, english=english)
