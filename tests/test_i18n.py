"""The message catalogs are read compiled: every .mo exists and says what its .po says; a missing
or outdated .mo never loses a message nor shows an old one."""
from __future__ import annotations

import gettext
import io
import logging
import os

import pytest

from bot import babel_data, i18n
from bot.languages import BABEL_LOCALE, LANGUAGES


def _messages(data: bytes) -> dict:
    return dict(gettext.GNUTranslations(io.BytesIO(data))._catalog)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_compiled_catalog_says_what_its_po_says(lang):
    po, mo = i18n.po_path(lang), i18n.mo_path(lang)
    assert po.exists(), po
    assert mo.exists(), f"{mo} is missing: run `make` (or python -m bot.i18n) to compile the catalogs"
    compiled, source = _messages(mo.read_bytes()), _messages(i18n.compile_catalog(po))
    differ = sorted(str(k) for k in compiled.keys() ^ source.keys()) + sorted(
        str(k) for k in compiled.keys() & source.keys() if compiled[k] != source[k])
    assert not differ, f"{mo} is older than {po.name} ({len(differ)} messages differ, e.g. {differ[:3]}): run `make`"


ITALIAN = r'''msgid ""
msgstr ""
"Language: it\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"
"Content-Type: text/plain; charset=utf-8\n"

msgid "Next"
msgstr "Successivo"

msgid "{count} ruling"
msgid_plural "{count} rulings"
msgstr[0] "{count} chiarimento"
msgstr[1] "{count} chiarimenti"

msgctxt "command name"
msgid "ruling"
msgstr "chiarimento"
'''


def _warned(caplog, logger: str) -> str:
    """What one module warned (the other's warnings about the same unbuilt tree left out)."""
    return "\n".join(r.getMessage() for r in caplog.records if r.name == logger)


@pytest.fixture
def unbuilt(tmp_path, monkeypatch):
    """A data directory where `make` has not run: no compiled catalog, no compiled locale data."""
    monkeypatch.setattr(i18n, "LOCALES_DIR", tmp_path / "locales")
    monkeypatch.setattr(babel_data, "DATA_DIR", tmp_path)
    for cache in (i18n._translations, i18n._locale):
        cache.cache_clear()
    yield tmp_path
    for cache in (i18n._translations, i18n._locale):
        cache.cache_clear()


@pytest.fixture
def locales(unbuilt):
    """An Italian catalog in a source tree where `make` has not run."""
    i18n.po_path("it").parent.mkdir(parents=True)
    i18n.po_path("it").write_text(ITALIAN, encoding="utf-8")
    return unbuilt / "locales"


def test_a_missing_mo_is_compiled_in_memory_with_a_warning(locales, caplog):
    caplog.set_level(logging.WARNING, logger="bot.i18n")
    assert not i18n.mo_path("it").exists()
    assert i18n.messages("it")._("Next") == "Successivo"
    assert "missing" in _warned(caplog, "bot.i18n")
    assert not i18n.mo_path("it").exists()   # nothing written at run time


def test_an_mo_older_than_its_po_is_not_used(locales, caplog):
    mo = i18n.write_compiled(i18n.po_path("it"))
    po = i18n.po_path("it")
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Successivo"', 'msgstr "Avanti"'),
                  encoding="utf-8")
    os.utime(mo, (mo.stat().st_atime, po.stat().st_mtime - 10))
    caplog.set_level(logging.WARNING, logger="bot.i18n")
    assert i18n.messages("it")._("Next") == "Avanti"
    assert "older than its .po" in _warned(caplog, "bot.i18n")


def test_a_compiled_catalog_keeps_plurals_and_contexts(locales):
    i18n.write_compiled(i18n.po_path("it"))
    it = i18n.messages("it")
    assert it.n_("{count} ruling", "{count} rulings", 1) == "1 chiarimento"
    assert it.n_("{count} ruling", "{count} rulings", 6) == "6 chiarimenti"
    assert i18n._translations("it").pgettext("command name", "ruling") == "chiarimento"


def test_a_count_is_written_as_the_language_writes_numbers_however_it_is_given():
    de = i18n.messages("de")
    assert de.n_("{count} ruling", "{count} rulings", 1234) == "1.234 Regelhinweise"
    assert i18n.Note("{count} ruling", "{count} rulings", count=1234).localized(de) == "1.234 Regelhinweise"
    assert i18n.Note("{count} ruling", "{count} rulings", count=1234) == "1,234 rulings"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_small_whole_numbers_are_written_as_babel_writes_them(lang):
    from babel.numbers import format_decimal
    msg = i18n.messages(lang)
    for value in (0, 1, 7, 42, 999, 1000, 123456):
        assert msg.number(value) == format_decimal(value, format="#,##0", locale=BABEL_LOCALE[lang])


