"""Which of MTG's print languages a piece of text is written in.

Scripts decide first (kana → ja, hangul → ko, Cyrillic → ru, Han only → zhs or zht);
Latin-script text goes to Lingua, restricted to the six Latin print languages. A text whose
sentences are mostly in one language but carry a sentence in English is reported as partly
translated (seed 001: an Italian ruling with an English sentence left in it).
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import lru_cache

from lingua import Language, LanguageDetectorBuilder

from bot.text import fold, is_cjk_char


_LATIN = {
    Language.ENGLISH: "en",
    Language.SPANISH: "es",
    Language.FRENCH: "fr",
    Language.GERMAN: "de",
    Language.ITALIAN: "it",
    Language.PORTUGUESE: "pt",
}
# Game words each print language uses and its neighbours do not: on short card texts
# ("Anule a mágica alvo.", "Vol") they settle what general statistics cannot.
_GAME_WORDS = {
    "en": {"target", "library", "graveyard", "counter", "creature", "battlefield", "you", "the"},
    "es": {"objetivo", "roba", "pon", "gira", "agrega", "hechizo", "cementerio", "controlas",
           "ganas", "vigilancia", "una", "contador", "contadores", "arrollar", "prisa"},
    "pt": {"alvo", "adicione", "magica", "anule", "voce", "nao", "grimorio", "cemiterio",
           "marcador", "marcadores", "terreno", "coloque", "impeto", "atropelar", "mortifero",
           "uma", "seu", "sua", "vire", "compre", "desvire"},
    "fr": {"vol", "lien", "ciblee", "cible", "bibliotheque", "cimetiere", "marqueur",
           "marqueurs", "vous", "votre", "piochez", "celerite", "vigilance", "terrain"},
    "it": {"bersaglio", "cimitero", "grimorio", "segnalino", "segnalini", "volare", "pesca",
           "tappa", "rapidita", "sotto", "tuo", "tua", "controlli"},
    "de": {"friedhof", "bibliothek", "marke", "marken", "deiner", "deine", "kreatur", "ziel",
           "fliegend", "eile", "wachsamkeit", "du", "ziehe"},
}
_SYMBOL = re.compile(r"\{[^}]*\}")
_SENTENCE = re.compile(r"(?<=[.!?…])\s+|[()]")
_LETTER = re.compile(r"[^\W\d_]", re.UNICODE)
_lock = threading.Lock()
MIN_LETTERS = 3   # fewer letters than this tell no language


@dataclass(frozen=True)
class Detection:
    lang: str
    """The main language of the text."""
    mixed_with: tuple[str, ...] = ()
    """Other languages found in whole sentences of the text (e.g. an untranslated English one)."""


@lru_cache(maxsize=1)
def _detector():
    return LanguageDetectorBuilder.from_languages(*_LATIN).with_low_accuracy_mode().build()


def _script_language(text: str) -> str | None:
    kana = hangul = han = cyrillic = latin = 0
    for ch in text:
        code = ord(ch)
        if 0x3040 <= code <= 0x30FF or 0xFF66 <= code <= 0xFF9F:
            kana += 1
        elif 0xAC00 <= code <= 0xD7AF or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
            hangul += 1
        elif 0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF:
            han += 1
        elif 0x0400 <= code <= 0x04FF:
            cyrillic += 1
        elif ch.isalpha() and code < 0x0250:
            latin += 1
    if hangul:
        return "ko"
    if kana:
        return "ja"
    if han and han >= latin:
        return chinese_variant(text)
    if cyrillic and cyrillic >= latin:
        return "ru"
    return None


def chinese_variant(text: str) -> str:
    """zhs when every Han character exists in GB 2312 (the simplified set), else zht."""
    for ch in text:
        if 0x4E00 <= ord(ch) <= 0x9FFF:
            try:
                ch.encode("gb2312")
            except UnicodeEncodeError:
                return "zht"
    return "zhs"


def _game_word_language(text: str) -> str | None:
    words = set(fold(text).split())
    hits = {lang: len(words & vocabulary) for lang, vocabulary in _GAME_WORDS.items()}
    best = max(hits.values())
    leaders = [lang for lang, count in hits.items() if count == best]
    return leaders[0] if best and len(leaders) == 1 else None


def _latin_language(text: str) -> str:
    if len(_LETTER.findall(text)) < 40:
        hinted = _game_word_language(text)
        if hinted:
            return hinted
    with _lock:  # Lingua's detector is not documented as thread-safe
        found = _detector().detect_language_of(text)
    return _LATIN.get(found, "en") if found else "en"


def detectable(text: str) -> bool:
    """Whether ``text`` can be told to be in one of the print languages: it has letters, and most
    of them in the Latin, Cyrillic, Han, kana or Hangul scripts (not Hebrew, Arabic, Greek…)."""
    letters = _LETTER.findall(_SYMBOL.sub(" ", text))
    known = sum(1 for ch in letters if ord(ch) < 0x0250 or 0x0400 <= ord(ch) <= 0x04FF or is_cjk_char(ch)
                or 0xFF66 <= ord(ch) <= 0xFF9F)
    return len(letters) >= MIN_LETTERS and known * 2 > len(letters)


def detect(text: str) -> str:
    """The print language of ``text`` ('en' when there is nothing to tell)."""
    text = _SYMBOL.sub(" ", text)
    return _script_language(text) or _latin_language(text)


def detect_sentences(text: str) -> Detection:
    """The main language of a text and the languages of whole sentences that differ from it."""
    main = detect(text)
    others: list[str] = []
    for sentence in _SENTENCE.split(text):
        sentence = sentence.strip()
        if len(_LETTER.findall(sentence)) < 25:  # too short to judge on its own
            continue
        lang = detect(sentence)
        if lang != main and lang not in others:
            others.append(lang)
    return Detection(main, tuple(others))
