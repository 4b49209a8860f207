"""/ruling: read the interaction, ask the core for the rulings, draw pages and buttons."""
from __future__ import annotations

from typing import Optional

import discord
from discord import app_commands
from discord.app_commands import locale_str as _T
from discord.ext import commands

from bot.matching.lookup import AUTOCOMPLETE_PREFIX, autocomplete_choices
from bot.rulings.command import ruling as ruling_command
from bot.rulings.select import MAX_SEARCH_CHARS
from bot.text import MAX_QUERY_CHARS
from bot.i18n import Messages
from bot.languages import AUTONYMS, LANGUAGES

from bot.discord_app.errors import quiet_autocomplete
from bot.discord_app.translator import option_names
from bot.discord_app.views import (Context, PagedView, choices_in_time, choices_view, context, in_time, late_rule,
                                   late_rulings, reader_language, ruling_turns, rules_select, send, update_message)

LANGUAGE_CHOICES = [app_commands.Choice(name=_T(AUTONYMS[code], language=code), value=code) for code in LANGUAGES]


class RulingPager(PagedView):
    """Previous / next page, the English originals shown or hidden, and the card's printed or Oracle
    text, for one card."""

    def __init__(self, origin: discord.Interaction, msg: Messages, cog: "Rulings", card_value: str, lang: str,
                 search: str | None, show_originals: bool, machine: str = "show"):
        super().__init__(origin, msg, ruling_turns(msg))
        self.cog, self.card_value, self.lang, self.search = cog, card_value, lang, search
        self.machine = machine
        self.show_originals = show_originals
        self.show_oracle = False

    async def load(self, interaction: discord.Interaction, **answer) -> None:
        """Ask the core for the rulings (off the event loop, deferring ``interaction`` when slow)."""
        self.reply = await in_time(interaction, ruling_command, self.cog.services, self.card_value, self.lang,
                                   search=self.search, machine=self.machine, show_originals=self.show_originals,
                                   show_oracle=self.show_oracle, **answer)
        self.rebuild()

    def rebuild(self) -> None:
        super().rebuild()
        if self.reply.data.get("translations"):
            label = self.msg._("Hide English original") if self.show_originals else self.msg._("Show English original")
            self.add_item(self._button(label, "wf:ruling:originals", self.toggle, False, discord.ButtonStyle.primary))
        if self.reply.data.get("printed_text"):
            label = self.msg._("Show printed text") if self.show_oracle else self.msg._("Show Oracle text (English)")
            self.add_item(self._button(label, "wf:ruling:oracle", self.toggle_oracle, False))
        menu = rules_select(self.cog.services, self.lang, self.msg,
                            [(c.label, c.value) for c in self.reply.choices], "wf:ruling:rule")
        if menu is not None:
            self.add_item(menu)

    async def toggle(self, interaction: discord.Interaction) -> None:
        self.show_originals = not self.show_originals
        await self.load(interaction, update=True)
        await self.redraw(interaction)

    async def toggle_oracle(self, interaction: discord.Interaction) -> None:
        self.show_oracle = not self.show_oracle
        await self.load(interaction, update=True)
        await self.redraw(interaction)


class Rulings(commands.Cog):
    def __init__(self, bot):
        self.bot = bot
        self.services = bot.services
        bot.late_answers.add(r"wf:ruling:rule", late_rule, owner=self)
        bot.late_answers.add(r"wf:pick", late_rulings, owner=self)

    def cog_unload(self) -> None:
        self.bot.late_answers.remove(self)   # unloaded, it answers nothing late

    @app_commands.command(name=_T("ruling"), description=_T("Show a card's official rulings in your language"))
    @app_commands.describe(card=_T("Card name, in any language"), language=_T("Reply language"),
                           search=_T("Only the rulings that mention this"))
    @app_commands.rename(**option_names("card", "language", "search"))
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def ruling(self, interaction: discord.Interaction, card: app_commands.Range[str, 1, MAX_QUERY_CHARS],
                     language: Optional[app_commands.Choice[str]] = None,
                     search: Optional[app_commands.Range[str, 1, MAX_SEARCH_CHARS]] = None) -> None:
        ctx = await context(interaction, language.value if language else None)
        await self.answer(interaction, interaction, card, ctx, search)

    async def answer(self, interaction: discord.Interaction, origin: discord.Interaction, card_value: str,
                     ctx: Context, search: str | None, *, edit: bool = False) -> None:
        msg, lang = ctx.msg, ctx.lang
        pager = RulingPager(origin, msg, self, card_value, lang, search, ctx.guild.english_originals == "beside",
                            ctx.guild.machine_translations)
        await pager.load(interaction, update=edit, ephemeral=ctx.guild.private_replies)
        reply = pager.reply
        if reply.pages:
            pager.card_value = AUTOCOMPLETE_PREFIX + reply.data["oracle_id"]
            view = pager if pager.children else None
            if edit:
                await update_message(interaction, content=reply.content, embed=pager.current(), view=view)
            else:
                await send(interaction, content=reply.content, embed=pager.current(), view=view,
                           ephemeral=ctx.guild.private_replies)
            return
        pager.stop()

        async def pick(select_interaction: discord.Interaction, value: str) -> None:
            await self.answer(select_interaction, origin, value, ctx, search, edit=True)

        view = choices_view(origin, msg, reply, pick)
        if edit:
            await update_message(interaction, content=reply.content, embed=None, view=view)
        else:
            await send(interaction, content=reply.content, view=view, ephemeral=view is None)

    @ruling.autocomplete("card")
    @quiet_autocomplete
    async def card_autocomplete(self, interaction: discord.Interaction, current: str):
        lang = await reader_language(interaction)
        found = await choices_in_time(interaction, autocomplete_choices, self.services.matcher, current, lang)
        return [app_commands.Choice(name=c.label, value=c.value) for c in found]


async def setup(bot) -> None:
    await bot.add_cog(Rulings(bot))
