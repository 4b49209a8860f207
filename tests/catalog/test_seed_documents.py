"""Every ruling of the seed documents: its card, language, status, wording and English original."""
import pytest

from bot.catalog.dates import parse_date_line
from bot.catalog.documents import parse_document
from bot.rulings.select import rulings_for
from tests.helpers import SEEDS

# English originals, by the way they begin
LEFT = "If a resolving spell or ability instructs a specific creature"
HOW = "If an ability instructs a creature to explore"
EMPTY = "If no card is revealed"
NONCREATURE = "In some unusual cases"
NOBODY = "Once an ability that causes a creature to explore"
TWICE = "Some spells or abilities might cause a creature to explore multiple times"


def _rows(catalog, english_name):
    card = catalog.card_by_english_name(english_name)
    assert card is not None, english_name
    return card, [r for r in catalog.rulings(card.oracle_id)]


def _original(catalog, ruling):
    assert ruling.original_id, f"no English original linked to: {ruling.text[:60]}"
    return catalog.rulings_by_id([ruling.original_id])[ruling.original_id].text


@pytest.mark.parametrize("line, expected", [
    ("10 novembre 2023 · source : wotc", ("2023-11-10", "wotc")),
    ("10/11/2023", ("2023-11-10", None)),
    ("19/01/2018", ("2018-01-19", None)),
    ("2018-01-19", ("2018-01-19", None)),
    ("10 de noviembre de 2023", ("2023-11-10", None)),
    ("10. November 2023", ("2023-11-10", None)),
    ("2023年11月10日", ("2023-11-10", None)),
    ("10 ноября 2023 г.", ("2023-11-10", None)),
    ("November 10, 2023", ("2023-11-10", None)),
])
def test_date_lines_in_local_formats(line, expected):
    assert parse_date_line(line) == expected


def test_a_sentence_is_not_a_date_line():
    assert parse_date_line("Defossilizzare") is None
    assert parse_date_line("If no card is revealed, most likely because that player's library is empty.") is None


def test_seed_000_names_its_card_only_inside_the_rulings(bundled_catalog):
    card, rulings = _rows(bundled_catalog, "Nicanzil, Current Conductor")
    assert len(rulings) == 9
    assert all(r.lang == "en" and r.status == "original" for r in rulings)
    assert all(r.published_at == "2023-11-10" and r.source == "wotc" for r in rulings)
    texts = [r.text for r in rulings]
    assert any(t.startswith("Nicanzil's first ability won't resolve") for t in texts)
    doc = parse_document(SEEDS / "nicanzil-current-conductor.en.txt")
    assert doc.title is None
    assert "IA" in doc.notice and doc.notice_lang == "fr"


def test_seed_001_italian_rulings_with_an_english_sentence_flagged(bundled_catalog):
    card, rulings = _rows(bundled_catalog, "Defossilize")
    assert len(rulings) == 6
    assert all(r.lang == "it" and r.published_at == "2023-11-10" for r in rulings)
    by_start = {r.text[:30]: r for r in rulings}
    partial = [r for r in rulings if r.status == "partial"]
    assert len(partial) == 1 and partial[0].text.startswith("In alcuni casi insoliti")
    assert partial[0].mixed_langs == ("en",)
    assert all(r.status == "translation" for r in rulings if r is not partial[0])
    expected = {
        "Se una magia o abilità in riso": LEFT,
        "Se un'abilità richiede a una c": HOW,
        "Se non viene rivelata alcuna c": EMPTY,
        "In alcuni casi insoliti, i per": NONCREATURE,
        "Una volta che un'abilità che f": NOBODY,
        "Alcune magie o abilità potrebb": TWICE,
    }
    assert set(by_start) == set(expected)
    for start, original in expected.items():
        assert _original(bundled_catalog, by_start[start]).startswith(original)


def test_seed_002_portuguese_duplicate_folds_into_one_with_both_wordings(bundled_catalog):
    card, rulings = _rows(bundled_catalog, "Queen's Agent")
    assert len(rulings) == 6  # seven paragraphs, one of them stated twice
    assert all(r.lang == "pt" and r.published_at == "2018-01-19" for r in rulings)
    folded = [r for r in rulings if r.wordings]
    assert len(folded) == 1
    assert folded[0].text.startswith("Se uma mágica ou habilidade em resolução instrui")
    assert folded[0].wordings[0].startswith("Se uma mágica ou habilidade em resolução instruir")
    assert [r.status for r in rulings].count("partial") == 1


