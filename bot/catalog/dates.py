"""Dates as ruling documents print them, in any print language, read with Babel's month names."""
from __future__ import annotations

import re
from datetime import date
from functools import lru_cache

from babel.dates import get_month_names

from bot.languages import BABEL_LOCALE

BABEL_LOCALES = tuple(BABEL_LOCALE.values())

_NUMERIC = re.compile(r"^(\d{1,2})[/.\-](\d{1,2})[/.\-](\d{4})$")
_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_CJK = re.compile(r"^(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일]?$")
_WORDS = re.compile(r"^(\d{1,2})\.?\s+(?:de\s+)?([^\W\d_]+\.?)\s+(?:de\s+)?(\d{4})(?:\s*г\.?)?$", re.UNICODE)
_WORDS_EN = re.compile(r"^([^\W\d_]+\.?)\s+(\d{1,2}),?\s+(\d{4})$", re.UNICODE)
_SOURCE = re.compile(r"\s*[·•|\-–—]\s*(?:source|fuente|fonte|quelle|ソース|출처|источник)\s*:?\s*(\w+)\s*$",
                     re.IGNORECASE)


@lru_cache(maxsize=1)
def month_numbers() -> dict[str, int]:
    """Every wide and abbreviated month name of the print languages, lower-cased → month."""
    names: dict[str, int] = {}
    for locale in BABEL_LOCALES:
        for width in ("wide", "abbreviated"):
            for context in ("format", "stand-alone"):
                for number, name in get_month_names(width, context=context, locale=locale).items():
                    names.setdefault(name.lower().rstrip("."), number)
    return names


def parse_date_line(line: str) -> tuple[str, str | None] | None:
    """(ISO date, source or None) if ``line`` is a date line, else None.

    >>> parse_date_line("10 novembre 2023 · source : wotc")
    ('2023-11-10', 'wotc')
    >>> parse_date_line("19/01/2018")
    ('2018-01-19', None)
    """
    line = line.strip()
    source = None
    match = _SOURCE.search(line)
    if match:
        source = match.group(1).lower()
        line = line[: match.start()].strip()
    found = _parse(line)
    if not found:
        return None
    return found.isoformat(), source


def _parse(text: str) -> date | None:
    try:
        if m := _ISO.match(text):
            return date(int(m[1]), int(m[2]), int(m[3]))
        if m := _NUMERIC.match(text):
            day, month = int(m[1]), int(m[2])
            if month > 12 >= day:  # only a US-ordered date can read this way
                day, month = month, day
            return date(int(m[3]), month, day)
        if m := _CJK.match(text):
            return date(int(m[1]), int(m[2]), int(m[3]))
        if m := _WORDS.match(text):
            month = month_numbers().get(m[2].lower().rstrip("."))
            return date(int(m[3]), month, int(m[1])) if month else None
        if m := _WORDS_EN.match(text):
            month = month_numbers().get(m[1].lower().rstrip("."))
            return date(int(m[3]), month, int(m[2])) if month else None
    except ValueError:
        return None
    return None
