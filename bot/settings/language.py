"""The reply language: one rule for every front end (slash commands, inline [[card]], console)."""
from __future__ import annotations

from bot.languages import language_for_locale

AUTO = "auto"   # the server setting that leaves the choice to each reader


def reply_language(explicit: str | None = None, server: str | None = AUTO, user: str | None = None,
                   locale: str | None = None) -> str:
    """The command's own option; else the server's setting (unless "auto"); else the reader's
    own /language; else the language of the reader's Discord (or system) locale."""
    if explicit:
        return explicit
    if server and server != AUTO:
        return server
    if user:
        return user
    return language_for_locale(locale)
