"""Message catalogs, locales and dates.

Every string a user sees goes through ``Messages._``/``n_`` of the reader's language. The catalogs
are written as gettext .po files (data/locales/<lang>/LC_MESSAGES/wayfinder.po) and read compiled
(wayfinder.mo beside each, built by ``make`` and by the package build: ``python -m bot.i18n``).
The languages themselves are in bot.languages; Babel formats dates and numbers and names languages,
from the part of its locale data the messages read (bot.babel_data), loaded with the catalogs.
"""
from __future__ import annotations

import gettext
import io
import logging
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path

from bot.config import DATA_DIR
from bot.languages import LANGUAGES

DOMAIN = "wayfinder"
LOCALES_DIR = DATA_DIR / "locales"
log = logging.getLogger(__name__)


def po_path(lang: str, locales_dir: Path | None = None) -> Path:
    return (locales_dir or LOCALES_DIR) / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str, locales_dir: Path | None = None) -> Path:
    return po_path(lang, locales_dir).with_suffix(".mo")


def compile_catalog(po: Path) -> bytes:
    """The .mo bytes of a .po file (Babel: fuzzy and untranslated entries left out, as msgfmt does)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    with open(po, "rb") as fh:
        catalog = read_po(fh)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    return buffer.getvalue()


def write_compiled(po: Path, mo: Path | None = None) -> Path:
    """Compile ``po`` into ``mo`` (the .mo beside it by default), replacing it atomically."""
    mo = mo or po.with_suffix(".mo")
    mo.parent.mkdir(parents=True, exist_ok=True)
    partial = mo.with_name(mo.name + ".partial")
    partial.write_bytes(compile_catalog(po))
    partial.replace(mo)
    return mo


def compile_all(locales_dir: Path | None = None, out_dir: Path | None = None) -> list[Path]:
    """Compile every language's catalog (into ``out_dir`` instead of beside the .po, if given)."""
    return [write_compiled(po_path(lang, locales_dir), mo_path(lang, out_dir) if out_dir else None)
            for lang in LANGUAGES if po_path(lang, locales_dir).exists()]


def _compiled(lang: str) -> bytes | None:
    """The compiled catalog; compiled here, with a warning, when the .mo is missing or older than
    its .po (a source tree where ``make`` has not run), so the messages are never stale or lost."""
    po, mo = po_path(lang), mo_path(lang)
    try:
        stale = po.exists() and po.stat().st_mtime > mo.stat().st_mtime
        if not stale:
            return mo.read_bytes()
    except FileNotFoundError:
        if not po.exists():
            return None
    log.warning("%s is %s: compiling %s in memory (`make` compiles the catalogs)",
                mo, "older than its .po" if mo.exists() else "missing", po.name)
    return compile_catalog(po)

# the languages Babel names alike ("Chinese"): their names are messages of the catalogs
SCRIPT_NAMES = {"zhs": "Chinese (Simplified)", "zht": "Chinese (Traditional)"}


@lru_cache(maxsize=None)
def _translations(lang: str) -> gettext.NullTranslations:
    data = _compiled(lang)
    if data is None:
        return gettext.NullTranslations()  # identity: the English message ids
    return gettext.GNUTranslations(io.BytesIO(data))


@lru_cache(maxsize=None)
def _locale(lang: str):
    """The Babel locale that writes ``lang``'s dates, numbers and language names."""
    from bot import babel_data   # Babel is loaded when a first date or number is written
    return babel_data.locale(lang)


@lru_cache(maxsize=None)
def _named(lang: str):
    """The Babel locale ``lang`` is, without its data: naming a language reads only the reader's."""
    from bot import babel_data
    return babel_data.named(lang)


def warm_up() -> None:
    """Load every catalog and the Babel locale data of every language (dates, numbers, language
    names), so the first answer in any language costs what the next ones do."""
    for lang in LANGUAGES:
        _translations(lang)
        msg = messages(lang)
        msg.date("2000-01-31")
        msg.number(1234.5, 1)
        msg.percent(0.5932)
        for other in LANGUAGES:
            msg.language_name(other)


