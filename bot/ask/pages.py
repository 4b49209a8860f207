"""/ask answers as pages: each result with its citation, the passage that matched in bold, and
the language of every text it shows."""
from __future__ import annotations

import re

from bot.analysis import stems, word_matches
from bot.i18n import Messages
from bot.pages import Field, Page, escape, pack

PASSAGE_CHARS = 420
COLOR = 0x4682B4
SOURCE_NAMES = {"wotc": "WotC", "scryfall": "Scryfall"}
_SENTENCES = re.compile(r"(?<=[.!?。！？])\s+")
_WORD = re.compile(r"\w[\w’'-]*", re.UNICODE)


def passage(text: str, lang: str, matched: set[str], limit: int = PASSAGE_CHARS) -> str:
    """The sentences that matched, the matching words in bold; the text escaped for Discord."""
    sentences = [s for s in _SENTENCES.split(text.strip()) if s] or [text]

    def hits(sentence: str) -> int:
        return len(set(stems(sentence, lang, keep_stopwords=True)) & matched)

    best = max(range(len(sentences)), key=lambda i: (hits(sentences[i]), -i))
    start = end = best
    size = len(sentences[best])
    while True:        # widen around the best sentence while it fits
        grew = False
        if end + 1 < len(sentences) and size + len(sentences[end + 1]) < limit:
            end += 1
            size += len(sentences[end])
            grew = True
        if start > 0 and size + len(sentences[start - 1]) < limit:
            start -= 1
            size += len(sentences[start])
            grew = True
        if not grew:
            break
    shown = " ".join(sentences[start:end + 1])
    if len(shown) > limit:
        shown = shown[:limit - 1].rsplit(" ", 1)[0] + "…"
    out, last = [], 0
    found = list(_WORD.finditer(shown))
    bold = word_matches([w.group() for w in found], lang, matched)
    for word, strong in zip(found, bold):
        out.append(escape(shown[last:word.start()]))
        token = escape(word.group())
        out.append(f"**{token}**" if strong else token)
        last = word.end()
    out.append(escape(shown[last:]))
    text = "".join(out).replace("****", "")
    return ("… " if start > 0 else "") + text + (" …" if end + 1 < len(sentences) else "")


def heading(result: dict, msg: Messages) -> str:
    if result["kind"] == "rule":
        return f"{msg._('Rule {number}', number=result['number'])} · " \
               f"{msg._('Comprehensive Rules, effective {date}', date=msg.date(result['edition']))}"
    if result["kind"] == "glossary":
        return msg._("Glossary: {term}", term=result["term"])
    date = msg.date(result["published_at"]) or msg._("undated")
    source = SOURCE_NAMES.get(result.get("source"))
    line = msg._("{card} — ruling of {date}", card=result["card_shown"], date=date)
    return f"{line} · {msg._('Source: {source}', source=source)}" if source else line


def answer_pages(data: dict, msg: Messages, highlighted: list[str]) -> list[Page]:
    lines = []
    if data["cards"]:
        lines.append(msg._("Cards recognised: {cards}",
                           cards=", ".join(escape(c["shown"]) for c in data["cards"])))
    header = Page(title=msg._("Answers to “{question}”", question=escape(data["query"][:200])),
                  description="\n".join(lines), color=COLOR,
                  footer=msg.n_("{count} answer", "{count} answers", len(data["results"])))
    blocks = []
    for result, text in zip(data["results"], highlighted):
        notes = []
        if result["lang"] != data["lang"]:
            notes.append(msg._("Language: {language}", language=msg.language_name(result["lang"])))
        if result.get("status") == "machine":
            notes.append(msg._("Machine translation — the English original is authoritative."))
        elif result.get("status") == "partial":
            notes.append(msg._("Partly translated — some sentences are still in English."))
        if result.get("cites"):
            notes.append(msg._("Rules cited: {numbers}", numbers=", ".join(result["cites"])))
        value = text + ("\n" + "\n".join(f"*{n}*" for n in notes) if notes else "")
        blocks.append([Field(heading(result, msg), value)])
    return pack(header, blocks, lambda page, pages: msg._("Page {page} of {pages}", page=page, pages=pages))
