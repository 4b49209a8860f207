"""/rule by words, on the real text of the current Comprehensive Rules: what a judge looks for."""
import pytest

from bot.rules.command import answer_reply
from bot.rules.numbers import glossary_value, query_of
from bot.text import fold
from tests.test_cli import run


def _numbers(book, query):
    return [r.number for r in book.lookup(query).rules]


def test_empty_library_finds_the_rules_that_decide_drawing_from_it(rules_book):
    # 121.4 and 704.5b say "a library with no cards in it", never "empty library"
    first = _numbers(rules_book, "empty library")[:5]
    assert "121.4" in first and "704.5b" in first
    assert "library with no cards in it" in rules_book.current.rules["121.4"].text
    assert "library with no cards in it" in rules_book.current.rules["704.5b"].text


def test_empty_library_on_the_command_line_of_a_fresh_install(bundled_catalog_path):
    out = run(["rule", "empty library"], bundled_catalog_path)
    assert out.returncode == 0, out.stderr
    shown = [line.split()[1] for line in out.stdout.splitlines() if line.startswith("— ")][:5]
    assert "121.4" in shown and "704.5b" in shown, out.stdout


@pytest.mark.parametrize("query", ["empty library", "EMPTY-LIBRARY!", "Empty libraries", "  empty   library. "])
def test_case_plural_and_punctuation_do_not_matter(rules_book, query):
    assert _numbers(rules_book, query) == _numbers(rules_book, "empty library")


@pytest.mark.parametrize("query", ["explores", "Explores", "explore", "EXPLORE!", "explored", "Exploring"])
def test_explores_reaches_the_glossary_entry_and_rule_701_44(rules_book, query):
    answer = rules_book.lookup(query)
    assert answer.kind == "glossary" and [t for t, _ in answer.glossary] == ["Explore"]
    assert answer.rules[0].number == "701.44" and "701.44a" in [r.number for r in answer.rules]


def test_a_glossary_entry_brings_the_rules_its_definition_points_to(rules_book):
    answer = rules_book.lookup("last known information")
    assert [t for t, _ in answer.glossary] == ["Last Known Information"]
    assert "See rules 113.7a, 608.2b, 608.2h, and 800.4h." in answer.glossary[0][1]
    assert [r.number for r in answer.rules] == ["113.7a", "608.2b", "608.2h", "800.4h"]
    plural = rules_book.lookup("mana abilities")
    assert [t for t, _ in plural.glossary] == ["Mana Ability"] and plural.rules[0].number == "605"


def test_words_are_read_as_ask_reads_them_inflected_and_asked(rules_book):
    """/rule by words reads a query as /ask does (one stemmer, one list of question words): "draw a
    card" is rule 121 "Drawing a Card" (121.1: "A player draws a card by putting the top card of
    their library into their hand"), and a question finds what decides it (121.4, 704.5b: drawing
    from a library with no cards in it)."""
    drawing = rules_book.lookup("draw a card")
    assert [r.number for r in drawing.rules][:2] == ["121", "121.1"]
    assert _numbers(rules_book, "Draws a card.")[:2] == ["121", "121.1"]
    question = _numbers(rules_book, "what happens when my library is empty")
    assert "704.5b" in question and "121.4" in question


@pytest.mark.parametrize("query, term", [("phasing", "Phasing"), ("phase", "Phase"),
                                         ("blocking creatures", "Blocking Creature"),
                                         ("blocked creature", "Blocked Creature")])
def test_of_glossary_terms_with_the_same_stems_the_one_spelt_so_answers(rules_book, query, term):
    assert [t for t, _ in rules_book.lookup(query).glossary] == [term]


def test_the_phrase_as_typed_comes_before_the_words_apart(rules_book):
    import re
    phrase = re.compile(r"\bdraw(?:s|ing)? (?:a |an |the )?cards?\b")   # "draw a card", "draws cards", "drawing a card"…
    found = rules_book.word_index.search("draw a card", limit=60)
    texts = [rules_book.current.glossary[h.key[2:]] if h.key.startswith("g:") else rules_book.current.rules[h.key].text
             for h in found]
    has_phrase = [bool(phrase.search(fold(t))) for t in texts]
    assert has_phrase[0] and not all(has_phrase), has_phrase
    assert has_phrase == sorted(has_phrase, reverse=True)   # every phrase hit before any other


@pytest.mark.parametrize("query", ["zzqqxx flurble", "library zzqqxx", "qwertyuiop"])
def test_nonsense_finds_nothing_and_suggests_nothing(rules_book, query):
    answer = rules_book.lookup(query)
    assert answer.kind == "none"
    reply = answer_reply(rules_book, answer, "en")
    assert reply.error and reply.content == f"No rule or glossary entry matches “{query}”."
    assert reply.choices == []


def test_a_typo_still_finds_the_rule_and_a_misspelt_title_is_suggested(rules_book):
    assert _numbers(rules_book, "flyng")[0] == "702.9"
    assert [v for _, v in rules_book.suggestions("Tramplle")] == ["702.19", "g:Trample"]


@pytest.mark.parametrize("term", ["Card Pool", "APNAP Order", "Draft"])
def test_a_glossary_entry_that_points_to_no_rule_is_answered_with_its_definition(rules_book, term):
    """As typed, or chosen from /rule's autocomplete (its value names the entry)."""
    for query in (term, query_of(glossary_value(term))):
        answer = rules_book.lookup(query)
        assert answer.kind != "none" and [t for t, _ in answer.glossary][:1] == [term], query
