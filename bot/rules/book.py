"""The Comprehensive Rules in memory: look-up by number, keyword or glossary term, old numbers,
translated excerpts, and a fast autocomplete.

Editions are read from the catalog; the newest English edition is the current one. A number
quoted from an older edition is traced by the rule's title across editions (701.38 "Explore" in
2017 is 701.44 today), never by a table of numbers.
"""
from __future__ import annotations

import json
import os
import re
from bisect import bisect_left
from dataclasses import dataclass, field
import threading
from functools import cached_property


from bot.pages import CHOICE_LIMIT, CHOICES_LIMIT
from bot.rules.numbers import GLOSSARY_PREFIX, MAX_QUERY, glossary_value, is_subrule, query_of, split_letter
from bot.rules.search import WordIndex, words
from bot.text import clip, clip_query, fold

NUMBER = re.compile(r"^\s*(\d{1,3})(?:\.(\d+)([a-z])?)?\.?\s*$", re.IGNORECASE)
CITATION = re.compile(r"\brules?\s+((?:\d{3}(?:\.\d+[a-z]?)?)(?:(?:,\s*|,?\s+and\s+|,?\s+or\s+|–|-)\d{3}(?:\.\d+[a-z]?)?)*)")
CITED_NUMBER = re.compile(r"\d{3}(?:\.\d+[a-z]?)?")
SEARCH_RESULTS = 5        # rules listed for a search by words
GLOSSARY_RESULTS = 2      # glossary entries listed beside them
ARTICLES = frozenset({"the", "a", "an"})   # "the stack": the glossary's Stack
SUGGESTION_SCORE = 80     # how close a title or term must be spelled to be suggested


@dataclass(frozen=True)
class Rule:
    number: str
    parent: str | None
    title: str | None
    text: str
    examples: tuple[str, ...]
    position: int

    @property
    def body(self) -> str:
        """The text without its number."""
        return self.text.split(" ", 1)[1] if " " in self.text else ""


@dataclass
class Edition:
    id: int
    effective_date: str
    lang: str
    rules: dict[str, Rule]
    glossary: dict[str, str]
    order: list[str] = field(default_factory=list)
    by_title: dict[str, str] = field(default_factory=dict)   # folded title → number
    children: dict[str, list[str]] = field(default_factory=dict)

    def index(self) -> "Edition":
        self.order = sorted(self.rules, key=lambda n: self.rules[n].position)
        for number in self.order:
            rule = self.rules[number]
            if rule.title:
                self.by_title.setdefault(fold(rule.title), number)
            if rule.parent:
                self.children.setdefault(rule.parent, []).append(number)
        return self


@dataclass(frozen=True)
class Renumbering:
    number: str          # as quoted
    edition: str         # the edition where it meant ``title``
    title: str
    current: str         # its number today


@dataclass(frozen=True)
class Excerpt:
    """A translated quotation of the rules (e.g. the French 701.38 of an article)."""
    lang: str
    quoted_number: str
    edition: str | None      # the English edition it was quoted from, when recognised
    current: str | None      # the number of the same rule today
    rules: tuple[Rule, ...]
    source: str


@dataclass
class Answer:
    kind: str                         # rule | section | glossary | search | none | empty | no-rules
    query: str
    edition: str | None = None
    rules: list[Rule] = field(default_factory=list)
    glossary: list[tuple[str, str]] = field(default_factory=list)
    renumbered: list[Renumbering] = field(default_factory=list)
    excerpt: Excerpt | None = None
    citations: list[str] = field(default_factory=list)
    previous: str | None = None
    next: str | None = None
    parent: str | None = None
    truncated: bool = False


def load_editions(catalog) -> tuple[list[Edition], list[tuple[str, str, list[Rule]]]]:
    """English editions (oldest first) and translated excerpts (lang, source, rules)."""
    editions: list[Edition] = []
    excerpts = []
    for edition_id, date, lang, path in catalog.query(
            "SELECT e.id, e.effective_date, e.lang, d.path FROM cr_editions e"
            " JOIN documents d ON d.id = e.document_id ORDER BY e.effective_date"):
        if date.startswith("excerpt:"):
            rules = _load_rules(catalog, edition_id)
            excerpts.append((lang, path, sorted(rules.values(), key=lambda r: r.position)))
            continue
        editions.append(_load_edition(catalog, edition_id, date, lang))
    return editions, excerpts


