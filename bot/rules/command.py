"""/rule: the Comprehensive Rules by number, keyword or glossary term."""
from __future__ import annotations

from typing import TYPE_CHECKING

from bot.i18n import Messages, messages
from bot.pages import Field, Page, escape, pack, split_value
from bot.rules.numbers import MAX_QUERY, query_of
from bot.services import Services
from bot.reply import Choice, Reply

if TYPE_CHECKING:   # the book itself is loaded with the first /rule (Services.rules)
    from bot.rules.book import Answer, RulesBook

COLOR = 0x4169E1


def rule(services: Services, query: str, lang: str) -> Reply:
    return answer_reply(services.rules, services.rules.lookup(query_of(query), lang), lang)


def answer_reply(book: RulesBook, answer: Answer, lang: str) -> Reply:
    msg = messages(lang)
    notes = [msg._("In the {date} edition, rule {number} was “{title}”: it is now rule {current}.",
                   date=msg.date(r.edition), number=r.number, title=r.title, current=r.current)
             for r in answer.renumbered]
    if answer.truncated:
        notes.append(msg._("Your input was cut to {limit} characters.", limit=MAX_QUERY))
    problem = _problem(book, answer, msg, notes)
    if problem:
        return problem
    blocks = _blocks(answer, msg, notes)
    if answer.kind == "search" and answer.rules:
        notes.append(msg._("Rules that mention “{query}”", query=escape(answer.query)))
    first = answer.rules[0] if answer.rules else None
    title = (first.text.split("\n")[0] if first and first.title else
             (first.number if first else answer.glossary[0][0]))
    footer = msg._("Comprehensive Rules, effective {date}", date=msg.date(answer.edition))
    header = Page(title=title, description="\n".join(notes), footer=footer, color=COLOR)
    pages = pack(header, blocks, lambda page, pages: msg._("Page {page} of {pages}", page=page, pages=pages))
    return Reply(pages=pages, choices=_links(answer, msg), data=_data(answer))


def _problem(book: RulesBook, answer: Answer, msg: Messages, notes: list[str]) -> Reply | None:
    """The reply when there is nothing to show: no query, no rules in the catalog, no match."""
    if answer.kind == "empty":
        return Reply(content=msg._("Type a rule number, a keyword or a glossary term."), error=True)
    if answer.kind == "no-rules":
        return Reply(content=msg._(
            "The catalog holds no Comprehensive Rules: fetch them with “wayfinder data sync --rules-url URL” "
            "(the text file Wizards publishes at magic.wizards.com/en/rules) or import a copy with "
            "“wayfinder data import MagicCompRules-YYYYMMDD.txt”."), error=True)
    if answer.kind != "none":
        return None
    if answer.query[:1].isdigit():
        content = msg._("No rule numbered {number}.", number=escape(answer.query))
    else:
        content = msg._("No rule or glossary entry matches “{query}”.", query=escape(answer.query))
    return Reply(content="\n".join([content] + notes), error=True,
                 choices=[Choice(book.label(v), v) for _, v in book.suggestions(answer.query)])


def _blocks(answer: Answer, msg: Messages, notes: list[str]) -> list[list[Field]]:
    """The translated excerpt (its note goes into ``notes``), glossary entries, then the rules."""
    blocks: list[list[Field]] = []
    if answer.excerpt:
        ex = answer.excerpt
        note = (msg._("Translated excerpt ({language}) quoting rule {number} of the {date} edition; the current English text follows.",
                      language=msg.language_name(ex.lang), number=ex.quoted_number, date=msg.date(ex.edition))
                if ex.edition else
                msg._("Translated excerpt ({language}) quoting rule {number}; the current English text follows.",
                      language=msg.language_name(ex.lang), number=ex.quoted_number))
        notes.append(note)
        blocks.append([Field(r.number, piece) for r in ex.rules for piece in split_value(r.text)])
    for term, definition in answer.glossary:
        blocks.append([Field(f"{msg._('Glossary')} — {term}", piece) for piece in split_value(definition)])
    for r in answer.rules:
        text = r.text if answer.kind != "section" or r is answer.rules[0] else r.text.split("\n")[0]
        body = "\n".join([text, *r.examples]) if answer.kind != "section" else text
        blocks.append([Field(r.number, piece) for piece in split_value(body)])
    return blocks


def _links(answer: Answer, msg: Messages) -> list[Choice]:
    """Previous, next and parent rule, the rule a renumbered one is now, the rules it cites."""
    links = [Choice(f"{label} · {value}", value) for label, value in (
        (msg._("Previous"), answer.previous), (msg._("Next"), answer.next), (msg._("Parent"), answer.parent)) if value]
    links += [Choice(msg._("Rule {number}", number=r.current), r.current) for r in answer.renumbered]
    links += [Choice(msg._("Rule {number}", number=number), number) for number in answer.citations[:5]]
    seen, unique = set(), []
    for link in links:
        if link.value not in seen:
            seen.add(link.value)
            unique.append(link)
    return unique[:10]


def _data(answer: Answer) -> dict:
    """`rule --json`."""
    excerpt = answer.excerpt
    return {"kind": answer.kind, "edition": answer.edition, "rules": [r.number for r in answer.rules],
            "glossary": [t for t, _ in answer.glossary],
            "renumbered": [{"number": r.number, "edition": r.edition, "title": r.title, "current": r.current}
                           for r in answer.renumbered],
            "excerpt": ({"lang": excerpt.lang, "quoted": excerpt.quoted_number, "edition": excerpt.edition,
                         "current": excerpt.current} if excerpt else None),
            "citations": answer.citations, "previous": answer.previous, "next": answer.next,
            "parent": answer.parent,
            "text": {r.number: r.text for r in answer.rules}}
