"""Babel's locale data, compiled per language: the part of it this project's messages read.

Babel keeps each locale's CLDR data in pickles of everything CLDR says (currencies, time zones,
every language's and territory's name…); loading them for the 11 languages, each merged over
its parents, is most of what a start costs beyond discord.py. What the messages read — dates,
numbers, percentages, the names of the print languages — is compiled, like the message catalogs,
into ``data/locales/<lang>/babel-locale.pickle`` (``make``, the package build, ``python -m
bot.babel_data``), and read into a ``babel.Locale`` that Babel's own formatting uses as it uses
its own. A file missing, or written by another Babel version, is not used: that language reads
Babel's full data, with a warning.
"""
from __future__ import annotations

import logging
import pickle
import sys
from pathlib import Path

import babel
from babel import Locale
from babel.core import parse_locale
from babel.localedata import LocaleDataDict

from bot.config import DATA_DIR
from bot.languages import BABEL_LOCALE, LANGUAGES

FILE_NAME = "babel-locale.pickle"
# what Babel reads to write this project's dates (long form), numbers, percentages and the names
# of the print languages (bot.i18n.Messages); a test checks each against Babel's full data
KEYS = ("date_formats", "months", "days", "eras", "number_symbols", "default_numbering_system",
        "decimal_formats", "percent_formats", "languages", "scripts", "territories", "variants")
# of the tables of names, only the print languages' parts are kept
NAMED = {part for code in BABEL_LOCALE.values() for part in parse_locale(code) if part}
log = logging.getLogger(__name__)


def data_path(lang: str, locales_dir: Path | None = None) -> Path:
    return (locales_dir or DATA_DIR / "locales") / lang / FILE_NAME


class CompiledLocale(Locale):
    """A Babel locale whose data is the compiled part (see the module's docstring)."""

    def __init__(self, identifier: str, data: dict):
        super().__init__(*parse_locale(identifier))
        self._compiled = LocaleDataDict(data)

    @property
    def _data(self) -> LocaleDataDict:
        return self._compiled


def _plain(value):
    """Babel's alias-resolving mappings as plain dicts, every alias followed."""
    if hasattr(value, "items"):
        return {key: _plain(item) for key, item in value.items()}
    return value


def compile_locale(lang: str) -> bytes:
    """The compiled locale data of ``lang`` (a print language), from Babel's full data."""
    locale = Locale.parse(BABEL_LOCALE[lang])
    data = {}
    for key in KEYS:
        value = _plain(getattr(locale, key))
        data[key] = {k: v for k, v in value.items() if k in NAMED} if key in ("languages", "scripts", "territories",
                                                                             "variants") else value
    return pickle.dumps({"babel": babel.__version__, "keys": KEYS, "locale": BABEL_LOCALE[lang], "data": data},
                        protocol=pickle.HIGHEST_PROTOCOL)


def write_compiled(lang: str, locales_dir: Path | None = None) -> Path:
    path = data_path(lang, locales_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(compile_locale(lang))
    partial.replace(path)
    return path


def compile_all(locales_dir: Path | None = None) -> list[Path]:
    return [write_compiled(lang, locales_dir) for lang in LANGUAGES]


def locale(lang: str) -> Locale:
    """The Babel locale for ``lang``: its compiled data when there is a current file, else
    Babel's full data (slower to load, the same result)."""
    path = data_path(lang)
    try:
        with open(path, "rb") as fh:
            compiled = pickle.load(fh)
        if (compiled["babel"], tuple(compiled["keys"]), compiled["locale"]) == (babel.__version__, KEYS,
                                                                                 BABEL_LOCALE[lang]):
            return CompiledLocale(compiled["locale"], compiled["data"])
        why = (f"written for Babel {compiled['babel']}" if compiled["babel"] != babel.__version__
               else f"written for {compiled['locale']}" if compiled["locale"] != BABEL_LOCALE[lang] else "outdated")
    except FileNotFoundError:
        why = "missing"
    except Exception as exc:   # unreadable, damaged, or pickled classes another Babel no longer has
        why = f"unreadable ({type(exc).__name__}: {exc})"
    log.warning("%s is %s: reading Babel's full locale data (`make` compiles it)", path, why)
    return Locale.parse(BABEL_LOCALE[lang])


def named(lang: str) -> Locale:
    """The Babel locale for ``lang`` with no data loaded: what names it (language, script,
    territory) for another locale to write (``get_display_name``)."""
    return Locale(*parse_locale(BABEL_LOCALE[lang]))


def main(argv: list[str] | None = None) -> int:
    """``python -m bot.babel_data [LANG …]``: compile the locale data (every language's by default)."""
    langs = (sys.argv[1:] if argv is None else argv) or list(LANGUAGES)
    for lang in langs:
        print(f"compiled {write_compiled(lang)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
