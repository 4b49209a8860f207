"""Interactions nothing is waiting for any more: a button or menu of a message sent before the bot
restarted (or whose view has ended), a form submitted after it expired. Discord would say "This
interaction failed"; instead each is answered from its custom id (and the values or text it
carries) where that is enough — a rule or a card's rulings to open, a decklist to save — and
otherwise with one line saying it expired and what to run again.

Cogs register what they can answer late (``LateAnswers.add``, as they load) and take it back as they
unload (``LateAnswers.remove``, in ``cog_unload``): an unloaded cog answers nothing, a reloaded one
answers with its new code. The bot asks ``waited_for`` as
discord.py dispatches each interaction, before any callback runs, whether a live view, dynamic
item or form will answer it."""
from __future__ import annotations

import logging
import re
from typing import Awaitable, Callable

import discord

from bot.discord_app.errors import report_error
from bot.i18n import Messages

log = logging.getLogger(__name__)

Answer = Callable[[discord.Interaction, re.Match], Awaitable[None]]


def waited_for(client: discord.Client, interaction: discord.Interaction) -> bool:
    """Whether a live view, a dynamic item or an open form answers ``interaction`` (anything but
    a component or a form submission: yes). Read from discord.py's view store, as its dispatch
    reads it; called at dispatch time, before a callback can end its view."""
    if interaction.type not in (discord.InteractionType.component, discord.InteractionType.modal_submit):
        return True
    store = getattr(getattr(client, "_connection", None), "_view_store", None)
    if store is None:
        return True      # not knowable here: left to discord.py, as before
    data = interaction.data or {}
    custom_id = data.get("custom_id", "")
    if interaction.type is discord.InteractionType.modal_submit:
        return custom_id in store._modals
    if any(pattern.fullmatch(custom_id) for pattern in store._dynamic_items):
        return True
    key = (data.get("component_type"), custom_id)
    message_id = interaction.message.id if interaction.message is not None else None
    item = store._views.get(message_id, {}).get(key) or store._views.get(None, {}).get(key)
    return item is not None and item.view is not None and not item.view.is_finished()


class LateAnswers:
    """What the bot answers to components and forms no live view waits for, by custom id."""

    def __init__(self):
        self._answers: list[tuple[re.Pattern, bool, Answer, object]] = []

    def add(self, pattern: str, answer: Answer, *, form: bool = False, owner: object = None) -> None:
        """``answer(interaction, match)`` for a component (or, with ``form``, a submitted form)
        whose whole custom id matches ``pattern``; the first added that matches answers. ``owner``:
        the cog that adds it, which takes it back with ``remove`` as it unloads."""
        self._answers.append((re.compile(pattern), form, answer, owner))

    def remove(self, owner: object) -> None:
        """Forget every answer ``owner`` added (a cog, in its ``cog_unload``)."""
        self._answers = [entry for entry in self._answers if entry[3] is not owner]

    async def answer(self, interaction: discord.Interaction) -> None:
        from bot.discord_app.views import messages_for, send_error   # views build on this module
        form = interaction.type is discord.InteractionType.modal_submit
        custom_id = (interaction.data or {}).get("custom_id", "")
        try:
            for pattern, for_form, answer, _ in self._answers:
                match = pattern.fullmatch(custom_id)
                if match is not None and for_form == form:
                    await answer(interaction, match)
                    return
            await send_error(interaction, expired(await messages_for(interaction), form))
        except Exception as error:
            await report_error(interaction, error, f"late answer to {custom_id}")


def expired(msg: Messages, form: bool) -> str:
    """The line for a form or buttons nothing answers any more."""
    return (msg._("This form has expired. Run the command again.") if form
            else msg._("These buttons have expired. Run the command again."))


def values(interaction: discord.Interaction) -> list[str]:
    """What was picked in a menu."""
    return list((interaction.data or {}).get("values") or [])


def fields(interaction: discord.Interaction) -> dict[str, str]:
    """A submitted form's text inputs, by custom id."""
    out = {}
    for row in (interaction.data or {}).get("components") or []:
        for component in row.get("components") or [row.get("component") or {}]:
            if "custom_id" in component:
                out[component["custom_id"]] = component.get("value") or ""
    return out
