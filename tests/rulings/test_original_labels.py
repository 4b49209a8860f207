"""Each text under its own date and source. A translation and the English original it renders come
from different documents: the original is shown with what its own document says, and when that says
no date or no source the label says it is unknown — never the translation's document's date or
source. Built from the seed documents: the Italian Defossilize (dated, no source), the French
article's rulings (no date) and the source line of Nicanzil's document ("10 novembre 2023 · source :
wotc")."""
import pytest

from bot.i18n import messages
from bot.catalog.documents import parse_document
from bot.rulings.command import ruling
from tests.helpers import SEEDS


def _texts(name: str, lang: str) -> list[str]:
    return [r.text for r in parse_document(SEEDS / name).rulings if r.lang == lang]


@pytest.fixture(scope="module")
def services(tmp_path_factory):
    """The bundled data, plus: Defossilize's English rulings (those its Italian document renders)
    in a document that dates none of them and names no source, and three of them machine-translated
    into French in a dated document; and Glowcap Lantern's rulings in
    French (the French article's) in a document that dates them and names WotC as their source,
    where Glowcap Lantern's English document names none."""
    from bot.catalog.bundled import bundled_files
    from bot.catalog.importer import import_files
    from bot.config import Config
    from bot.services import Services
    folder = tmp_path_factory.mktemp("labels")
    undated = folder / "defossilize.en.txt"
    undated.write_text("Defossilize\n\n" + "\n\n".join(f"* {text}" for text in _texts(
        "nicanzil-current-conductor.en.txt", "en")) + "\n", encoding="utf-8")
    machine = folder / "defossilize.fr.txt"
    machine.write_text("La traduction FR ci-dessous est générée automatiquement (IA) — l'original anglais reste la"
                       " source de vérité.\n\nDefossilize\n\n" + "\n\n".join(
                           f"10/11/2023\n{text}" for text in _texts("explore-article.fr.txt", "fr")) + "\n",
                       encoding="utf-8")
    sourced = folder / "lanterne-a-calotte-luisante.fr.txt"
    sourced.write_text("Lanterne à calotte luisante\n\n" + "\n\n".join(
        f"10 novembre 2023 · source : wotc\n{text}" for text in _texts("explore-article.fr.txt", "fr")) + "\n",
        encoding="utf-8")
    catalog = folder / "catalog.sqlite3"
    import_files(catalog, [*bundled_files(), undated, machine, sourced])
    services = Services(Config.from_env({"WAYFINDER_CATALOG": str(catalog),
                                         "WAYFINDER_SETTINGS_DB": str(folder / "settings.sqlite3")}))
    yield services
    services.close()


def _headings(reply) -> list[str]:
    return [field.name for page in reply.pages for field in page.fields if field.name != "…"]


def _translations(reply, lang: str, count: int, own: tuple, original_file: str, originals: tuple) -> None:
    """``count`` rulings in ``lang`` under their ``own`` (date, source), each with its English
    original from ``original_file`` under the original's (date, source)."""
    translated = [r for r in reply.data["rulings"] if r["lang"] == lang]
    assert len(translated) == count
    for entry in translated:
        assert (entry["published_at"], entry["source"]) == own
        original = entry["original"]
        assert [s["file"] for s in original["sources"]] == [original_file]
        assert original["other_card"] is None
        assert (original["published_at"], original["source"]) == originals


def test_an_undated_original_is_not_given_its_translations_date(services):
    reply = ruling(services, "Defossilize", "it", show_originals=True)
    msg = messages("it")
    _translations(reply, "it", 6, ("2023-11-10", "unknown"), "defossilize.en.txt", (None, "unknown"))
    headings = _headings(reply)
    own = f"{msg.date('2023-11-10')} · {msg._('unknown source')}"
    assert headings.count(own) == 6
    assert headings.count(f"{msg._('English original')} · {msg._('undated')} · {msg._('unknown source')}") == 6
    assert len(reply.data["rulings"]) == 9   # and the three not translated, under their own label too
    assert headings.count(f"{msg._('undated')} · {msg._('unknown source')}") == 3


def test_an_original_of_unknown_source_is_not_given_its_translations_source(services):
    reply = ruling(services, "Glowcap Lantern", "fr", show_originals=True)
    msg = messages("fr")
    _translations(reply, "fr", 3, ("2023-11-10", "wotc"), "glowcap-lantern.en.txt", ("2023-11-10", "unknown"))
    headings = _headings(reply)
    date = msg.date("2023-11-10")
    assert headings.count(f"{date} · {msg._('Source: {source}', source='WotC')}") == 3
    assert headings.count(f"{msg._('English original')} · {date} · {msg._('unknown source')}") == 3
    english = ruling(services, "Glowcap Lantern", "en").data["rulings"]
    assert len(english) == 9 and {r["source"] for r in english} == {"unknown"}


def test_a_hidden_machine_translation_gives_way_to_its_original_under_the_originals_own_label(services):
    msg = messages("fr")
    shown = ruling(services, "Defossilize", "fr").data["rulings"]
    assert [(r["status"], r["published_at"]) for r in shown if r["lang"] == "fr"] == [("machine", "2023-11-10")] * 3
    reply = ruling(services, "Defossilize", "fr", machine="hide")
    rulings = reply.data["rulings"]
    assert len(rulings) == 9 and all(r["lang"] == "en" for r in rulings)
    assert [r["shown"] for r in rulings].count("machine-hidden") == 3
    assert all(r["published_at"] is None and r["source"] == "unknown" for r in rulings)
    assert set(_headings(reply)) == {f"{msg._('undated')} · {msg._('unknown source')}"}


@pytest.mark.parametrize("lang", ["en", "es", "fr", "de", "it", "pt", "ja", "ko", "ru", "zhs", "zht"])
def test_what_is_unknown_is_said_in_the_readers_language(services, lang):
    """Whatever the reader's language, an English original of no known date or source says so in it:
    beside the Italian or the French translation, or shown itself."""
    msg = messages(lang)
    reply = ruling(services, "Defossilize", lang, show_originals=True)
    unknown = f"{msg._('undated')} · {msg._('unknown source')}"
    assert any(h.endswith(unknown) for h in _headings(reply)), lang
    if lang != "en":
        assert msg._("undated") != messages("en")._("undated") and msg._("unknown source") != "unknown source"
