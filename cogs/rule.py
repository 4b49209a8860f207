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
from bot.discord_app.views import OwnerView, choices_in_time, embed, in_time, reader_language, send, update_message


class RuleView(OwnerView):
    """Page buttons, previous / next / parent rule, and the rules the text cites."""

    def __init__(self, origin: discord.Interaction, cog: "Rules", lang: str):
        super().__init__(origin, messages(lang))
        self.cog, self.lang = cog, lang
        self.page = 0
        self.reply = None

    async def show(self, interaction: discord.Interaction, query: str, *, update: bool = False) -> None:
        """Ask the core for the rule (off the event loop, deferring ``interaction`` when slow)."""
        self.reply = await in_time(interaction, rule_command, self.cog.services, query, self.lang, update=update)
        self.page = 0
        self.rebuild()

    def rebuild(self) -> None:
        self.clear_items()
        if len(self.reply.pages) > 1:
            self.add_item(self._button("◀", "wf:rule:page-prev", self.page_prev, self.page == 0, 0))
            self.add_item(self._button("▶", "wf:rule:page-next", self.page_next,
                                       self.page >= len(self.reply.pages) - 1, 0))
        for i, choice in enumerate(self.reply.choices[:10]):
            row = 1 + i // 5
            self.add_item(self._button(choice.label[:BUTTON_LABEL_LIMIT], f"wf:rule:go:{choice.value}"[:CHOICE_LIMIT],
                                       self._go(choice.value), False, row))

    def _button(self, label, custom_id, callback, disabled, row):
        button = discord.ui.Button(label=label, custom_id=custom_id, disabled=disabled, row=row,
                                   style=discord.ButtonStyle.secondary)
        button.callback = callback
        return button

    def _go(self, value: str):
        async def callback(interaction: discord.Interaction) -> None:
            await self.show(interaction, value, update=True)
            await self.redraw(interaction)
        return callback

    async def page_prev(self, interaction):
        self.page = max(0, self.page - 1)
        self.rebuild()
        await self.redraw(interaction)

    async def page_next(self, interaction):
        self.page = min(len(self.reply.pages) - 1, self.page + 1)
        self.rebuild()
        await self.redraw(interaction)

    def current(self):
        return embed(self.reply.pages[self.page]) if self.reply.pages else None

    async def redraw(self, interaction: discord.Interaction) -> None:
        await update_message(interaction, content=self.reply.content, embed=self.current(),
                             view=self if self.children else None)


class Rules(commands.Cog):
    def __init__(self, bot):
        self.bot = bot
        self.services = bot.services

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
