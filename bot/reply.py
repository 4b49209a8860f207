"""What a command answers: pages to show, a short message, choices to offer."""
from __future__ import annotations

from dataclasses import dataclass, field

from bot.i18n import Messages
from bot.pages import Page


def too_long(msg: Messages, limit: int) -> str:
    """The one message for a value over its length limit."""
    return msg._("That value is too long (at most {limit} characters).", limit=limit)


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

    def as_json(self) -> dict:
        """The machine-readable answer (--json): its data, with the message when there is one."""
        return self.data | ({"message": self.content} if self.content else {})
