"""What a question is about: the cards it names (in any print language, by nickname or between
[[ ]]), the rules it quotes, and its game terms turned into the words of the English rules."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.analysis import STOPWORDS, stems, stopwords, words
from bot.ask.lexicon import term_patterns
from bot.matching.nicknames import nicknames
from bot.text import fold, has_cjk, is_cjk_char

MAX_QUESTION = 1000
MAX_NAME_WORDS = 8
CAPITALISED_NOUNS = {"de"}      # every noun is capitalised: a capital does not make a one-word name
RULE_NUMBER = re.compile(r"(?<![\d.])(\d{3}(?:\.\d+[a-z]?)?)(?![\d])")
BRACKETS = re.compile(r"\[\[([^\[\]]{1,200})\]\]")
_HIRAGANA_KATAKANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_KANA = re.compile(r"[\u3040-\u30ff]")
# characters that only one of the two Chinese scripts uses, for a question with Han only
_SIMPLIFIED = set("们这个来时说对会过发们战场牌库坟墓结算触发击阶将")
_TRADITIONAL = set("們這個來時說對會過發們戰場牌庫墳墓結算觸發擊階將")
# a name written with a possessive ("Lurking Chupacabra's trigger") or after an elided article or
# preposition ("la capacité d'Archange de Thiune", "dell'Arcangelo di Thune") folds into one word
# with it; the name alone is tried as well
_POSSESSIVE = re.compile(r"(?<![\w'’])([^\W\d_][\w-]*)['’]s(?![\w'’])")
_ELISION = re.compile(r"(?<![\w'’])(?:c|d|j|l|m|n|s|t|qu|jusqu|lorsqu|puisqu"      # French
                      r"|dell|all|dall|nell|sull|coll|un|quell|quest)['’]([^\W\d_][\w-]*)", re.I)  # Italian


@dataclass
class Question:
    text: str
    lang: str                                   # the language it is written in
    truncated: bool = False
    cards: list[tuple[str, str]] = field(default_factory=list)     # (oracle id, the words that named it)
    rules: list[str] = field(default_factory=list)                 # rule numbers quoted or meant
    english: list[str] = field(default_factory=list)               # stems searched in English texts
    native: list[str] = field(default_factory=list)                # stems searched in the question's language
    concepts: list[tuple[str, ...]] = field(default_factory=list)  # groups of stems: one idea each

    @property
    def empty(self) -> bool:
        return not (self.cards or self.rules or self.english or self.native)


def question_language(text: str, reader: str) -> str:
    """The language a question is written in: its script, else its small words."""
    if _HIRAGANA_KATAKANA.search(text):
        return "ja"
    if _HANGUL.search(text):
        return "ko"
    if _CYRILLIC.search(text):
        return "ru"
    if has_cjk(text):
        if reader in ("zhs", "zht"):
            return reader
        trad = sum(c in _TRADITIONAL for c in text)
        simp = sum(c in _SIMPLIFIED for c in text)
        return "zht" if trad > simp else "zhs"
    found = words(text)
    best, best_hits = reader if reader in STOPWORDS else "en", 0
    for lang in STOPWORDS:
        hits = sum(w in stopwords(lang) for w in found)
        if hits > best_hits or (hits == best_hits and lang == reader):
            best, best_hits = lang, hits
    return best


def _card_spans(question: Question, index, original: str) -> set[int]:
    """Find card names among the question's words; the positions of the words they used."""
    tokens = words(original)
    used: set[int] = set()
    stop = stopwords(question.lang) | stopwords("en")
    # a one-word name counts when written as a name: capitalised, and not the first word of a sentence
    capitalized, opening = set(), set()
    for sentence in re.split(r"[.!?¿¡。！？]+", original):
        for i, w in enumerate(re.findall(r"\b[^\W\d_][\w'’-]*", sentence)):
            bare = _POSSESSIVE.sub(r"\1", _ELISION.sub(r"\1", w))
            if bare[:1].isupper():
                (capitalized if i else opening).update((fold(w), fold(bare)))
    before, after = _name_forms(original)
    grams = {}
    for size in range(min(MAX_NAME_WORDS, len(tokens)), 0, -1):
        for start in range(0, len(tokens) - size + 1):
            first, last = tokens[start], tokens[start + size - 1]
            if size == 1:
                keys = {first, *before.get(first, ()), *after.get(first, ())}
            else:
                inner = " ".join(tokens[start + 1:start + size - 1])
                keys = {" ".join(filter(None, (a, inner, b)))
                        for a in (first, *before.get(first, ())) for b in (last, *after.get(last, ()))}
            for key in keys:
                grams.setdefault(key, []).append((start, size))
    found = index.card_names(list(grams))
    for key in sorted(found, key=lambda k: -len(k.split())):
        oracle_id = found[key]
        if oracle_id is None:
            continue
        parts = key.split()
        if all(p in stop for p in parts):
            continue
        if len(parts) == 1 and not _written_as_name(key, question.lang, capitalized, opening, stop):
            continue
        for start, size in grams[key]:
            span = set(range(start, start + size))
            if span & used:
                continue
            used |= span
            if oracle_id not in [c for c, _ in question.cards]:
                question.cards.append((oracle_id, key))
    return used


