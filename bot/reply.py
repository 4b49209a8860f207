"""What a command answers: pages to show, a short message, choices to offer."""
from __future__ import annotations

from dataclasses import dataclass, field

from bot.pages import Page


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

    def as_text(self, page: int = 0) -> str:
        parts = []
        if self.content:
            parts.append(self.content)
        if self.pages:
            parts.append(self.pages[page].as_text())
        if self.choices:
            parts.append("\n".join(f"  • {c.label}" for c in self.choices))
        return "\n\n".join(parts)
