"""Inline [[card]]: with the server's setting on, a message naming up to three cards in double
brackets gets a compact answer — each card in the reader's language, with a button to its rulings.

It needs the message-content intent (WAYFINDER_MESSAGE_CONTENT=1); without it the listener sees
no text and does nothing. A message carries no locale of its author, so the server's Discord
locale stands in for it in the reply-language rule (bot/settings/language.py)."""
from __future__ import annotations

import asyncio

import discord
from discord.ext import commands

from bot.pages import BUTTON_LABEL_LIMIT
from bot.rulings.inline import inline_cards, inline_names

from bot.discord_app.errors import answers_errors
from bot.discord_app.views import NO_PINGS, context, reader_context, show_rulings

class RulingsButton(discord.ui.DynamicItem[discord.ui.Button], template=r"wf:inline:(?P<oracle>[0-9a-f-]{36})"):
    """Works after a restart too: the card is in the button's id."""

    def __init__(self, oracle_id: str, label: str = "Rulings"):
        super().__init__(discord.ui.Button(label=label[:BUTTON_LABEL_LIMIT], style=discord.ButtonStyle.secondary,
                                           custom_id=f"wf:inline:{oracle_id}"))
        self.oracle_id = oracle_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["oracle"])

    @answers_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        await show_rulings(interaction, interaction.client.services, self.oracle_id, await context(interaction))


class Inline(commands.Cog):
    def __init__(self, bot):
        self.bot = bot
        bot.add_dynamic_items(RulingsButton)

    def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(RulingsButton)   # unloaded, its buttons answer nothing

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or message.guild is None or not message.content:
            return
        names = inline_names(message.content)
        if not names:
            return
        locale = message.guild.preferred_locale
        ctx = await reader_context(self.bot, message.guild.id, message.author.id,
                                   locale.value if locale else None)
        if not ctx.guild.inline_cards:
            return
        reply = await asyncio.to_thread(inline_cards, self.bot.services, names, ctx.lang)
        view = discord.ui.View(timeout=None)
        for choice in reply.choices:
            view.add_item(RulingsButton(choice.value, choice.label))
        await message.reply(reply.content, view=view if view.children else None, mention_author=False,
                            allowed_mentions=NO_PINGS)


async def setup(bot) -> None:
    await bot.add_cog(Inline(bot))
