"""A translation can render an English original published for another card (the same ruling,
printed for several cards): that original is shown under its own date, source and documents, and
says which card it was published for — on the page and in `ruling --json`."""
import pytest

from bot.i18n import messages
from bot.rulings.command import ruling

NICANZIL = "Nicanzil, Current Conductor"
NICANZIL_DOC = "nicanzil-current-conductor.en.txt"


def _text(reply) -> str:
    return "\n".join(page.as_text() for page in reply.pages)


def _note(lang: str, card: str) -> str:
    return messages(lang)._("A ruling published for another card: {card}.", card=card)


def test_italian_defossilize_shows_each_english_original_as_nicanzils_ruling(bundled_services):
    """The Italian document of Defossilize translates rulings WotC published for Nicanzil."""
    reply = ruling(bundled_services, "Defossilize", "it", show_originals=True)
    rulings = reply.data["rulings"]
    assert len(rulings) == 6
    for entry in rulings:
        assert [s["file"] for s in entry["sources"]] == ["defossilize.it.txt"]
        original = entry["original"]
        assert [s["file"] for s in original["sources"]] == [NICANZIL_DOC]   # not the Italian document
        assert original["other_card"]["name"] == NICANZIL
        assert (original["published_at"], original["source"]) == ("2023-11-10", "wotc")
    fields = [f for page in reply.pages for f in page.fields if f.name.startswith("Originale inglese")]
    assert len(fields) == 6
    for field in fields:
        assert field.name == "Originale inglese · 10 novembre 2023 · Fonte: WotC"
        assert _note("it", NICANZIL) in field.value
    assert _text(reply).count(_note("it", NICANZIL)) == 6   # said of the originals, not the translations


def test_an_undated_translation_does_not_hide_the_date_of_its_original(bundled_services):
    """The French article (Tishana's Wayfinder) is undated; the originals it renders are not."""
    reply = ruling(bundled_services, "Tishana's Wayfinder", "fr", show_originals=True)
    msg = messages("fr")
    headings = [f.name for page in reply.pages for f in page.fields]
    translated = [h for h in headings if not h.startswith(msg._("English original"))]
    originals = [h for h in headings if h.startswith(msg._("English original"))]
    assert len(translated) == len(originals) == 3
    assert all(h.startswith(msg._("undated")) for h in translated)
    assert all(msg.date("2023-11-10") in h for h in originals)
    assert all(r["published_at"] is None and r["original"]["published_at"] == "2023-11-10"
               for r in reply.data["rulings"])


@pytest.mark.parametrize("card", ["Defossilize", "Tishana's Wayfinder"])
def test_an_english_reader_gets_nicanzils_rulings_with_their_own_documents_and_card(bundled_services, card):
    reply = ruling(bundled_services, card, "en")
    rulings = reply.data["rulings"]
    assert rulings and all(r["lang"] == "en" for r in rulings)
    for entry in rulings:
        assert [s["file"] for s in entry["sources"]] == [NICANZIL_DOC]
        assert entry["other_card"]["name"] == NICANZIL
        assert (entry["published_at"], entry["source"]) == ("2023-11-10", "wotc")
        assert entry["original"] is None
    assert _text(reply).count(_note("en", NICANZIL)) == len(rulings)


def test_nicanzils_own_rulings_name_no_other_card(bundled_services):
    reply = ruling(bundled_services, NICANZIL, "en")
    assert reply.data["rulings"] and all(r["other_card"] is None for r in reply.data["rulings"])
    assert _note("en", NICANZIL) not in _text(reply)


@pytest.fixture(scope="module")
def machine_services(tmp_path_factory):
    """The bundled data and a French machine translation for Jadelight Ranger, which has no
    English rulings: its ruling is linked to the original WotC published for Nicanzil."""
    from bot.catalog.bundled import bundled_files
    from bot.catalog.importer import import_files
    from bot.config import Config
    from bot.services import Services
    folder = tmp_path_factory.mktemp("machine")
    document = folder / "ranger-jadefeu.fr.txt"
    document.write_text(
        "La traduction FR ci-dessous est générée automatiquement (IA) — l'original anglais reste la"
        " source de vérité.\n\nRanger jadefeu\n\n10/11/2023\n\nSi aucune carte n'est révélée, très"
        " probablement parce que la bibliothèque de ce joueur est vide, la créature qui explore reçoit"
        " un marqueur +1/+1.\n", encoding="utf-8")
    catalog = folder / "catalog.sqlite3"
    import_files(catalog, [*bundled_files(), document])
    return Services(Config.from_env({"WAYFINDER_CATALOG": str(catalog),
                                     "WAYFINDER_SETTINGS_DB": str(folder / "settings.sqlite3")}))


def test_a_hidden_machine_translation_gives_the_original_under_its_own_documents(machine_services):
    shown = ruling(machine_services, "Ranger jadefeu", "fr").data["rulings"]
    assert [(r["lang"], r["status"]) for r in shown] == [("fr", "machine")]
    reply = ruling(machine_services, "Ranger jadefeu", "fr", machine="hide")
    [entry] = reply.data["rulings"]
    assert (entry["lang"], entry["shown"]) == ("en", "machine-hidden")
    assert [s["file"] for s in entry["sources"]] == [NICANZIL_DOC]
    assert entry["other_card"]["name"] == NICANZIL
    assert _note("fr", NICANZIL) in _text(reply)
