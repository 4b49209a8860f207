"""Text folding shared by the matcher, the importers and the search features.

One concept: turn what a person typed, or what a card prints, into a comparable key.
Case, accents, punctuation, full-width forms and ligatures stop mattering; CJK text keeps
its characters (they carry the meaning) but loses its spacing and punctuation.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# Letters that Unicode does not decompose into base + accent.
_SPECIAL = str.maketrans({
    "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "þ": "th", "ł": "l",
    "ı": "i", "’": "'", "‘": "'", "ʼ": "'", "`": "'", "´": "'",
    "ё": "е",  # Russian printings use е for ё
})
_APOSTROPHES = re.compile(r"['\u02bc]")
_NON_WORD = re.compile(r"[^\w]+", re.UNICODE)
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_INVISIBLE = re.compile(r"[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]")
_KANA_VOICING = {"\u3099", "\u309a"}
# punctuation that folds as its ASCII stand-in does: apostrophes go, the rest separates words
_PLAIN_PUNCTUATION = (("\u2019", "'"), ("\u2018", "'"), ("\u201c", " "), ("\u201d", " "), ("\u2014", " "),
                      ("\u2013", " "), ("\u2026", " "), ("\u2022", " "), ("\u2212", " "), ("\u00a0", " "))

_ASCII_FOLD = bytes(c if chr(c).isascii() and chr(c).isalnum() else 32 for c in range(256)).lower()
_BEYOND_PLAIN = re.compile(r"[^\x00-\x7f" + "".join(char for char, _ in _PLAIN_PUNCTUATION) + "]")
_HAS_SPECIAL = re.compile("[" + re.escape("".join(map(chr, _SPECIAL))) + "]")

MAX_QUERY_CHARS = 200


def strip_control(text: str) -> str:
    """Control characters become spaces; invisible formatting characters go."""
    return _INVISIBLE.sub("", _CONTROL.sub(" ", text))


def fold(text: str) -> str:
    """Comparable form of a name: lower case, no accents, words separated by one space.

    >>> fold("Élite Lame-héron")
    'elite lame heron'
    >>> fold("Tishana’s  Wayfinder")
    'tishanas wayfinder'
    >>> fold("Ｇｉａｎｔ Ｇｒｏｗｔｈ")
    'giant growth'
    """
    if not text.isascii():
        # rulings are English text with typographic punctuation: once it is plain ASCII (which
        # folds the same), no normalization can change the rest
        if _BEYOND_PLAIN.search(text):
            # each character on its own, when none of them can change its neighbours
            folded = text.translate(_BY_CHARACTER)
            return _fold_unicode(text) if _NOT_ALONE in folded else " ".join(folded.split())
        for char, ascii_char in _PLAIN_PUNCTUATION:
            if char in text:
                text = text.replace(char, ascii_char)
    # most names and rulings: no normalization can change them; letters and digits are kept
    # (lower case), apostrophes go, everything else separates words
    return " ".join(text.encode("ascii").translate(_ASCII_FOLD, b"'`").decode("ascii").split())


def _fold_unicode(text: str) -> str:
    return " ".join(_folded_characters(text).split())


def _folded_characters(text: str) -> str:
    """``text`` folded, its separators left as they are (spaces, possibly several)."""
    text = unicodedata.normalize("NFKC", strip_control(text)).lower()
    if _HAS_SPECIAL.search(text):
        text = text.translate(_SPECIAL)
    text = _without_marks(unicodedata.normalize("NFKD", text))
    # NFKD splits Japanese voiced kana (が → か + ゛); put them back together.
    text = unicodedata.normalize("NFC", text)
    text = _APOSTROPHES.sub("", text)
    return _NON_WORD.sub(" ", text).replace("_", " ")


_NOT_ALONE = "\0"   # stands for a character that may fold with its neighbours (no folded text holds it)
_VOWEL_OR_FINAL_JAMO = re.compile("[\u1160-\u11ff\ud7b0-\ud7ff]")   # they join what comes before


class _ByCharacter(dict):
    """code point → the character folded on its own, filled as characters are met; ``_NOT_ALONE``
    for those whose folding may depend on their neighbours: what decomposes starting with a mark, or
    with a Hangul vowel or final consonant (they join the character before), and what becomes a
    capital sigma (its lower case depends on the end of the word). Only the Basic Multilingual
    Plane (CACHED_UP_TO) is kept, so that what users type cannot grow it past 65,536 entries; rarer
    characters beyond it are folded each time they are met."""

    CACHED_UP_TO = 0xFFFF

    def __missing__(self, code: int) -> str:
        char = chr(code)
        decomposed = unicodedata.normalize("NFKD", char)
        alone = (not unicodedata.category(decomposed[0]).startswith("M")
                 and not _VOWEL_OR_FINAL_JAMO.match(decomposed) and "\u03a3" not in decomposed)
        folded = _folded_characters(char) if alone else _NOT_ALONE
        if code <= self.CACHED_UP_TO:
            self[code] = folded
        return folded


_BY_CHARACTER = _ByCharacter()


def _without_marks(text: str) -> str:
    """``text`` without its combining marks (accents), the kana voicing marks excepted: each
    distinct character is asked once, so nothing is built in advance."""
    marks = [ch for ch in set(text) if unicodedata.combining(ch) and ch not in _KANA_VOICING]
    return text.translate(dict.fromkeys(map(ord, marks))) if marks else text


_CJK_CHARS = ("[\u3040-\u30ff"                           # kana
              "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"   # Han
              "\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]")  # Hangul


@lru_cache(maxsize=1)
def _cjk_char() -> re.Pattern:
    """Compiled when first asked: its ranges cost a look-up that never meets CJK text (an exact
    name on the command line) a few milliseconds to compile."""
    return re.compile(_CJK_CHARS)


def is_cjk_char(ch: str) -> bool:
    return _cjk_char().match(ch) is not None


def has_cjk(text: str) -> bool:
    return _cjk_char().search(text) is not None


def clip(text: str, limit: int, mark: str = "…") -> str:
    """``text`` in at most ``limit`` characters, ending with ``mark`` when it was cut."""
    if len(text) <= limit:
        return text
    return text[: limit - len(mark)] + mark


def clip_query(text: str, limit: int = MAX_QUERY_CHARS) -> tuple[str, bool]:
    """Cut over-long input (no mark: it is searched, not shown); say whether it was cut."""
    return clip(text, limit, mark=""), len(text) > limit