def load_current_edition(catalog) -> Edition | None:
    """The newest English edition alone."""
    rows = catalog.query("SELECT id, effective_date, lang FROM cr_editions"
                         " WHERE lang = 'en' AND effective_date NOT LIKE 'excerpt:%'"
                         " ORDER BY effective_date DESC LIMIT 1")
    return _load_edition(catalog, *rows[0]) if rows else None


def _load_rules(catalog, edition_id: int) -> dict[str, Rule]:
    return {number: Rule(number, parent, title, text, tuple(json.loads(examples)) if examples else (), position)
            for number, parent, title, text, examples, position in catalog.query(
                "SELECT number, parent, title, text, examples, position FROM cr_rules WHERE edition_id = ?",
                (edition_id,))}


def _load_edition(catalog, edition_id: int, date: str, lang: str) -> Edition:
    glossary = dict(catalog.query("SELECT term, definition FROM cr_glossary WHERE edition_id = ?", (edition_id,)))
    return Edition(edition_id, date, lang, _load_rules(catalog, edition_id), glossary).index()


_LAZY = threading.RLock()


def _spelt_closest(folded: str, found: list[tuple[str, str]] | None) -> str | None:
    """Of the (spelling, value) pairs a query's stems found, the value of the spelling that starts
    most like the query; the first on a tie."""
    if not found:
        return None
    return max(found, key=lambda pair: len(os.path.commonprefix((pair[0], folded))))[1]


