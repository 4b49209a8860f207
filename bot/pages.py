"""Discord-sized pages of content, built by the core and drawn by the cogs or the console.

A page holds what an embed holds — title, description, fields, footer — and the packer keeps
each within Discord's limits (title 256, description 4,096, field name 256, field value 1,024,
25 fields, 6,000 characters in all).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.text import clip

TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
FIELD_NAME_LIMIT = 256
FIELD_VALUE_LIMIT = 1024
FIELDS_LIMIT = 25
TOTAL_LIMIT = 6000
FOOTER_LIMIT = 2048
CHOICE_LIMIT = 100     # a menu option's or an autocomplete choice's label and value; a custom id
CHOICES_LIMIT = 25     # the options of a menu, the choices of an autocomplete
CONTENT_LIMIT = 2000   # a message's text
BUTTON_LABEL_LIMIT = 80
MODAL_LABEL_LIMIT = 45  # a modal's title, a text input's label
# what one page aims for: well within the limits, and readable on a phone
PAGE_CHARS = 3500
PAGE_FIELDS = 8

_MARKDOWN = re.compile(r"([\\*_~`|>#\[\]])")
_MENTION = re.compile(r"@(everyone|here|[!&]?\d+)")


def escape(text: str) -> str:
    """User text shown back: markdown neutralised, mentions broken with a zero-width space."""
    text = _MARKDOWN.sub(r"\\\1", text)
    text = _MENTION.sub("@\u200b\\1", text)
    return text.replace("<@", "<@\u200b").replace("<#", "<#\u200b")


@dataclass
class Field:
    name: str
    value: str
    inline: bool = False


@dataclass
class Page:
    title: str = ""
    description: str = ""
    fields: list[Field] = field(default_factory=list)
    footer: str = ""
    url: str | None = None
    thumbnail: str | None = None
    color: int | None = None

    def size(self) -> int:
        return len(self.title) + len(self.description) + len(self.footer) + sum(
            len(f.name) + len(f.value) for f in self.fields)

    def as_text(self) -> str:
        """The page as plain text, for the console and the CLI."""
        parts = [self.title] if self.title else []
        if self.description:
            parts.append(self.description)
        for f in self.fields:
            parts.append(f"— {f.name}\n{f.value}")
        if self.footer:
            parts.append(f"[{self.footer}]")
        return "\n\n".join(parts)

    def as_dict(self) -> dict:
        return {"title": self.title, "description": self.description,
                "fields": [{"name": f.name, "value": f.value} for f in self.fields],
                "footer": self.footer, "thumbnail": self.thumbnail}


def split_value(text: str, limit: int = FIELD_VALUE_LIMIT) -> list[str]:
    """Cut a long text at sentence or word boundaries into pieces that fit a field value."""
    pieces = []
    while len(text) > limit:
        cut = text.rfind("\n", 0, limit - 1)
        if cut <= limit // 2:
            cut = text.rfind(". ", 0, limit - 1) + 1
        if cut <= limit // 2:
            cut = text.rfind(" ", 0, limit - 1)
        cut = cut if cut > limit // 2 else limit - 1
        pieces.append(text[:cut].rstrip())
        text = text[cut:].lstrip()
    pieces.append(text)
    return pieces


def pack(header: Page, blocks: list[list[Field]], page_label=None) -> list[Page]:
    """Lay blocks of fields (a block stays together) onto pages that copy ``header``.

    ``page_label(page, pages)`` gives the footer suffix ("Page 2 of 3").
    """
    pages: list[Page] = []

    def new_page() -> Page:
        # the description (card text, notes) opens the first page; later pages carry the title only
        description = clip(header.description, DESCRIPTION_LIMIT) if not pages else ""
        return Page(clip(header.title, TITLE_LIMIT), description, [], header.footer, header.url,
                    header.thumbnail, header.color)

    page = new_page()
    for block in blocks:
        block = [Field(clip(f.name, FIELD_NAME_LIMIT), clip(f.value, FIELD_VALUE_LIMIT), f.inline) for f in block]
        block_size = sum(len(f.name) + len(f.value) for f in block)
        too_many = len(page.fields) + len(block) > min(PAGE_FIELDS, FIELDS_LIMIT)
        too_long = page.size() + block_size > (PAGE_CHARS if page.fields else TOTAL_LIMIT - 100)
        if (page.fields or page.description) and (too_many or too_long):
            pages.append(page)
            page = new_page()
        page.fields.extend(block)
    pages.append(page)
    if len(pages) > 1 and page_label:
        for number, p in enumerate(pages, start=1):
            label = page_label(number, len(pages))
            p.footer = clip(f"{p.footer} · {label}" if p.footer else label, FOOTER_LIMIT)
    return pages
