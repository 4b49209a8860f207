"""The Comprehensive Rules the bot ships, a newer edition replacing them, and a catalog with none."""
import shutil

from bot.catalog import Catalog
from bot.catalog.importer import import_files
from bot.rules.book import RulesBook
from bot.rules.command import answer_reply
from tests.helpers import SHARED_DATA, needs_shared


def test_the_bundled_catalog_holds_the_current_edition(bundled_catalog):
    book = RulesBook.from_catalog(bundled_catalog)
    assert [e.effective_date for e in book.editions] == ["2026-01-16"]
    assert book.lookup("701.44").rules[0].text == "701.44. Explore"


@needs_shared
def test_a_newer_edition_becomes_current_and_older_numbers_still_resolve(bundled_catalog_path, tmp_path):
    path = tmp_path / "catalog.sqlite3"
    shutil.copy(bundled_catalog_path, path)
    text = (SHARED_DATA / "cr" / "MagicCompRules-20260116.txt").read_bytes().decode("utf-8-sig")
    newer = tmp_path / "MagicCompRules-20260227.txt"
    newer.write_text(text.replace("effective as of January 16, 2026", "effective as of February 27, 2026"))
    assert newer.read_text() != text
    import_files(path, [newer, SHARED_DATA / "cr" / "MagicCompRules-20170925.txt"])
    catalog = Catalog(path)
    book = RulesBook.from_catalog(catalog)
    catalog.close()
    assert [e.effective_date for e in book.editions] == ["2017-09-29", "2026-01-16", "2026-02-27"]
    answer = book.lookup("701.38")
    assert answer.edition == "2026-02-27"
    assert [(r.edition, r.current) for r in answer.renumbered] == [("2017-09-29", "701.44")]


def test_with_no_rules_the_message_says_how_to_get_them():
    book = RulesBook([])
    for lang in ("en", "fr", "ja"):
        reply = answer_reply(book, book.lookup("701.44"), lang)
        assert reply.error
        assert "wayfinder data sync --rules-url URL" in reply.content
        assert "wayfinder data import MagicCompRules-" in reply.content
    assert answer_reply(book, book.lookup("701.44"), "fr").content.startswith("Le catalogue ne contient pas")
