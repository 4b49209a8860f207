"""Comprehensive Rules numbers: "7" (a section), "701" (a rule), "701.44" (a numbered rule),
"701.44a" (a subrule); and the values that menus carry for glossary terms ("g:Explore")."""
from __future__ import annotations

GLOSSARY_PREFIX = "g:"
MAX_QUERY = 100           # the longest /rule query read


def split_letter(number: str) -> tuple[str, str]:
    """"701.44a" → ("701.44", "a"); a number without a subrule letter → (number, "")."""
    if number and number[-1].isalpha() and "." in number:
        return number[:-1], number[-1]
    return number, ""


def is_subrule(number: str) -> bool:
    return bool(split_letter(number)[1])


def parent_number(number: str) -> str | None:
    """"701.44a" → "701.44", "701.44" → "701", "701" → "7", "7" → None."""
    if "." not in number:
        return None if len(number) == 1 else number[0]
    head, letter = split_letter(number)
    return head if letter else number.split(".", 1)[0]


def glossary_value(term: str) -> str:
    return GLOSSARY_PREFIX + term


def query_of(value: str) -> str:
    """What a menu value asks /rule: a number as it is, a glossary term without its prefix."""
    return value[len(GLOSSARY_PREFIX):] if value.startswith(GLOSSARY_PREFIX) else value
