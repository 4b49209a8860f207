"""Unexpected errors in any interaction — command, button, select, modal, autocomplete: the user gets
a short private message in their language with a reference id, the log gets the traceback with the
same id; never a traceback in Discord, never an interaction left without an answer."""
from __future__ import annotations

import functools
import logging
import uuid

import discord

from bot.i18n import messages
from bot.languages import language_for_locale

log = logging.getLogger("wayfinder.errors")


def new_reference() -> str:
    return uuid.uuid4().hex[:8]


def _log_failure(what: str, reference: str, error: BaseException) -> None:
    log.error("%s failed (reference %s)", what, reference, exc_info=(type(error), error, error.__traceback__))


async def messages_even_now(interaction: discord.Interaction):
    """The reader's messages when something has failed: if the settings are what failed, the
    user's Discord locale still says the language."""
    from bot.discord_app.views import messages_for   # views build on this module
    try:
        return await messages_for(interaction)
    except Exception:
        return messages(language_for_locale(interaction.locale.value if interaction.locale else None))


async def report_error(interaction: discord.Interaction, error: BaseException, what: str) -> str:
    """Log ``error`` with a new reference id and tell the user privately; the reference id."""
    from bot.discord_app.views import send_error   # views build on this module
    reference = new_reference()
    _log_failure(what, reference, error)
    msg = await messages_even_now(interaction)
    try:
        await send_error(interaction, msg._("Something went wrong (reference {ref}). It has been logged.",
                                            ref=reference))
    except discord.HTTPException:
        log.warning("could not tell the user about error %s", reference)
    return reference


def _item_name(item) -> str:
    return getattr(item, "custom_id", None) or type(item).__name__


class AnswersErrors:
    """For views and modals: an exception in a callback (button, select, modal submit) is answered
    like an exception in a command."""

    async def on_error(self, interaction: discord.Interaction, error: Exception, item=None, /) -> None:
        what = type(self).__name__ + (f" {_item_name(item)}" if item is not None else "")
        await report_error(interaction, error, what)


def answers_errors(callback):
    """For callbacks no view's on_error sees (dynamic items): errors are answered the same way."""
    @functools.wraps(callback)
    async def wrapper(self, interaction: discord.Interaction):
        try:
            return await callback(self, interaction)
        except Exception as error:
            await report_error(interaction, error, f"{type(self).__name__} {_item_name(self)}")
    return wrapper


def quiet_autocomplete(callback):
    """An autocomplete that fails offers an empty list (Discord shows no choices) and logs why."""
    @functools.wraps(callback)
    async def wrapper(self, interaction: discord.Interaction, current: str):
        try:
            return await callback(self, interaction, current)
        except Exception as error:
            command = interaction.command.qualified_name if interaction.command else "?"
            _log_failure(f"autocomplete for /{command}", new_reference(), error)
            return []
    return wrapper