@dataclass(frozen=True)
class Messages:
    """The messages of one language: ``_`` to translate, ``n_`` for plurals, dates, languages."""

    lang: str

    def _(self, message: str, **values) -> str:
        text = _translations(self.lang).gettext(message)
        return text.format(**values) if values else text

    def n_(self, singular: str, plural: str, count: int, **values) -> str:
        """The form ``count`` chooses, the count written as this language writes numbers."""
        text = _translations(self.lang).ngettext(singular, plural, count)
        return text.format(count=self.number(count), **values)

    def date(self, iso: str | None) -> str | None:
        if not iso:
            return None
        from babel.dates import format_date
        return format_date(date.fromisoformat(iso), format="long", locale=_locale(self.lang))

    def language_name(self, lang: str) -> str:
        """The name of ``lang`` in this language ("italiano", "francese", "cinese (semplificato)"…)."""
        if lang in SCRIPT_NAMES:   # one language, two scripts: the catalogs name each
            return self._(SCRIPT_NAMES[lang])
        return _named(lang).get_display_name(_locale(self.lang)).split(" (")[0]

    def number(self, value, digits: int = 0) -> str:
        """A number as this language writes it: 1,234.5 / 1 234,5 / 1.234,5."""
        if type(value) is int and 0 <= value < 1000 and not digits:
            return str(value)   # every print language writes these alike: no need to load Babel
        from babel.numbers import format_decimal
        pattern = "#,##0" + ("." + "0" * digits if digits else "")
        return format_decimal(_decimal(value), format=pattern, locale=_locale(self.lang))

    def percent(self, value, digits: int = 2) -> str:
        """A probability (0 to 1) as a percentage: "59.32%", "59,32 %", "59,32 %"."""
        from babel.numbers import format_percent
        locale = _locale(self.lang)
        pattern = locale.percent_formats[None].pattern   # the language's own spacing and sign place
        if digits:
            pattern = pattern.replace("#,##0", "#,##0." + "0" * digits, 1)
        return format_percent(_decimal(value), format=pattern, locale=locale)


class Note(str):
    """A line written now and read later in a language chosen then: it is its English text (logs,
    exceptions, ``str``), and ``localized(msg)`` writes it in ``msg``'s language, its numbers as
    that language writes them, the values that are notes themselves localized too. With
    ``plural``, ``count`` chooses the form."""

    def __new__(cls, message: str, plural: str | None = None, count: int | None = None, **values):
        if plural is None and count is not None:   # a {count} with no plural form: a value as the others
            values["count"], count = count, None
        english = plural if plural is not None and count != 1 else message
        shown = {k: f"{v:,}" if _is_number(v) else v for k, v in values.items()}
        if plural is not None:
            shown["count"] = f"{count:,}"
        note = super().__new__(cls, english.format(**shown))
        note.message, note.plural, note.count, note.values = message, plural, count, values
        return note

    def localized(self, msg: Messages) -> str:
        values = {k: localized(v, msg) for k, v in self.values.items()}
        if self.plural is None:
            return msg._(self.message, **values)
        return msg.n_(self.message, self.plural, self.count, **values)


def localized(value, msg: Messages) -> str:
    """A value as ``msg``'s language writes it: a note (anything with ``localized``) in that
    language, a number through Babel, any other value as it is."""
    if hasattr(value, "localized"):
        return value.localized(msg)
    return msg.number(value) if _is_number(value) else str(value)


def said(line, msg: Messages) -> str:
    """A line (a note, an error, a text) in ``msg``'s language: a note localized (an error given a
    note says its note), a plain text looked up as a message as it is (a fixed message is
    translated, anything else left)."""
    if isinstance(line, BaseException) and line.args and hasattr(line.args[0], "localized"):
        line = line.args[0]
    return line.localized(msg) if hasattr(line, "localized") else msg._(str(line))


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _decimal(value) -> Decimal:
    """Babel formats decimals; a fraction (exact odds) becomes one to 28 significant digits."""
    from decimal import Decimal   # with the first number written
    from fractions import Fraction
    if isinstance(value, Fraction):
        return Decimal(value.numerator) / Decimal(value.denominator)
    return Decimal(str(value))


def messages(lang: str | None) -> Messages:
    return Messages(lang if lang in LANGUAGES else "en")


def catalog_paths() -> list[Path]:
    return sorted(LOCALES_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def main(argv: list[str] | None = None) -> int:
    """``python -m bot.i18n [PO …]``: compile the given catalogs (every language's by default)."""
    import sys
    args = sys.argv[1:] if argv is None else argv
    written = [write_compiled(Path(a)) for a in args] if args else compile_all()
    for mo in written:
        print(f"compiled {mo}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
