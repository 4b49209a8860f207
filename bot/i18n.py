"""Message catalogs (gettext .po files under data/locales, read with Babel), locales and dates.

Every string a user sees goes through ``Messages.gettext``/``ngettext`` of the reader's
language (the languages themselves are in bot.languages); Babel formats dates and names languages.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

from babel import Locale
from babel.dates import format_date
from babel.numbers import format_decimal, format_percent
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from bot.config import DATA_DIR
from bot.languages import BABEL_LOCALE, LANGUAGES

DOMAIN = "wayfinder"
LOCALES_DIR = DATA_DIR / "locales"

# the languages Babel names alike ("Chinese"): their names are messages of the catalogs
SCRIPT_NAMES = {"zhs": "Chinese (Simplified)", "zht": "Chinese (Traditional)"}


@lru_cache(maxsize=None)
def _translations(lang: str) -> Translations:
    po_path = LOCALES_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not po_path.exists():
        return Translations()  # identity: the English message ids
    with open(po_path, "rb") as fh:
        catalog = read_po(fh, locale=BABEL_LOCALE[lang])
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(fp=buffer, domain=DOMAIN)


@dataclass(frozen=True)
class Messages:
    """The messages of one language: ``_`` to translate, ``n_`` for plurals, dates, languages."""

    lang: str

    def _(self, message: str, **values) -> str:
        text = _translations(self.lang).gettext(message)
        return text.format(**values) if values else text

    def n_(self, singular: str, plural: str, count: int, **values) -> str:
        text = _translations(self.lang).ngettext(singular, plural, count)
        return text.format(count=count, **values)

    def date(self, iso: str | None) -> str | None:
        if not iso:
            return None
        return format_date(date.fromisoformat(iso), format="long", locale=BABEL_LOCALE[self.lang])

    def language_name(self, lang: str) -> str:
        """The name of ``lang`` in this language ("italiano", "francese", "cinese (semplificato)"…)."""
        if lang in SCRIPT_NAMES:   # one language, two scripts: the catalogs name each
            return self._(SCRIPT_NAMES[lang])
        return Locale.parse(BABEL_LOCALE[lang]).get_display_name(BABEL_LOCALE[self.lang]).split(" (")[0]

    def number(self, value, digits: int = 0) -> str:
        """A number as this language writes it: 1,234.5 / 1 234,5 / 1.234,5."""
        pattern = "#,##0" + ("." + "0" * digits if digits else "")
        return format_decimal(_decimal(value), format=pattern, locale=BABEL_LOCALE[self.lang])

    def percent(self, value, digits: int = 2) -> str:
        """A probability (0 to 1) as a percentage: "59.32%", "59,32 %", "59,32 %"."""
        locale = Locale.parse(BABEL_LOCALE[self.lang])
        pattern = locale.percent_formats[None].pattern   # the language's own spacing and sign place
        if digits:
            pattern = pattern.replace("#,##0", "#,##0." + "0" * digits, 1)
        return format_percent(_decimal(value), format=pattern, locale=locale)


def _decimal(value) -> Decimal:
    """Babel formats decimals; a fraction (exact odds) becomes one to 28 significant digits."""
    if isinstance(value, Fraction):
        return Decimal(value.numerator) / Decimal(value.denominator)
    return Decimal(str(value))


def messages(lang: str | None) -> Messages:
    return Messages(lang if lang in LANGUAGES else "en")


def catalog_paths() -> list[Path]:
    return sorted(LOCALES_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))

