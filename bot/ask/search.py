"""Ranking for /ask: BM25 over the question's ideas, with what a judge expects on top.

Candidates come from the full-text index (any of the question's terms) and from what the
question names: the rulings of its cards, the rules it quotes, the keyword rules its cards use.
Each is scored by BM25 per idea (a game term and its synonyms count once), weighed by how many of
the question's ideas it holds; a ruling of a named card that matches ranks first, and a quoted
rule is always among the answers.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from bot.analysis import stems
from bot.ask.index import AskIndex, Doc
from bot.ask.understand import RULE_NUMBER, Question

K1, B = 0.3, 0.5
CANDIDATES = 150
COMMON = 0.1                    # share of all texts above which a word does not choose candidates
NAMED_CARD_BONUS = 100.0        # a matching ruling of a card the question names comes first
QUOTED_RULE_BONUS = 50.0        # a rule the question quotes (or means by a nickname) is shown
KEYWORD_RULE_BONUS = 2.0        # the rule of a keyword the named cards use ("explores" → 701.44)
TITLE_WEIGHT = 0.3              # a rule that is only a title ("701.44. Explore") says little
INFORMATIVE_TERMS = 12          # a text of fewer terms ("Deathtouch is a static ability.") says less
MIN_SCORE = 0.5
CARD_TEXT_WEIGHT = 0.3          # the words of a named card's text, beside the question's own
NAMED_RULINGS = 3               # places for a named card's rulings, the others for the rules
POINTED_SHARE = 0.99            # a rule a matching glossary entry points to scores nearly as well
KEYWORD_DEFINITION_WEIGHT = 1.3  # the subrules defining a keyword the question names
DEFINING_SUBRULES = 2           # the subrules that say what a keyword does, after the one naming its kind
GLOSSARY_PLACES = 1             # one glossary entry says what a term means; the rules say the rest
RULE_PLACES = 4                 # of five answers, four for the rules (one a glossary entry), one for a ruling


@dataclass(frozen=True)
class Result:
    kind: str                   # rule | glossary | ruling
    ref: str                    # rule number, glossary term, ruling id
    oracle_id: str | None
    group: int                  # a ruling and its translations share one
    lang: str
    text: str
    score: float
    matched: tuple[str, ...]    # the index terms it shares with the question
    cites: tuple[str, ...] = ()  # rules a ruling quotes


def _bm25(doc: Doc, ideas: list[tuple[tuple[str, ...], float]], idf: dict[str, float],
          average: float) -> tuple[float, float, set]:
    body = doc.body.split()
    counts: dict[str, int] = {}
    for term in body:
        counts[term] = counts.get(term, 0) + 1
    norm = K1 * (1 - B + B * len(body) / average)
    total, held, matched = 0.0, 0.0, set()
    for idea, weight in ideas:
        best, rarity = 0.0, max((idf.get(t, 0.0) for t in idea), default=0.0)
        for term in idea:
            tf = counts.get(term, 0)
            if tf:
                matched.add(term)
                best = max(best, idf.get(term, 0.0) * tf * (K1 + 1) / (tf + norm))
        if best:
            held += weight * rarity
            total += best * weight
    return total, held, matched


_KIND_ONLY = re.compile(r"^\S+ [^.]{1,60}? is an? [\w -]{0,30}ability\.$")


def _names_kind(rule) -> bool:
    """A subrule that only says what kind of ability a keyword is ("702.2a Deathtouch is a static ability.")."""
    return bool(_KIND_ONLY.match(rule.text.strip()))


def _keyword_definitions(ideas, edition, keywords) -> set[str]:
    """The subrules that say what the keyword actions and abilities the question names do
    ("deathtouch" → 702.2b, 702.2c)."""
    if edition is None or keywords is None:
        return set()
    titles = _keyword_titles(keywords)
    out = set()
    for idea, weight in ideas:
        if weight < 1:
            continue
        for term in idea:
            number = titles.get((term,)) or titles.get(idea)
            if number:
                subrules = [n for n in edition.children.get(number, []) if not _names_kind(edition.rules[n])]
                out.update(subrules[:DEFINING_SUBRULES])
    return out


_TITLES: WeakKeyDictionary = WeakKeyDictionary()   # Keywords → its titles' stems


def _keyword_titles(keywords) -> dict[tuple[str, ...], str]:
    """Stems of every keyword action and ability title (CR 701, 702) → its rule number."""
    found = _TITLES.get(keywords)
    if found is None:
        found = {}
        for _, number, title in keywords.entries:
            found.setdefault(tuple(stems(title)), number)
        _TITLES[keywords] = found
    return found


def _phrase_bonus(doc: Doc, ideas: list[tuple[str, ...]]) -> float:
    """Ideas of several words found as written ("last known information", "first strike")."""
    bonus = 0.0
    padded = f" {doc.body} "
    for idea, weight in ideas:
        if len(idea) > 1 and weight == 1 and f" {' '.join(idea)} " in padded:
            bonus += 1.0
    return bonus


def rank(question: Question, index: AskIndex, book, card_text=lambda oracle_id: "",
         limit: int = 5, card_name=lambda oracle_id: None, keywords=None) -> list[Result]:
    """The best ``limit`` answers; ``card_text(oracle_id)`` gives a named card's Oracle text,
    ``card_name(oracle_id)`` its name; ``keywords`` (``bot.rules.keywords.Keywords``) the keyword
    rules of the current edition, which a named card's text uses."""
    ideas = [(idea, 1.0) for idea in question.concepts] + [((t,), 1.0) for t in question.native] + \
        [((t,), 1.0) for t in question.english if not any(t in idea for idea in question.concepts)]
    known = {t for idea, _ in ideas for t in idea}
    for oracle_id, _ in question.cards:   # what a named card does says what the question is about
        for term in dict.fromkeys(stems(card_text(oracle_id))):
            if term not in known:
                known.add(term)
                ideas.append(((term,), CARD_TEXT_WEIGHT))
    terms = [t for idea, _ in ideas for t in idea]
    df = index.document_frequency(terms)
    n = max(1, index.size)
    idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
    # candidates come from the telling words; a word in every tenth text only re-ranks them
    telling = [t for t in terms if t in df and df[t] <= COMMON * n] or \
        sorted((t for t in terms if t in df), key=lambda t: df[t])[:2]
    ids = index.candidates(telling, CANDIDATES)
    card_ids = [oid for oid, _ in question.cards]
    named = set(index.rulings_of(card_ids))
    quoted = set(index.doc_ids("rule", question.rules).values())
    keyword_rules = set()
    if keywords is not None:
        for oracle_id, _ in question.cards:
            its_rules = keywords.rules(card_text(oracle_id), name=card_name(oracle_id))
            keyword_rules |= set(index.doc_ids("rule", its_rules).values())
    docs = index.docs(set(ids) | named | quoted | keyword_rules)
    pointed = {}       # rules a glossary entry points to ("See rule 704.5j") come with it
    current = book.current if book is not None and book.current else None
    for doc in list(docs.values()):
        if doc.kind == "glossary" and current is not None:
            for number in RULE_NUMBER.findall(doc.text):
                rule = current.rules.get(number)
                if rule is None:
                    continue
                # a rule that is only a title ("702.2. Deathtouch") points on to the subrule that
                # says what it does: the first that is more than "Deathtouch is a static ability."
                targets = [number]
                if rule.title and "." in number:
                    subrules = [n for n in current.children.get(number, []) if not _names_kind(current.rules[n])]
                    targets = subrules[:DEFINING_SUBRULES] or targets
                for share, target in enumerate(targets):
                    pointed.setdefault(target, (doc.id, POINTED_SHARE - share / 100))
    for number, doc_id in index.doc_ids("rule", list(pointed)).items():
        pointed[doc_id] = pointed.pop(number)
    docs.update(index.docs(set(pointed) - set(docs)))
    defining = _keyword_definitions(ideas, current, keywords)
    weight_of_all = sum(w * max((idf.get(t, 0.0) for t in idea), default=0.0) for idea, w in ideas)
    scored = []
    by_id = {}
    for doc in docs.values():
        score, held, matched = _bm25(doc, ideas, idf, index.average_length)
        if weight_of_all:     # how much of the question it holds, rare words counting most
            score *= 0.4 + 0.6 * held / weight_of_all
        score += _phrase_bonus(doc, ideas)
        score *= min(1.0, (len(doc.body.split()) + 4) / INFORMATIVE_TERMS)
        if doc.kind == "rule" and book is not None and book.current and \
                book.current.rules.get(doc.ref) and book.current.rules[doc.ref].title:
            score *= TITLE_WEIGHT
        if doc.id in keyword_rules:
            score += KEYWORD_RULE_BONUS
        if doc.kind == "rule" and doc.ref in defining:
            score *= KEYWORD_DEFINITION_WEIGHT
        if doc.id in named and (score >= MIN_SCORE or not ideas):
            score += NAMED_CARD_BONUS
        if doc.id in quoted:
            score += QUOTED_RULE_BONUS
        by_id[doc.id] = (score, doc, matched)
    for doc_id, (glossary_id, share) in pointed.items():
        if doc_id in by_id and glossary_id in by_id and doc_id not in quoted:
            score, doc, matched = by_id[doc_id]
            by_id[doc_id] = (max(score, share * by_id[glossary_id][0]), doc, matched)
    for score, doc, matched in by_id.values():
        if score >= MIN_SCORE:
            scored.append((score, doc, matched))
    scored.sort(key=lambda s: (-s[0], s[1].kind != "rule", s[1].id))
    chosen, seen = [], set()
    for score, doc, matched in scored:
        keys = {("group", doc.group), (doc.kind, doc.body)}
        if keys & seen:
            continue        # a translation of a ruling already chosen, or the same text for another card
        seen |= keys
        chosen.append((score, doc, matched))
    current = current.rules if current is not None else {}
    return [Result(doc.kind, doc.ref, doc.oracle_id, doc.group, doc.lang, doc.text, round(score, 3),
                   tuple(sorted(matched)),
                   tuple(dict.fromkeys(n for n in RULE_NUMBER.findall(doc.text) if n in current))
                   if doc.kind == "ruling" else ())
            for score, doc, matched in _mix(chosen, limit)]


