"""Resolve a card option (an autocomplete value or typed text) into a card, or explain why not."""
from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import Messages
from bot.matching import Matcher, Resolution
from bot.matching.matcher import EXACT
from bot.pages import CHOICES_LIMIT, escape
from bot.text import MAX_QUERY_CHARS, fold
from bot.reply import Choice, Reply

AUTOCOMPLETE_PREFIX = "id:"


@dataclass(frozen=True)
class Lookup:
    oracle_id: str | None
    reply: Reply | None          # set when there is no single card: the message to show
    truncated: bool = False


def resolve_card(matcher: Matcher, value: str, msg: Messages, prefer_lang: str | None = None) -> Lookup:
    """An autocomplete value ("id:<oracle id>") is taken as is; typed text goes to the matcher."""
    value = value or ""
    if value.startswith(AUTOCOMPLETE_PREFIX):
        oracle_id = value[len(AUTOCOMPLETE_PREFIX):]
        if oracle_id in matcher.index.english_name:
            return Lookup(oracle_id, None)
    result: Resolution = matcher.resolve(value, prefer_lang=prefer_lang)
    nickname = _nickname(matcher, value, result)
    if nickname is not None:
        return Lookup(nickname, None, result.truncated)
    if result.status == "one":
        return Lookup(result.best.oracle_id, None, result.truncated)
    return Lookup(None, unresolved(result, msg), result.truncated)


def unresolved(result: Resolution, msg: Messages) -> Reply:
    """What is said when typed text names no single card: none (and the names it may have meant),
    several, or nothing to look for."""
    if result.reason == "empty":
        return Reply(content=msg._("Type a card name."), error=True)
    if result.reason == "no-letters":
        return Reply(content=msg._("That name has no letters or digits in it."), error=True)
    choices = [Choice(c.label(), AUTOCOMPLETE_PREFIX + c.oracle_id) for c in result.candidates[:5]]
    if result.status == "ambiguous":
        content = msg._("Several cards match “{query}”: pick one below.", query=escape(result.query))
    else:
        content = msg._("No card named “{query}”.", query=escape(result.query))
        if choices:
            content += "\n" + msg._("Did you mean: {suggestions}?",
                                    suggestions=", ".join(escape(c.label) for c in choices))
    if result.truncated:
        content += "\n" + msg._("Your input was cut to {limit} characters.", limit=MAX_QUERY_CHARS)
    return Reply(content=content, choices=choices, error=result.status == "none", data=result.as_dict())


def _exact(result: Resolution) -> bool:
    return result.status == "one" and result.best.how == EXACT


def _nickname(matcher: Matcher, value: str, result: Resolution) -> str | None:
    """The card a community nickname stands for ("bolt" → Lightning Bolt), unless a card is
    named exactly what was typed."""
    if _exact(result):
        return None
    from bot.matching.nicknames import nickname_card   # read when a name is not exact
    target = nickname_card(value)
    card = matcher.exact(target, prefer_lang="en") if target else None
    return card.oracle_id if card else None


def autocomplete_choices(matcher: Matcher, current: str, prefer_lang: str | None) -> list[Choice]:
    """Cards for what is typed so far; a nickname's card comes right after the cards named
    exactly that ("bolt" → Lightning Bolt)."""
    from bot.matching.nicknames import nickname_card
    found = matcher.autocomplete(current, prefer_lang=prefer_lang, limit=CHOICES_LIMIT)
    choices = [Choice(c.label(), AUTOCOMPLETE_PREFIX + c.oracle_id) for c in found]
    target = nickname_card(current)
    nick = matcher.exact(target, prefer_lang="en") if target else None
    if nick:
        value = AUTOCOMPLETE_PREFIX + nick.oracle_id
        choices = [c for c in choices if c.value != value]
        exact = sum(1 for c in found if fold(c.name) == fold(current))
        choices.insert(exact, Choice(nick.label(), value))
    return choices[:CHOICES_LIMIT]
