"""Message catalogs (gettext .po files under data/locales, read with Babel), locales and dates.

Every string a user sees goes through ``Messages.gettext``/``ngettext`` of the reader's
language. Discord locales map to MTG print languages; Babel formats dates and names languages.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path

from babel import Locale
from babel.dates import format_date
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from bot.config import DATA_DIR

LANGUAGES = ("en", "es", "fr", "de", "it", "pt", "ja", "ko", "ru", "zhs", "zht")
DOMAIN = "wayfinder"
LOCALES_DIR = DATA_DIR / "locales"

# MTG print language → Babel locale
BABEL_LOCALE = {
    "en": "en_US", "es": "es_ES", "fr": "fr_FR", "de": "de_DE", "it": "it_IT", "pt": "pt_BR",
    "ja": "ja_JP", "ko": "ko_KR", "ru": "ru_RU", "zhs": "zh_Hans_CN", "zht": "zh_Hant_TW",
}
# MTG print language → the Discord locales that read it (the first is its own)
DISCORD_LOCALES = {
    "en": ("en-US", "en-GB"), "es": ("es-ES", "es-419"), "fr": ("fr",), "de": ("de",), "it": ("it",),
    "pt": ("pt-BR",), "ja": ("ja",), "ko": ("ko",), "ru": ("ru",), "zhs": ("zh-CN",), "zht": ("zh-TW",),
}
_FROM_DISCORD = {loc: lang for lang, locs in DISCORD_LOCALES.items() for loc in locs}


def language_for_locale(locale: str | None) -> str:
    """The MTG language for a Discord locale ("pt-BR" → "pt"); English for any other."""
    if not locale:
        return "en"
    return _FROM_DISCORD.get(str(locale), "en")


def normalize_language(value: str | None) -> str | None:
    """Accept "it", "IT", "zh-CN", "pt-BR", "zhs"… as a print language; None if not one."""
    if not value:
        return None
    value = value.strip()
    if value.lower() in LANGUAGES:
        return value.lower()
    for loc, lang in _FROM_DISCORD.items():
        if loc.lower() == value.lower():
            return lang
    return None


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
        """The name of ``lang`` in this language ("italiano", "francese"…)."""
        return Locale.parse(BABEL_LOCALE[lang]).get_display_name(BABEL_LOCALE[self.lang]).split(" (")[0]

    @property
    def babel_locale(self) -> str:
        return BABEL_LOCALE[self.lang]


def messages(lang: str | None) -> Messages:
    return Messages(lang if lang in LANGUAGES else "en")


def catalog_paths() -> list[Path]:
    return sorted(LOCALES_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
