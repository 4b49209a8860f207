"""/rule's core on the real text of the four Comprehensive Rules editions."""
from bot.rules.command import answer_reply
from bot.rules.diff import diff
from tests.helpers import SHARED_DATA


def _raw_line(number: str) -> str:
    text = (SHARED_DATA / "cr" / "MagicCompRules-20260116.txt").read_text(encoding="utf-8-sig")
    return next(line for line in text.splitlines() if line.startswith(number + " "))


def test_701_44a_is_returned_verbatim(rules_book):
    answer = rules_book.lookup("701.44a")
    assert answer.kind == "rule" and [r.number for r in answer.rules] == ["701.44a"]
    assert answer.rules[0].text == _raw_line("701.44a")
    assert answer.edition == "2026-01-16"
    assert answer.parent == "701.44" and answer.previous is None and answer.next == "701.44b"


def test_a_rule_comes_with_its_subrules_and_a_section_with_its_titles(rules_book):
    answer = rules_book.lookup("701.44")
    assert [r.number for r in answer.rules] == ["701.44", "701.44a", "701.44b", "701.44c", "701.44d"]
    section = rules_book.lookup("701")
    assert section.kind == "section"
    assert "701.44" in [r.number for r in section.rules]


def test_old_number_701_38_leads_to_701_44(rules_book):
    answer = rules_book.lookup("701.38")
    moved = [(r.edition, r.title, r.current) for r in answer.renumbered]
    assert ("2017-09-29", "Explore", "701.44") in moved
    reply = answer_reply(rules_book, answer, "en")
    assert "In the September 29, 2017 edition, rule 701.38 was “Explore”: it is now rule 701.44." in reply.pages[0].description
    assert "701.44" in [c.value for c in reply.choices]


def test_french_reader_sees_the_article_excerpt_with_todays_english_text(rules_book):
    answer = rules_book.lookup("701.38", "fr")
    assert answer.excerpt.edition == "2017-09-29" and answer.excerpt.current == "701.44"
    assert answer.rules[0].number == "701.44"
    reply = answer_reply(rules_book, answer, "fr")
    text = reply.pages[0].as_text()
    assert "Extrait traduit (français) citant la règle 701.38 de l'édition du 29 septembre 2017" in text
    assert "701.38a Certaines capacités demandent à un permanent d'explorer." in text
    assert _raw_line("701.44a") in "\n".join(p.as_text() for p in reply.pages)


def test_keyword_and_glossary(rules_book):
    answer = rules_book.lookup("explore")
    assert answer.kind == "glossary" and answer.glossary[0][0] == "Explore"
    assert "701.44" in [r.number for r in answer.rules]
    lki = rules_book.lookup("last known information")
    assert lki.glossary[0][0] == "Last Known Information" and lki.rules
    empty = rules_book.lookup("empty library")
    assert empty.rules, "a phrase finds the rules that mention it"
    assert rules_book.lookup("zzqqxx flurble").kind == "none"


def test_a_rule_found_by_its_glossary_term_comes_with_its_subrules_as_by_number(rules_book):
    # Stack: "See rule 405, “Stack.”"; Priority: "See rule 117, “Timing and Priority.”"; Explore: 701.44
    for query, number in (("the stack", "405"), ("Stack", "405"), ("priority", "117"), ("explore", "701.44")):
        answer = rules_book.lookup(query)
        assert answer.kind == "glossary", query
        by_number = [r.number for r in rules_book.lookup(number).rules]
        assert [r.number for r in answer.rules][:len(by_number)] == by_number, query
    stack = answer_reply(rules_book, rules_book.lookup("the stack"), "en")
    shown = "\n".join(p.as_text() for p in stack.pages)
    assert _raw_line("405.1.") in shown and _raw_line("405.6.") in shown


def test_citations_become_links(rules_book):
    answer = rules_book.lookup("702.9")
    assert "702.17" in answer.citations


def test_diff_of_the_two_newest_editions_lists_real_changes(rules_book):
    old, new = rules_book.edition("2025-11-14"), rules_book.edition("2026-01-16")
    result = diff(old, new)
    assert "701.68" in result.added and new.rules["701.68"].title == "Blight"
    assert "702.124p" in result.removed
    assert "702.124a" in result.changed
    assert not result.renumbered


def test_diff_2017_to_2026_reports_701_38_as_renumbered_to_701_44(rules_book):
    result = diff(rules_book.edition("2017-09-29"), rules_book.edition("2026-01-16"))
    assert ("701.38", "701.44") in result.renumbered
    assert ("701.38a", "701.44a") in result.renumbered
    assert "701.44" not in result.added


def test_autocomplete_numbers_titles_and_terms(rules_book):
    numbers = [v for _, v in rules_book.autocomplete("701.4")]
    assert numbers[0] == "701.4" and "701.44" in numbers and len(numbers) <= 25
    words = rules_book.autocomplete("expl")
    assert ("701.44 Explore", "701.44") in words and ("Explore", "g:Explore") in words
    assert all(len(label) <= 100 and len(value) <= 100 for label, value in rules_book.autocomplete("a"))
    assert ("701.44 Explore", "701.44") in rules_book.autocomplete("701.38")


def test_bad_queries_are_clear(rules_book):
    assert answer_reply(rules_book, rules_book.lookup(""), "de").content == \
        "Gib eine Regelnummer, ein Schlüsselwort oder einen Glossarbegriff ein."
    reply = answer_reply(rules_book, rules_book.lookup("999.99"), "es")
    assert reply.error and reply.content.startswith("No hay ninguna regla con el número 999.99.")
    long = rules_book.lookup("explore " * 50)
    assert long.truncated
