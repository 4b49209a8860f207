"""/rule: the Comprehensive Rules, with navigation and citation buttons."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str as _T
from discord.ext import commands

from bot.pages import BUTTON_LABEL_LIMIT, CHOICE_LIMIT
from bot.rules.command import MAX_QUERY, rule as rule_command
from bot.i18n import messages

from bot.discord_app.errors import quiet_autocomplete
from bot.discord_app.translator import option_names
from bot.discord_app.views import PagedView, choices_in_time, in_time, reader_language, rule_turns, send, show_rule


class RuleView(PagedView):
    """Page buttons, previous / next / parent rule, and the rules the text cites."""

    def __init__(self, origin: discord.Interaction, cog: "Rules", lang: str):
        super().__init__(origin, messages(lang), rule_turns(messages(lang)), row=0)
        self.cog, self.lang = cog, lang

    async def show(self, interaction: discord.Interaction, query: str, *, update: bool = False) -> None:
        """Ask the core for the rule (off the event loop, deferring ``interaction`` when slow)."""
        self.reply = await in_time(interaction, rule_command, self.cog.services, query, self.lang, update=update)
        self.page = 0
        self.rebuild()

    def rebuild(self) -> None:
        super().rebuild()
        for i, choice in enumerate(self.reply.choices[:10]):
            self.add_item(self._button(choice.label[:BUTTON_LABEL_LIMIT], f"wf:rule:go:{choice.value}"[:CHOICE_LIMIT],
                                       self._go(choice.value), False, row=1 + i // 5))

    def _go(self, value: str):
        async def callback(interaction: discord.Interaction) -> None:
            await self.show(interaction, value, update=True)
            await self.redraw(interaction)
        return callback


class Rules(commands.Cog):
    def __init__(self, bot):
        self.bot = bot
        self.services = bot.services
        bot.late_answers.add(r"wf:rule:go:(?P<number>.+)", self.late_go, owner=self)

    def cog_unload(self) -> None:
        self.bot.late_answers.remove(self)   # unloaded, it answers nothing late

    async def late_go(self, interaction: discord.Interaction, match) -> None:
        """A rule's button after a restart: that rule, privately."""
        await show_rule(interaction, self.services, match["number"], await reader_language(interaction))

    @app_commands.command(name=_T("rule"), description=_T("Look up the Comprehensive Rules"))
    @app_commands.describe(query=_T("Rule number, keyword or glossary term"))
    @app_commands.rename(**option_names("query"))
    async def rule(self, interaction: discord.Interaction, query: app_commands.Range[str, 1, MAX_QUERY]) -> None:
        lang = await reader_language(interaction)
        view = RuleView(interaction, self, lang)
        await view.show(interaction, query)
        reply = view.reply
        await send(interaction, content=reply.content, embed=view.current(),
                   view=view if view.children else None, ephemeral=reply.error)
        if not view.children:
            view.stop()

    @rule.autocomplete("query")
    @quiet_autocomplete
    async def query_autocomplete(self, interaction: discord.Interaction, current: str):
        found = await choices_in_time(interaction, self.services.rules.autocomplete, current)
        return [app_commands.Choice(name=label, value=value[:CHOICE_LIMIT]) for label, value in found]


async def setup(bot) -> None:
    await bot.add_cog(Rules(bot))
