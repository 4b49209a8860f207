"""Pages stay within Discord's embed limits whatever they are given."""
from bot.pages import (DESCRIPTION_LIMIT, FIELD_VALUE_LIMIT, FIELDS_LIMIT, TOTAL_LIMIT, Field, Page, escape, pack,
                       split_value)


def test_long_content_is_paginated_within_every_limit():
    header = Page(title="T" * 300, description="D" * 5000, footer="F")
    blocks = [[Field(f"ruling {i}", piece) for piece in split_value("word " * 600)] for i in range(40)]
    pages = pack(header, blocks, lambda page, pages: f"Page {page} of {pages}")
    assert len(pages) > 1
    for page in pages:
        assert len(page.title) <= 256 and len(page.description) <= DESCRIPTION_LIMIT
        assert len(page.fields) <= FIELDS_LIMIT
        assert all(len(f.value) <= FIELD_VALUE_LIMIT and len(f.name) <= 256 for f in page.fields)
        assert page.size() <= TOTAL_LIMIT
    assert pages[-1].footer.endswith(f"Page {len(pages)} of {len(pages)}")
    assert sum(len(p.fields) for p in pages) == sum(len(b) for b in blocks)


def test_split_value_prefers_line_and_sentence_ends():
    pieces = split_value("First sentence. " * 100)
    assert all(len(p) <= FIELD_VALUE_LIMIT for p in pieces)
    assert all(p.endswith(".") for p in pieces[:-1])


def test_escape_breaks_mentions_and_markdown():
    text = escape("@everyone **bold** <@123> <@&456> @here")
    assert "@everyone" not in text and "@here" not in text and "<@1" not in text and "**" not in text
