"""/ask: a rules question in the reader's own words → the rules and rulings that decide it.
The answer comes with a menu to open any rule it cites (as /rule shows it) or a card's rulings
(as /ruling shows them), privately."""
from __future__ import annotations

import time
from typing import Optional

import discord
from discord import app_commands
from discord.app_commands import locale_str as _T
from discord.ext import commands

from bot.ask.command import CARD_VALUE, MAX_QUESTION_OPTION, RULE_VALUE, ask as ask_command
from bot.pages import CHOICE_LIMIT, CHOICES_LIMIT

from bot.discord_app.late import values
from bot.discord_app.translator import option_names
from bot.discord_app.views import ASK_WORK, OwnerView, context, embed, in_time, send, show_rule, show_rulings
from cogs.ruling import LANGUAGE_CHOICES


class AskView(OwnerView):
    """A menu of what the answer cites: a rule, or a card's rulings."""

    def __init__(self, origin: discord.Interaction, cog: "Ask", ctx, reply):
        super().__init__(origin, ctx.msg)
        self.cog, self.ctx = cog, ctx
        select = discord.ui.Select(placeholder=ctx.msg._("Open a rule or a card's rulings"), custom_id="wf:ask:open",
                                   options=[discord.SelectOption(label=c.label[:CHOICE_LIMIT],
                                                                 value=c.value[:CHOICE_LIMIT])
                                            for c in reply.choices[:CHOICES_LIMIT]])
        select.callback = self.open
        self.select = select
        self.add_item(select)

    async def open(self, interaction: discord.Interaction) -> None:
        await open_cited(interaction, self.select.values[0], self.ctx)


async def open_cited(interaction: discord.Interaction, value: str, ctx) -> None:
    """A rule or a card's rulings that an answer cites, shown privately."""
    services = interaction.client.services
    if value.startswith(RULE_VALUE):
        await show_rule(interaction, services, value[len(RULE_VALUE):], ctx.lang)
    else:
        await show_rulings(interaction, services, value[len(CARD_VALUE):], ctx)


async def late_open(interaction: discord.Interaction, match) -> None:
    """The menu of an answer from before a restart, in the language of whoever picks from it."""
    await open_cited(interaction, values(interaction)[0], await context(interaction))


class Ask(commands.Cog):
    def __init__(self, bot):
        self.bot = bot
        bot.late_answers.add(r"wf:ask:open", late_open, owner=self)

    def cog_unload(self) -> None:
        self.bot.late_answers.remove(self)   # unloaded, it answers nothing late

    @app_commands.command(name=_T("ask"), description=_T("Ask a rules question in your own words"))
    @app_commands.describe(question=_T("Your question, in any language"), language=_T("Reply language"))
    @app_commands.rename(**option_names("question", "language"))
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def ask(self, interaction: discord.Interaction,
                  question: app_commands.Range[str, 1, MAX_QUESTION_OPTION],
                  language: Optional[app_commands.Choice[str]] = None) -> None:
        asked_at = time.monotonic()
        ctx = await context(interaction, language.value if language else None)
        private = ctx.guild.private_replies
        reply = await in_time(interaction, ask_command, self.bot.services, question, ctx.lang,
                              machine=ctx.guild.machine_translations, asked_at=asked_at, ephemeral=private,
                              long_work=ASK_WORK)
        view = AskView(interaction, self, ctx, reply) if reply.choices else None
        await send(interaction, content=reply.content, embed=embed(reply.pages[0]) if reply.pages else None,
                   view=view, ephemeral=private or reply.error)


async def setup(bot) -> None:
    await bot.add_cog(Ask(bot))
