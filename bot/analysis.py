"""Text analysis: the words of a text, folded and stemmed for its language — one way for every
search (/ask's questions, rules and rulings; /rule by words).

Latin and Cyrillic scripts are split into words, stop-words dropped and the rest reduced to their
Snowball stem (PyStemmer) so that "explores", "explored" and "exploring" meet; Japanese, Korean
and Chinese, written without spaces, are cut into overlapping character pairs.
"""
from __future__ import annotations

import re
import threading
import unicodedata
from functools import lru_cache

import Stemmer

from bot.text import fold, has_cjk, is_cjk_char, strip_control

SNOWBALL = {"en": "english", "es": "spanish", "fr": "french", "de": "german", "it": "italian",
            "pt": "portuguese", "ru": "russian"}

# Words too common to say what a question is about (folded, as fold() writes them).
STOPWORDS = {
    "en": """a an the of to in on at by for from with without and or but if then than that this these those
        it its it's is are was were be been being do does did doing have has had having i me my we our you your
        he she him her his they them their what which who whom whose when where why how can could would should
        will shall may might must not no yes so as into onto out up down over under again there here all any
        each some such only own same too very just also still get gets got happen happens happened what's
        whats does doesnt dont isnt cant wont work works working happen happens mean means explain rule
        rules ruling rulings question interact interaction judge magic card's really actually please""",
    "es": """el la los las un una unos unas de del al a en con sin por para y o pero si que qué se su sus mi
        mis tu tus es son está están fue ser estar hay lo le les me te nos cuando cómo como cuál donde
        pasa ocurre sucede todavía aun aún sigue funciona significa hace""",
    "fr": """le la les un une des du de d l à au aux en dans sur avec sans par pour et ou mais si que qu
        quoi qui se sa son ses ma mon mes ta ton tes est sont était être a ont il elle ils elles on je tu nous
        vous ce cet cette ces y ne pas plus quand comment est ce que passe t toujours encore quest questce
        quoi fait faire fonctionne marche signifie veut dire""",
    "de": """der die das den dem des ein eine einer eines einem einen und oder aber wenn dann als ob zu zum
        zur in im an am auf mit ohne von vom für bei ist sind war waren sein wird werden hat haben ich du er
        sie es wir ihr mein meine dein deine sein seine nicht kein keine was wie wer wo warum noch trotzdem
        passiert funktioniert bedeutet macht""",
    "it": """il lo la i gli le un uno una di del della dei degli delle a al alla ai agli alle da dal dalla
        in nel nella con senza su sul sulla per e o ma se che chi cosa si suo sua suoi sue mio mia tuo tua è
        sono era essere ha hanno non quando come dove succede ancora funziona significa fa""",
    "pt": """o a os as um uma uns umas de do da dos das em no na nos nas com sem por para e ou mas se que
        quem o que seu sua seus suas meu minha teu tua é são era ser estar tem têm não quando como onde
        acontece ainda funciona significa faz""",
    "ru": """и в во на с со к ко о об от до по за из у не ни что как когда если то это этот эта эти
        он она оно они я ты мы вы его её ее их мой моя мои твой а но же ли бы ещё еще всё все ли происходит
        будет есть работает значит означает""",
}
_STOP = {lang: set(fold(words).split()) for lang, words in STOPWORDS.items()}
_WORD = re.compile(r"\w+", re.UNICODE)


_THREAD = threading.local()


def _stemmer(lang: str):
    """The Snowball stemmer of ``lang`` for this thread: a stemmer is not to be shared by threads
    (/rule and /ask answer in worker threads, several at once)."""
    stemmers = _THREAD.__dict__.setdefault("stemmers", {})
    if lang not in stemmers:
        stemmers[lang] = Stemmer.Stemmer(SNOWBALL.get(lang, "english"))
    return stemmers[lang]


def stopwords(lang: str) -> set[str]:
    return _STOP.get(lang, set())


def words(text: str) -> list[str]:
    """The folded words of a text, in order (CJK runs kept whole)."""
    return _WORD.findall(fold(text))


def cjk_pairs(text: str) -> list[str]:
    """Overlapping pairs of CJK characters ("牌库顶" → 牌库, 库顶); a lone character stays."""
    out = []
    for run in re.findall(r"[^\W\d_a-z]+", fold(text)):
        chars = [c for c in run if is_cjk_char(c)]
        if len(chars) == 1:
            out.append(chars[0])
        out.extend(chars[i] + chars[i + 1] for i in range(len(chars) - 1))
    return out


def _accented_words(text: str) -> list[str]:
    """Lower-case words with their accents: the Snowball stemmers of French, Spanish… need them
    ("bloquée" and "bloquer" meet only before the accent is folded away)."""
    text = unicodedata.normalize("NFKC", strip_control(text)).lower().replace("’", "'")
    found = _WORD.findall(text.replace("'", " "))
    return [w for w in found if not has_cjk(w)] if has_cjk(text) else found


@lru_cache(maxsize=16384)   # the words of the rules, and the commonest of the rulings and questions
def _stemmed(word: str, lang: str) -> tuple[str, str]:
    """(folded word, folded stem) of one word."""
    folded = fold(word)
    return folded, fold(_stemmer(lang).stemWord(word)) if folded else ""


def stemmed_words(text: str, lang: str = "en", *, keep_stopwords: bool = False) -> list[tuple[str, str]]:
    """(folded word, folded stem) of each Latin or Cyrillic word of a text in ``lang``, in order;
    its stop-words left out unless ``keep_stopwords``."""
    stop = () if keep_stopwords else stopwords(lang)
    out = []
    for word in _accented_words(text):
        folded, stem = _stemmed(word, lang)
        if stem and folded not in stop:     # a word that folds to nothing has no stem either
            out.append((folded, stem))
    return out


def stems(text: str, lang: str = "en", *, keep_stopwords: bool = False) -> list[str]:
    """Index terms of a text in ``lang``: stems of its words (folded), CJK character pairs."""
    terms = [stem for _, stem in stemmed_words(text, lang, keep_stopwords=keep_stopwords)]
    if has_cjk(text):
        terms += cjk_pairs(text)
    return terms


def word_matches(found: list[str], lang: str, terms: set[str]) -> list[bool]:
    """For each word, whether its stem is one of ``terms`` (to show what matched)."""
    lowered = [unicodedata.normalize("NFKC", w).lower().replace("’", "'").split("'")[-1] for w in found]
    stemmed = _stemmer(lang).stemWords(lowered) if lowered else []
    return [fold(s) in terms or any(p in terms for p in cjk_pairs(w)) if has_cjk(w) else fold(s) in terms
            for s, w in zip(stemmed, found)]
