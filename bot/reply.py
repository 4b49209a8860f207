"""What a command answers: pages to show, a short message, choices to offer; and the one way the
console and the command line print it (as_text, drawn for a terminal) or give it as JSON."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.i18n import Messages
from bot.pages import Page


def too_long(msg: Messages, limit: int) -> str:
    """The one message for a value over its length limit."""
    return msg._("That value is too long (at most {limit} characters).", limit=limit)


# Discord Markdown, as the core writes it, drawn for a terminal
_BOLD = re.compile(r"\*\*(.+?)\*\*", re.S)
_ITALIC = re.compile(r"(?<![\\\w*])\*(?!\s)(.+?)(?<![\s\\])\*(?!\*)|(?<![\\\w])_(?!\s)(.+?)(?<![\s\\])_(?!\w)", re.S)
_CODE = re.compile(r"`([^`]+)`")
_LINK = re.compile(r"\[([^\]]+)\]\((https?://[^)\s]+)\)")
_SPOILER = re.compile(r"\|\|(.+?)\|\|", re.S)
_ESCAPED = re.compile(r"\\([\\*_~`|>#\[\]])")
_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff]")


def terminal(text: str, styles: bool = False) -> str:
    """Markdown to terminal text: **bold** and *italic* as ANSI styles (or plain where the output
    is no terminal), `code` and ||spoilers|| plain, links as "text <url>", escapes undone,
    zero-width characters and the blank lines they leave removed."""
    bold, italic, reset = ("\x1b[1m", "\x1b[3m", "\x1b[0m") if styles else ("", "", "")
    text = _LINK.sub(r"\1 <\2>", text)
    text = _CODE.sub(r"\1", text)
    text = _SPOILER.sub(r"\1", text)
    text = _BOLD.sub(lambda m: f"{bold}{m.group(1)}{reset}", text)
    text = _ITALIC.sub(lambda m: f"{italic}{m.group(1) or m.group(2)}{reset}", text)
    text = _ESCAPED.sub(r"\1", text)
    text = _INVISIBLE.sub("", text)
    lines = [line.rstrip() for line in text.split("\n")]
    text = "\n".join(lines).strip("\n")
    return re.sub(r"\n{3,}", "\n\n", text)


@dataclass(frozen=True)
class Choice:
    label: str
    value: str


@dataclass
class Reply:
    pages: list[Page] = field(default_factory=list)
    content: str | None = None        # a short message (errors, notes)
    choices: list[Choice] = field(default_factory=list)   # "did you mean" / "pick one"
    error: bool = False
    data: dict = field(default_factory=dict)              # machine-readable result (--json)
    cited: list[Choice] = field(default_factory=list)     # the rules the answer cites, to open
    figure: object | None = None   # what a front end may draw as an image (explore odds: OddsChart)

    def as_text(self) -> str:
        """The whole answer as plain text (the console and the command line): the message, then the
        pages as one — the title and description once, every section, the footer once without its
        page numbers, sections with nothing to show left out — then the choices."""
        parts = [self.content] if self.content else []
        if self.pages:
            first = self.pages[0]
            footer = first.footer
            if len(self.pages) > 1:   # "9 rulings · Page 1 of 2" (pages.pack): the page label goes
                footer = footer.rsplit(" · ", 1)[0] if " · " in footer else ""
            fields = [f for page in self.pages for f in page.fields
                      if f.name.strip("\u200b ") or f.value.strip("\u200b ")]
            whole = Page(first.title, first.description, fields, footer)
            # a section cut in pieces ("…") goes on under its own name
            parts.append(whole.as_text().replace("\n\n— …\n", "\n"))
        if self.choices:
            parts.append("\n".join(f"  • {c.label}" for c in self.choices))
        return "\n\n".join(parts)

    def for_terminal(self, styles: bool = False) -> str:
        """The answer as the console and the command line print it: as_text, Markdown drawn."""
        return terminal(self.as_text(), styles)

    def as_json(self) -> dict:
        """The machine-readable answer (--json): its data, with the message when there is one."""
        return self.data | ({"message": self.content} if self.content else {})
