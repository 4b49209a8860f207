"""MTG game terms in the 11 print languages (data/ask/terms.tsv): how a question in any of them
names what the English rules and rulings say."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from bot.analysis import stems
from bot.config import DATA_DIR
from bot.matching.nicknames import read_tsv
from bot.text import fold, has_cjk

TERMS_FILE = DATA_DIR / "ask" / "terms.tsv"


@dataclass(frozen=True)
class Term:
    """One game term: what it means in English, and how each language writes it."""
    english: str                                  # the words searched for
    spellings: dict[str, tuple[str, ...]]         # lang → spellings (English synonyms under "en")


def _rows(path):
    return read_tsv(path)


@lru_cache(maxsize=1)
def terms() -> tuple[Term, ...]:
    rows = _rows(TERMS_FILE)
    header, out = rows[0], []
    for row in rows[1:]:
        cells = dict(zip(header, row))
        english = cells["en"].split("|")
        out.append(Term(english[0], {lang: tuple(s for s in cells[lang].split("|") if s) if lang != "en"
                                     else tuple(english) for lang in header}))
    return tuple(out)


@lru_cache(maxsize=None)
def term_patterns(lang: str) -> tuple[tuple[tuple[str, ...], str, bool], ...]:
    """(pattern, English words, is_cjk) for every spelling of every term in ``lang``, longest first.
    A Latin or Cyrillic pattern is a sequence of stems; a CJK one, the folded characters."""
    out = []
    for term in terms():
        for spelling in term.spellings.get(lang, ()):
            if has_cjk(spelling):
                out.append(((fold(spelling).replace(" ", ""),), term.english, True))
            else:
                pattern = tuple(stems(spelling, lang, keep_stopwords=True))
                if pattern:
                    out.append((pattern, term.english, False))
    out.sort(key=lambda p: -sum(len(x) for x in p[0]))
    return tuple(out)