def test_an_error_given_a_note_is_said_in_the_readers_language():
    from bot.config import ConfigError
    from bot.settings.errors import SettingsError
    ja = i18n.messages("ja")
    note = i18n.Note("no edition {value} in the catalog, which holds none; name a CR file", value="'2099-01-01'")
    for error in (ConfigError(note), SettingsError(note)):
        assert i18n.said(error, ja) == note.localized(ja) != str(note) == str(error)
    it = i18n.messages("it")
    assert i18n.said(SettingsError("Next"), it) == it._("Next") == "Successivo"   # a fixed message, translated


def test_warm_up_loads_every_languages_catalog():
    i18n._translations.cache_clear()
    i18n.warm_up()
    loaded = {lang: i18n._translations(lang) for lang in LANGUAGES}
    assert i18n._translations.cache_info().misses == len(LANGUAGES)
    assert all(isinstance(t, gettext.GNUTranslations) for t in loaded.values())


# -- Babel's locale data, compiled per language (bot/babel_data.py) --------------------------------

def _written_by_babel(lang: str, locale) -> list[str]:
    """Dates of every month, numbers, a percentage and every language's name, as ``locale`` writes them."""
    from datetime import date

    from babel import Locale
    from babel.dates import format_date
    from babel.numbers import format_decimal, format_percent
    msg = i18n.messages(lang)
    pattern = locale.percent_formats[None].pattern.replace("#,##0", "#,##0.00", 1)
    return ([format_date(date(2024, month, 28), format="long", locale=locale) for month in range(1, 13)]
            + [format_decimal(value, format="#,##0.0", locale=locale) for value in (0.5, 1234.5, -98765432.1)]
            + [format_percent(0.5932, format=pattern, locale=locale)]
            + [msg.language_name(other) if other in i18n.SCRIPT_NAMES else
               Locale.parse(BABEL_LOCALE[other]).get_display_name(locale).split(" (")[0] for other in LANGUAGES])


def _written_by_messages(lang: str) -> list[str]:
    msg = i18n.messages(lang)
    return ([msg.date(f"2024-{month:02d}-28") for month in range(1, 13)]
            + [msg.number(value, 1) for value in (0.5, 1234.5, -98765432.1)] + [msg.percent(0.5932)]
            + [msg.language_name(other) for other in LANGUAGES])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_compiled_locale_data_writes_what_babels_full_data_writes(lang):
    from babel import Locale
    path = babel_data.data_path(lang)
    assert path.exists(), f"{path} is missing: run `make` (or python -m bot.babel_data)"
    compiled = babel_data.locale(lang)
    assert isinstance(compiled, babel_data.CompiledLocale), "the compiled data is current"
    full = Locale.parse(BABEL_LOCALE[lang])
    assert _written_by_messages(lang) == _written_by_babel(lang, full) == _written_by_babel(lang, compiled)


def test_missing_locale_data_reads_babels_full_data_with_a_warning(unbuilt, caplog):
    caplog.set_level(logging.WARNING, logger="bot.babel_data")
    assert i18n.messages("de").date("2024-03-28") == "28. März 2024"
    assert i18n.messages("fr").number(1234.5, 1) == "1\u202f234,5"
    assert "missing" in _warned(caplog, "bot.babel_data")
    assert not babel_data.data_path("de", unbuilt / "locales").exists()   # nothing written


def test_locale_data_of_another_babel_version_is_not_used(unbuilt, monkeypatch, caplog):
    locales = unbuilt / "locales"
    babel_data.write_compiled("ja", locales)
    monkeypatch.setattr(babel_data.babel, "__version__", "0.0")
    caplog.set_level(logging.WARNING, logger="bot.babel_data")
    assert not isinstance(babel_data.locale("ja"), babel_data.CompiledLocale)
    assert i18n.messages("ja").date("2024-03-28") == "2024年3月28日"
    assert "written for Babel" in _warned(caplog, "bot.babel_data")


@pytest.mark.parametrize("content, why", [(b"", "unreadable"), (b"\x80\x04not a pickle", "unreadable"),
                                          (None, "written for pt_PT")])
def test_damaged_or_foreign_locale_data_is_not_used(unbuilt, monkeypatch, caplog, content, why):
    """A truncated file, another file, or the data of another locale (a language moved to another
    variant): the bot still starts and writes the language's own dates, with a warning."""
    path = babel_data.data_path("pt", unbuilt / "locales")
    if content is None:
        monkeypatch.setitem(babel_data.BABEL_LOCALE, "pt", "pt_PT")
        babel_data.write_compiled("pt", unbuilt / "locales")
        monkeypatch.setitem(babel_data.BABEL_LOCALE, "pt", "pt_BR")
    else:
        path.parent.mkdir(parents=True)
        path.write_bytes(content)
    caplog.set_level(logging.WARNING, logger="bot.babel_data")
    assert not isinstance(babel_data.locale("pt"), babel_data.CompiledLocale)
    assert i18n.messages("pt").date("2024-03-28") == "28 de março de 2024"
    assert why in _warned(caplog, "bot.babel_data")