def _mix(chosen: list, limit: int) -> list:
    """The answers a judge wants side by side: the rules that decide a question and the rulings
    that apply them. Rulings of named cards (up to NAMED_RULINGS) and quoted rules come first;
    then the best rules and glossary entries take RULE_PLACES places and the best other rulings
    the rest, each kind filling in for the other when it runs out."""
    fixed, named = [], 0
    for c in chosen:
        if c[0] >= NAMED_CARD_BONUS and c[1].kind == "ruling":
            named += 1
            if named > NAMED_RULINGS:
                continue
        if c[0] >= QUOTED_RULE_BONUS:
            fixed.append(c)
    fixed = fixed[:limit]
    rest = [c for c in chosen if c[0] < QUOTED_RULE_BONUS]
    glossary = [c for c in rest if c[1].kind == "glossary"][:GLOSSARY_PLACES]
    rules = [c for c in rest if c[1].kind == "rule"]
    # the best glossary entry says what the question's term means: it keeps one of the rules' places
    rules = sorted(rules[:RULE_PLACES - len(glossary)] + glossary, key=lambda c: -c[0]) + rules[RULE_PLACES - len(glossary):]
    rulings = [c for c in rest if c[1].kind == "ruling"]
    free = limit - len(fixed)
    take_rules = min(len(rules), max(RULE_PLACES - sum(c[1].kind != "ruling" for c in fixed), free - len(rulings)))
    take_rules = max(0, min(take_rules, free))
    out = fixed + rules[:take_rules] + rulings[:free - take_rules]
    return sorted(out, key=lambda c: -c[0])
