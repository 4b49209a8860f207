"""The 11 message catalogs say the same things: every message in every language, translated, with
the same placeholders."""
from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from bot.i18n import LOCALES_DIR, DOMAIN
from bot.languages import BABEL_LOCALE, LANGUAGES

PLACEHOLDER = re.compile(r"{\w+}")


def catalog(lang: str):
    with open(LOCALES_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po", "rb") as fh:
        return {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m
                for m in read_po(fh, locale=BABEL_LOCALE[lang]) if m.id}


ENGLISH = catalog("en")


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_message_is_translated_with_its_placeholders(lang):
    messages = catalog(lang)
    assert set(messages) == set(ENGLISH), set(messages) ^ set(ENGLISH)
    problems = []
    for key, message in messages.items():
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set(PLACEHOLDER.findall(key[1]))
        for form in forms:
            if not form:
                problems.append(f"{key}: empty")
            elif set(PLACEHOLDER.findall(form)) - wanted - {"{count}"} or (
                    wanted - set(PLACEHOLDER.findall(form)) - {"{count}"}):
                problems.append(f"{key}: {form!r} has other placeholders")
        if message.fuzzy:
            problems.append(f"{key}: fuzzy")
    assert not problems, "\n".join(problems)