def test_seed_003_french_title_over_english_rulings(bundled_catalog):
    card, rulings = _rows(bundled_catalog, "Glowcap Lantern")
    assert len(rulings) == 9
    assert all(r.lang == "en" and r.status == "original" for r in rulings)
    assert parse_document(SEEDS / "glowcap-lantern.en.txt").title == "Lanterne à calotte luisante"


def test_seed_004_article_gives_tishanas_wayfinder_three_french_rulings_and_rule_701_38(bundled_catalog):
    card, rulings = _rows(bundled_catalog, "Tishana's Wayfinder")
    assert len(rulings) == 3
    assert all(r.lang == "fr" and r.status == "translation" and r.published_at is None for r in rulings)
    expected = {"Une fois": NOBODY, "Si aucune": EMPTY, "Si un sort": LEFT}
    for r in rulings:
        start = next(s for s in expected if r.text.startswith(s))
        assert _original(bundled_catalog, r).startswith(expected[start])
    doc = parse_document(SEEDS / "explore-article.fr.txt")
    assert [n for n, _ in doc.rules] == ["701.38", "701.38a", "701.38b", "701.38c"]
    assert doc.rules_lang == "fr"


def test_every_seed_ruling_has_the_language_of_its_own_text():
    expected = {"nicanzil-current-conductor.en.txt": {"en"}, "defossilize.it.txt": {"it"},
                "queens-agent.pt.txt": {"pt"}, "glowcap-lantern.en.txt": {"en"}, "explore-article.fr.txt": {"fr"}}
    for name, langs in expected.items():
        doc = parse_document(SEEDS / name)
        assert {r.lang for r in doc.rulings} == langs, name


def test_reader_in_italian_gets_italian_rulings_with_english_originals(bundled_catalog):
    card = bundled_catalog.card_by_english_name("Defossilize")
    report = rulings_for(bundled_catalog, card.oracle_id, "it")
    assert report.display_name == "Defossilizzare"
    assert not report.no_translation
    assert all(e.lang == "it" and e.english_original for e in report.entries)
    assert {e.source for e in report.entries} == {"wotc"}


def test_reader_in_french_of_glowcap_lantern_gets_english_with_a_note(bundled_catalog):
    card = bundled_catalog.card_by_english_name("Glowcap Lantern")
    report = rulings_for(bundled_catalog, card.oracle_id, "fr")
    assert report.no_translation
    assert len(report.entries) == 9 and all(e.lang == "en" for e in report.entries)


def test_reader_in_english_of_defossilize_gets_the_english_originals(bundled_catalog):
    card = bundled_catalog.card_by_english_name("Defossilize")
    report = rulings_for(bundled_catalog, card.oracle_id, "en")
    assert len(report.entries) == 6 and all(e.lang == "en" for e in report.entries)


def test_search_keeps_rulings_that_mention_a_phrase_in_either_language(bundled_catalog):
    card = bundled_catalog.card_by_english_name("Defossilize")
    report = rulings_for(bundled_catalog, card.oracle_id, "it", search="left the battlefield")
    assert len(report.entries) == 1 and report.entries[0].text.startswith("Se una magia")
    card = bundled_catalog.card_by_english_name("Glowcap Lantern")
    report = rulings_for(bundled_catalog, card.oracle_id, "en", search="empty library")
    assert [e.text[:22] for e in report.entries] == ["If no card is revealed"]
    assert rulings_for(bundled_catalog, card.oracle_id, "en", search="zzzz qqqq").entries == ()


def test_a_machine_translation_with_an_english_sentence_left_in_stays_a_machine_translation():
    """Its status decides the "machine translation" note and whether a server hiding machine
    translations shows the English original instead: an English sentence left in changes neither."""
    from bot.catalog.documents import ParsedDocument, ParsedRuling
    from bot.catalog.seeds import status_of
    notice = "La traduction FR ci-dessous est générée automatiquement (IA)."
    doc = ParsedDocument("doc.txt", None, notice, "fr", [], [], [], None)
    mixed = ParsedRuling("Une phrase. An English sentence.", None, None, "fr", mixed_langs=("en",))
    assert status_of(mixed, doc) == "machine"
    human = ParsedDocument("doc.txt", None, None, None, [], [], [], None)
    assert status_of(mixed, human) == "partial"
    assert status_of(ParsedRuling("Une phrase.", None, None, "fr"), human) == "translation"
