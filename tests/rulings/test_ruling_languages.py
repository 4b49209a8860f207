"""Every ruling shown carries its real language, for every reader language, on the bundled catalog."""
import pytest

from bot.catalog.langdetect import detect
from bot.i18n import messages
from bot.languages import LANGUAGES
from bot.rulings.command import ruling
from tests.rulings.languages import CARDS, check_field, header_language


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("card", CARDS)
def test_every_ruling_is_labelled_with_the_language_of_its_text(bundled_services, card, lang):
    reply = ruling(bundled_services, card, lang)
    assert not reply.error and reply.data["rulings"], reply.content
    for entry in reply.data["rulings"]:
        assert detect(entry["text"]) == entry["lang"], entry
        if entry["lang"] != lang and not (entry["lang"] == "en" and reply.data["no_translation"]):
            assert entry["label"], entry  # another language than the reader's is said so
    default = header_language(lang, reply.pages[0].description)
    shown = [check_field(lang, f.value, default) for page in reply.pages for f in page.fields
             if f.name != "…"]
    assert shown == [e["lang"] for e in reply.data["rulings"]]


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "pt"])
def test_queens_agent_is_portuguese_labelled_as_portuguese_never_english(bundled_services, lang):
    msg = messages(lang)
    reply = ruling(bundled_services, "Queen's Agent", lang, show_originals=True)
    assert {e["lang"] for e in reply.data["rulings"]} == {"pt"}
    assert {e["shown"] for e in reply.data["rulings"]} == {"no-english"}
    portuguese = msg.language_name("pt")
    label = msg._("{language} — no English text in the catalog", language=portuguese[:1].upper() + portuguese[1:])
    assert {e["label"] for e in reply.data["rulings"]} == {label}
    if lang != "en":
        assert label != messages("en")._("{language} — no English text in the catalog", language="Portuguese")
    text = "\n".join(p.as_text() for p in reply.pages)
    assert msg._("English original") not in text.replace(label, "")
    assert msg._("No {language} translation of these rulings exists yet: showing the English originals.",
                 language=msg.language_name(lang)) not in text
    assert reply.data["no_english"] is True
    assert portuguese in reply.pages[0].description


def test_portuguese_reader_asking_for_originals_is_told_there_are_none(bundled_services):
    reply = ruling(bundled_services, "Queen's Agent", "pt", show_originals=True)
    assert reply.data["translations"] is True   # the button is offered…
    text = "\n".join(p.as_text() for p in reply.pages)
    assert text.count("O catálogo não tem o original em inglês deste esclarecimento.") == 6  # …and says so
    assert "Original em inglês" not in text


def test_italian_reader_gets_the_english_original_of_every_defossilize_ruling(bundled_services):
    reply = ruling(bundled_services, "Defossilize", "it", show_originals=True)
    assert all(e["lang"] == "it" and detect(e["english_original"]) == "en" for e in reply.data["rulings"])
    text = "\n".join(p.as_text() for p in reply.pages)
    assert text.count("Originale inglese") == 6


def test_json_fields_of_a_partial_translation(bundled_services):
    reply = ruling(bundled_services, "Defossilize", "it")
    partial = [e for e in reply.data["rulings"] if e["status"] == "partial"]
    assert len(partial) == 1 and partial[0]["untranslated_sentences"] == ["en"]
    assert partial[0]["english_original"].startswith("In some unusual cases")
    for field in ("published_at", "source", "lang", "status", "text", "wordings", "untranslated_sentences",
                  "english_original"):
        assert field in partial[0]
