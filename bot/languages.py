"""MTG's 11 print languages, in one place: their codes, names, Babel locales and Discord locales.

Every other module (messages, settings, the matcher's importers, the command line, the console,
the Discord commands) takes the languages from here. A new language is one entry in each table.
"""
from __future__ import annotations

from functools import lru_cache

# the print languages, in the order menus list them
LANGUAGES = ("en", "es", "fr", "de", "it", "pt", "ja", "ko", "ru", "zhs", "zht")

# each language's name in itself (the language menus)
AUTONYMS = {
    "en": "English", "es": "Español", "fr": "Français", "de": "Deutsch", "it": "Italiano",
    "pt": "Português", "ja": "日本語", "ko": "한국어", "ru": "Русский", "zhs": "简体中文", "zht": "繁體中文",
}

# the language names MTGJSON writes in its card files
MTGJSON_NAMES = {
    "en": ("English",), "es": ("Spanish",), "fr": ("French",), "de": ("German",), "it": ("Italian",),
    "pt": ("Portuguese (Brazil)", "Portuguese"), "ja": ("Japanese",), "ko": ("Korean",), "ru": ("Russian",),
    "zhs": ("Chinese Simplified",), "zht": ("Chinese Traditional",),
}

# MTG print language → Babel locale (dates, numbers, language names)
BABEL_LOCALE = {
    "en": "en_US", "es": "es_ES", "fr": "fr_FR", "de": "de_DE", "it": "it_IT", "pt": "pt_BR",
    "ja": "ja_JP", "ko": "ko_KR", "ru": "ru_RU", "zhs": "zh_Hans_CN", "zht": "zh_Hant_TW",
}

# MTG print language → the Discord locales that read it (the first is its own)
DISCORD_LOCALES = {
    "en": ("en-US", "en-GB"), "es": ("es-ES", "es-419"), "fr": ("fr",), "de": ("de",), "it": ("it",),
    "pt": ("pt-BR",), "ja": ("ja",), "ko": ("ko",), "ru": ("ru",), "zhs": ("zh-CN",), "zht": ("zh-TW",),
}

# every accepted spelling, lower-cased: the codes themselves and the Discord locales
_NAMES = {**{loc.lower(): lang for lang, locs in DISCORD_LOCALES.items() for loc in locs},
          **{lang: lang for lang in LANGUAGES}}


@lru_cache(maxsize=256)   # a few dozen locales, asked for every string of every command at sync
def language_for_locale(locale: str | None) -> str:
    """The MTG language for a Discord locale ("pt-BR" → "pt") or a system locale ("fr_FR" → "fr");
    English for any other."""
    if not locale:
        return "en"
    locale = str(locale).replace("_", "-").split(".")[0]
    return normalize_language(locale) or normalize_language(locale.split("-")[0]) or "en"


def normalize_language(value: str | None) -> str | None:
    """Accept "it", "IT", "zh-CN", "pt-BR", "zhs"… as a print language; None if not one."""
    if not value:
        return None
    return _NAMES.get(value.strip().lower())
