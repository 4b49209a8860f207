"""The message catalogs are read compiled: every .mo exists and says what its .po says; a missing
or outdated .mo never loses a message nor shows an old one."""
from __future__ import annotations

import gettext
import io
import logging
import os

import pytest

from bot import i18n
from bot.languages import LANGUAGES


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


@pytest.fixture
def locales(tmp_path, monkeypatch):
    """An Italian catalog in a source tree where `make` has not run."""
    i18n.po_path("it", tmp_path).parent.mkdir(parents=True)
    i18n.po_path("it", tmp_path).write_text(ITALIAN, encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALES_DIR", tmp_path)
    i18n._translations.cache_clear()
    yield tmp_path
    i18n._translations.cache_clear()


def test_a_missing_mo_is_compiled_in_memory_with_a_warning(locales, caplog):
    caplog.set_level(logging.WARNING, logger="bot.i18n")
    assert not i18n.mo_path("it").exists()
    assert i18n.messages("it")._("Next") == "Successivo"
    assert "missing" in caplog.text
    assert not i18n.mo_path("it").exists()   # nothing written at run time


def test_an_mo_older_than_its_po_is_not_used(locales, caplog):
    mo = i18n.write_compiled(i18n.po_path("it"))
    po = i18n.po_path("it")
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Successivo"', 'msgstr "Avanti"'),
                  encoding="utf-8")
    os.utime(mo, (mo.stat().st_atime, po.stat().st_mtime - 10))
    caplog.set_level(logging.WARNING, logger="bot.i18n")
    assert i18n.messages("it")._("Next") == "Avanti"
    assert "older than its .po" in caplog.text


def test_a_compiled_catalog_keeps_plurals_and_contexts(locales):
    i18n.write_compiled(i18n.po_path("it"))
    it = i18n.messages("it")
    assert it.n_("{count} ruling", "{count} rulings", 1) == "1 chiarimento"
    assert it.n_("{count} ruling", "{count} rulings", 6) == "6 chiarimenti"
    assert i18n._translations("it").pgettext("command name", "ruling") == "chiarimento"


def test_warm_up_loads_every_languages_catalog():
    i18n._translations.cache_clear()
    i18n.warm_up()
    loaded = {lang: i18n._translations(lang) for lang in LANGUAGES}
    assert i18n._translations.cache_info().misses == len(LANGUAGES)
    assert all(isinstance(t, gettext.GNUTranslations) for t in loaded.values())