class RulesBook:
    def __init__(self, editions: list[Edition], excerpts: list[tuple[str, str, list[Rule]]] = ()):
        self.editions = [e for e in editions if e.lang == "en"]
        self.current = self.editions[-1] if self.editions else None
        self.excerpts = [self._place_excerpt(lang, source, rules) for lang, source, rules in excerpts]

    _SEARCH = frozenset({"_numbers", "_labels", "_titles", "_glossary_words", "_title_words", "_title_keys"})

    def __getattr__(self, name):
        # built on first use (one thread builds, the others wait for it): start-up and one-shot
        # commands need only part of the book
        if name not in RulesBook._SEARCH and name not in ("current", "editions", "excerpts"):
            raise AttributeError(name)
        with _LAZY:
            if name in self.__dict__:
                return self.__dict__[name]
            if name in RulesBook._SEARCH:
                self._build_search()
            elif "_catalog" not in self.__dict__:
                raise AttributeError(name)
            elif name == "current":
                self.current = load_current_edition(self._catalog)
            else:
                self._load_older()
            return self.__dict__[name]

    def read_all(self) -> "RulesBook":
        """Read every part now."""
        self.editions, self._numbers, self.word_index  # noqa: B018
        return self

    @classmethod
    def from_catalog(cls, catalog) -> "RulesBook":
        """Every edition and excerpt of the catalog, read now."""
        return cls.lazy(catalog).read_all()

    @classmethod
    def lazy(cls, catalog) -> "RulesBook":
        """Each part read when first asked for — the current edition, the older ones and the
        excerpts, the search. The catalog must stay open as long as the book is used."""
        book = cls.__new__(cls)
        book._catalog = catalog
        return book

    def _load_older(self) -> None:
        editions, excerpts = load_editions(self._catalog)
        editions = [e for e in editions if e.lang == "en"]
        self.editions = editions[:-1] + [self.current] if self.current else editions
        self.excerpts = [self._place_excerpt(lang, source, rules) for lang, source, rules in excerpts]

    @property
    def empty(self) -> bool:
        return self.current is None

    def edition(self, date: str) -> Edition | None:
        return next((e for e in self.editions if e.effective_date == date), None)

    # -- old numbers and translated excerpts --------------------------------------------------

    def current_number(self, number: str, edition: Edition) -> str | None:
        """Where the rule ``number`` of ``edition`` stands in the current edition (by title)."""
        if self.current is None:
            return None
        head, letter = split_letter(number)
        rule = edition.rules.get(head)
        if rule is None or not rule.title:
            return None
        now = self.current.by_title.get(fold(rule.title))
        if now is None:
            return None
        return now + letter if (now + letter) in self.current.rules else now

    def renumberings(self, number: str) -> list[Renumbering]:
        """Older editions in which ``number`` named another rule than it does today."""
        out = []
        head, _ = split_letter(number)
        today = self.current.rules.get(head) if self.current else None
        seen = set()
        for edition in self.editions[:-1]:
            old = edition.rules.get(head)
            if old is None or not old.title or (today and today.title and fold(today.title) == fold(old.title)):
                continue
            now = self.current_number(number, edition)
            if now and now != number and (old.title, now) not in seen:
                seen.add((old.title, now))
                out.append(Renumbering(number, edition.effective_date, old.title, now))
        return out

    def _place_excerpt(self, lang: str, source: str, rules: list[Rule]) -> Excerpt:
        """Find the English edition an excerpt was quoted from: the same rule number with the
        same subrules."""
        top = next((r for r in rules if not is_subrule(r.number)), rules[0])
        letters = {r.number[len(top.number):] for r in rules if r.parent == top.number}
        for edition in self.editions:
            rule = edition.rules.get(top.number)
            if rule and {c[len(top.number):] for c in edition.children.get(top.number, [])} == letters:
                return Excerpt(lang, top.number, edition.effective_date,
                               self.current_number(top.number, edition), tuple(rules), source)
        return Excerpt(lang, top.number, None, None, tuple(rules), source)

    def excerpt_for(self, number: str, lang: str) -> Excerpt | None:
        head, _ = split_letter(number)
        for excerpt in self.excerpts:
            if excerpt.lang == lang and head in (excerpt.quoted_number, excerpt.current):
                return excerpt
        return None

    # -- look-up ------------------------------------------------------------------------------

    def lookup(self, query: str, lang: str = "en") -> Answer:
        query, truncated = clip_query((query or "").strip(), MAX_QUERY)
        if not query:
            return Answer("empty", query)
        if self.current is None:
            return Answer("no-rules", query)
        edition = self.current
        match = NUMBER.match(query)
        if match:
            answer = self._by_number(query, match, lang)
        else:
            answer = self._by_words(query)
        answer.truncated = truncated
        answer.edition = edition.effective_date
        return answer

    def _by_number(self, query: str, match, lang: str) -> Answer:
        edition = self.current
        section, rule, letter = match.group(1), match.group(2), (match.group(3) or "").lower()
        number = section if rule is None else f"{section}.{rule}{letter}"
        answer = Answer("rule", query)
        answer.renumbered = self.renumberings(number)
        answer.excerpt = self.excerpt_for(number, lang) if lang != "en" else None
        if answer.excerpt and answer.excerpt.current and split_letter(number)[0] == answer.excerpt.quoted_number:
            # the reader quotes the translated text: show today's English text of the same rule
            number = answer.excerpt.current + split_letter(number)[1]
        if number not in edition.rules:
            if answer.renumbered:
                number = answer.renumbered[0].current
            else:
                answer.kind = "none"
                answer.previous = self._previous_in_order(number)
                return answer
        rule_obj = edition.rules[number]
        if len(number) <= 3:  # a section ("7") or a rule ("701"): titles of what it holds
            answer.kind = "section"
            answer.rules = [rule_obj] + [edition.rules[n] for n in edition.children.get(number, [])]
        elif letter:
            answer.rules = [rule_obj]
        else:
            answer.rules = [rule_obj] + [edition.rules[n] for n in edition.children.get(number, [])]
        answer.parent = rule_obj.parent
        answer.previous = self._sibling(number, -1)
        answer.next = self._sibling(number, +1)
        answer.citations = self.citations(answer.rules)
        return answer

    def _sibling(self, number: str, step: int) -> str | None:
        edition = self.current
        rule = edition.rules[number]
        siblings = edition.children.get(rule.parent, []) if rule.parent else \
            [n for n in edition.order if edition.rules[n].parent is None]
        i = siblings.index(number) + step
        return siblings[i] if 0 <= i < len(siblings) else None

    def _previous_in_order(self, number: str) -> str | None:
        """The rule just before where ``number`` would stand (for a number that does not exist)."""
        order = self.current.order
        i = bisect_left(order, number)
        return order[i - 1] if 0 < i <= len(order) else None

    def citations(self, rules: list[Rule]) -> list[str]:
        """The rules cited in the texts ("see rule 701.44c"), in order, existing ones only."""
        own = {r.number for r in rules}
        out: list[str] = []
        for rule in rules:
            for text in (rule.text, *rule.examples):
                for group in CITATION.findall(text):
                    for number in CITED_NUMBER.findall(group):
                        if number not in own and number not in out and number in self.current.rules:
                            out.append(number)
        return out

    def _by_words(self, query: str) -> Answer:
        """A glossary term or a rule's title (any case, punctuation or inflection: "mana
        abilities", "draw a card" for 121 "Drawing a Card"; of those with the same stems, the one
        spelt most like the query: "phasing" is Phasing, not Phase), else the rules and glossary
        entries holding every word of the query, closest first; the rules a glossary entry points
        to ("See rule 701.44") come with it."""
        edition = self.current
        answer = Answer("search", query)
        term = self._named(self._glossary_words, query)
        if term:
            answer.kind = "glossary"
            answer.glossary = [(term, edition.glossary[term])]
        titled = self._named(self._title_words, query)
        if titled:
            answer.rules.append(edition.rules[titled])
        if not answer.rules and not answer.glossary:
            hits = self.word_index.search(query, limit=SEARCH_RESULTS * 3)
            answer.rules = [edition.rules[h.key] for h in hits if not h.key.startswith(GLOSSARY_PREFIX)]
            answer.rules = answer.rules[:SEARCH_RESULTS]
            answer.glossary = [(query_of(h.key), edition.glossary[query_of(h.key)]) for h in hits
                               if h.key.startswith(GLOSSARY_PREFIX)][:GLOSSARY_RESULTS]
        for _, definition in answer.glossary:
            answer.rules += [edition.rules[n] for n in self.pointed(definition)
                             if edition.rules[n] not in answer.rules]
        if not answer.rules and not answer.glossary:
            answer.kind = "none"
        elif (term or titled) and answer.rules and not is_subrule(answer.rules[0].number):
            # the rule named so comes with its subrules, as a look-up by number gives it
            head = answer.rules[0]
            subrules = [edition.rules[n] for n in edition.children.get(head.number, [])]
            answer.rules = [head, *[r for r in subrules if r not in answer.rules],
                            *[r for r in answer.rules[1:] if r not in subrules]]
        answer.citations = self.citations(answer.rules)
        return answer

    @staticmethod
    def _named(table: dict[str, list[tuple[str, str]]], query: str) -> str | None:
        """The term or rule ``table`` names by the query's words, an article before them aside
        ("the stack" is Stack, "The Monarch" is found with or without its article)."""
        key, folded = " ".join(words(query)), fold(query)
        found = table.get(key)
        first, _, rest = key.partition(" ")
        if not found and rest and first in ARTICLES:
            found, folded = table.get(rest), folded.partition(" ")[2]
        return _spelt_closest(folded, found)

    def pointed(self, definition: str) -> list[str]:
        """The rules a glossary definition points to, in order."""
        return list(dict.fromkeys(n for n in CITED_NUMBER.findall(" ".join(CITATION.findall(definition)))
                                  if n in self.current.rules))

    @cached_property
    def word_index(self) -> WordIndex:
        """Every rule's text and glossary entry by its words (built on the first search)."""
        edition = self.current
        if edition is None:
            return WordIndex({}, {})
        documents = {number: edition.rules[number].text for number in edition.order}
        titles = {number: edition.rules[number].title for number in edition.order if edition.rules[number].title}
        for term, definition in edition.glossary.items():
            documents[glossary_value(term)] = f"{term}\n{definition}"
            titles[glossary_value(term)] = term
        return WordIndex(documents, titles)

    def suggestions(self, query: str, limit: int = 5) -> list[tuple[str, str]]:
        """For a query that found nothing: rules numbered close to it, or titles and terms spelled
        almost so — never merely the least unlike."""
        from rapidfuzz import fuzz, process   # loaded when first needed: one-shot commands skip it
        if self.current is None or not query:
            return []
        if query[0].isdigit():
            return self.autocomplete(query, limit)
        found = process.extract(fold(query), self._title_keys, scorer=fuzz.ratio, limit=limit,
                                score_cutoff=SUGGESTION_SCORE)
        values = list(dict.fromkeys(self._titles[i][1] for _, _, i in found))
        return [(self.label(v), v) for v in values]

    # -- autocomplete -------------------------------------------------------------------------

    def _build_search(self) -> None:
        self._numbers: list[str] = []
        self._labels: dict[str, str] = {}
        self._titles: list[tuple[str, str]] = []   # (folded title or term, value)
        # a term's or a rule title's words (stems) → (its spelling folded, the term or number), in order
        self._glossary_words: dict[str, list[tuple[str, str]]] = {}
        self._title_words: dict[str, list[tuple[str, str]]] = {}
        if self.current is None:
            return
        edition = self.current
        for number in edition.order:
            rule = edition.rules[number]
            self._labels[number] = clip(f"{number} {rule.title}" if rule.title else rule.text, CHOICE_LIMIT)
            if rule.title:
                self._titles.append((fold(rule.title), number))
                self._title_words.setdefault(" ".join(words(rule.title)), []).append((fold(rule.title), number))
        self._numbers = sorted(edition.rules)
        for term in edition.glossary:
            key = fold(term)
            self._glossary_words.setdefault(" ".join(words(term)), []).append((key, term))
            self._titles.append((key, glossary_value(term)))
        self._title_keys = [t for t, _ in self._titles]

    def label(self, value: str) -> str:
        if value.startswith(GLOSSARY_PREFIX):
            return clip(query_of(value), CHOICE_LIMIT)
        return self._labels.get(value, value)

    def autocomplete(self, current: str, limit: int = CHOICES_LIMIT) -> list[tuple[str, str]]:
        """(label, value) choices: numbers by prefix, titles and glossary terms by words."""
        from rapidfuzz import fuzz, process   # loaded when first needed: one-shot commands skip it
        if self.current is None:
            return []
        current = (current or "").strip()[:MAX_QUERY]
        if not current:
            return [(self.label(n), n) for n in [n for n in self.current.order if len(n) == 1][:limit]]
        if current[0].isdigit():
            start = bisect_left(self._numbers, current)
            values = []
            for number in self._numbers[start:start + 400]:
                if not number.startswith(current):
                    break
                values.append(number)
            values.sort(key=lambda n: (len(n), self.current.rules[n].position))
            values += [r.current for r in self.renumberings(current.rstrip(".")) if r.current not in values]
            return [(self.label(v), v) for v in values[:limit]]
        wanted = fold(current)
        if not wanted:
            return []
        ranked: dict[str, float] = {}
        for key, value in self._titles:
            if key == wanted:
                ranked[value] = 300
            elif key.startswith(wanted):
                ranked.setdefault(value, 200 - len(key))
            elif f" {wanted}" in f" {key}":
                ranked.setdefault(value, 150 - len(key))
        if len(ranked) < limit:
            for _, score, i in process.extract(wanted, self._title_keys, scorer=fuzz.WRatio, limit=limit,
                                               score_cutoff=75):
                ranked.setdefault(self._titles[i][1], score / 2)
        values = sorted(ranked, key=lambda v: (-ranked[v], v))[:limit]
        return [(self.label(v), v) for v in values]