def _name_forms(text: str) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """The folded words of ``text`` that hold an elided word before a name ("dagent" → "agent")
    or a possessive after one ("chupacabras" → "chupacabra"), and the name's word alone."""
    before: dict[str, set[str]] = {}
    after: dict[str, set[str]] = {}
    for pattern, forms, at in ((_ELISION, before, 0), (_POSSESSIVE, after, -1)):
        for match in pattern.finditer(text):
            whole, bare = fold(match.group(0)).split(), fold(match.group(1)).split()
            if whole and bare and whole[at] != bare[at]:
                forms.setdefault(whole[at], set()).add(bare[at])
    return before, after


def _cjk_cards(question: Question, index, text: str) -> str:
    """Find card names in text written without spaces; the text without them."""
    run = "".join(c for c in fold(text) if is_cjk_char(c) or c.isalnum())
    keys = {run[i:j] for i in range(len(run)) for j in range(i + 3, min(len(run), i + 20) + 1)}
    found = {k: v for k, v in index.card_names(list(keys)).items() if v}
    for key in sorted(found, key=len, reverse=True):
        if found[key] not in [c for c, _ in question.cards] and not any(key in k for _, k in question.cards):
            question.cards.append((found[key], key))
    folded = fold(text)
    for _, key in question.cards:
        folded = folded.replace(key, " ")
    return folded


def _written_as_name(key: str, lang: str, capitalized: set, opening: set, stop: set) -> bool:
    """Whether a one-word card name in a question is meant as the card: "explores", "opt", "shock"
    are words; "Explore" or "Opt" capitalised mid-sentence are cards, and so is a name that opens
    the question ("Defossilize: …") when it is no game word. German capitalises every noun."""
    if lang in CAPITALISED_NOUNS or key in stop:
        return False
    game_word = _is_game_word(key, lang) or _is_game_word(key, "en")
    if key in capitalized:
        return lang == "en" or not game_word
    return key in opening and not game_word


def _is_game_word(word: str, lang: str) -> bool:
    stem = tuple(stems(word, lang, keep_stopwords=True))
    return any(not cjk and pattern == stem for pattern, _, cjk in term_patterns(lang))


def _terms(question: Question, text: str, skip: set[int]) -> None:
    """Game terms of the question's language → English words; the other words kept as they are."""
    lang = question.lang
    tokens = [w for i, w in enumerate(words(text)) if i not in skip]
    latin = " ".join(w for w in tokens if not any(is_cjk_char(c) for c in w))
    sequence = stems(latin, lang, keep_stopwords=True)
    stop = stopwords(lang) | set(stems(" ".join(stopwords(lang)), lang, keep_stopwords=True))
    taken = [False] * len(sequence)
    for source in ([lang, "en"] if lang != "en" else ["en"]):
        for pattern, english, cjk in term_patterns(source):
            if cjk:
                continue
            if source != lang:   # English words in another language's question: not its small words
                pattern = tuple(stems(" ".join(pattern), lang, keep_stopwords=True)) or pattern
            n = len(pattern)
            for i in range(len(sequence) - n + 1):
                if source != lang and any(w in stop for w in sequence[i:i + n]):
                    continue
                if not any(taken[i:i + n]) and tuple(sequence[i:i + n]) == pattern:
                    for k in range(i, i + n):
                        taken[k] = True
                    _add_concept(question, stems(english, "en"))
    folded = fold(text).replace(" ", "")
    if has_cjk(folded):
        for pattern, english, cjk in term_patterns(lang):
            if cjk and pattern[0] in folded:
                folded = folded.replace(pattern[0], " ")
                _add_concept(question, stems(english, "en"))
        question.native += [p for p in stems(folded, lang) if any(is_cjk_char(c) and not _KANA.match(c) for c in p)]
    for stem, used in zip(sequence, taken):
        if used or stem in stop or len(stem) < 2:
            continue
        if lang == "en":
            _add_concept(question, [stem])
        else:
            question.native.append(stem)
            question.english.append(stem)      # names of keywords are often the same words


def _add_concept(question: Question, terms: list[str]) -> None:
    terms = [t for t in terms if t not in stopwords("en")]
    if terms and tuple(terms) not in question.concepts:
        question.concepts.append(tuple(terms))
        question.english.extend(t for t in terms if t not in question.english)


def understand(text: str, reader: str, index, rules_exist=lambda number: True) -> Question:
    text = (text or "").strip()
    truncated = len(text) > MAX_QUESTION
    text = text[:MAX_QUESTION]
    question = Question(text, question_language(text, reader), truncated)
    if not text:
        return question
    for number in RULE_NUMBER.findall(text):
        if rules_exist(number) and number not in question.rules:
            question.rules.append(number)
    rest = RULE_NUMBER.sub(" ", text)
    for name in BRACKETS.findall(rest):
        found = index.card_names([fold(name)]).get(fold(name))
        if found and found not in [c for c, _ in question.cards]:
            question.cards.append((found, fold(name)))
    rest = BRACKETS.sub(" ", rest)
    if has_cjk(rest):
        rest = _cjk_cards(question, index, rest)
    used = _card_spans(question, index, rest)
    tokens = words(rest)
    for i, token in enumerate(tokens):
        if i in used:
            continue
        for nick in nicknames().get(token, ()):
            used.add(i)
            if nick.kind == "card":
                found = index.card_names([fold(nick.target)]).get(fold(nick.target))
                if found and found not in [c for c, _ in question.cards]:
                    question.cards.append((found, token))
            elif nick.kind == "rule" and rules_exist(nick.target) and nick.target not in question.rules:
                question.rules.append(nick.target)
            elif nick.kind == "term":
                _add_concept(question, stems(nick.target, "en"))
    _terms(question, rest, used)
    question.english = list(dict.fromkeys(question.english))
    question.native = list(dict.fromkeys(question.native))
    return question
