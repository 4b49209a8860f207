"""/settings: server settings (Manage Server, declared and checked again at run time); /language:
the user's own reply language, open to everyone (Discord sets permissions per top-level command,
so it cannot live under /settings)."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str as _T
from discord.ext import commands

from bot.i18n import Messages
from bot.languages import AUTONYMS, LANGUAGES
from bot.settings.command import (default_deck_problem, needs_manage_server, saved_message, server_only,
                                  settings_page)
from bot.settings.language import AUTO

from bot.discord_app.translator import option_names
from bot.discord_app.views import NO_PINGS, OwnerView, context, embed, send, send_error

LANGUAGE_VALUES = [app_commands.Choice(name=_T("auto (each user's language)"), value=AUTO)] + [
    app_commands.Choice(name=_T(AUTONYMS[c], language=c), value=c) for c in LANGUAGES]
ON_OFF = [app_commands.Choice(name=_T("on"), value="on"), app_commands.Choice(name=_T("off"), value="off")]

def is_admin(interaction: discord.Interaction) -> bool:
    """Checked at run time too: server owners can open the command to everyone."""
    return interaction.guild is not None and bool(interaction.permissions.manage_guild)


class ConfirmReset(OwnerView):
    def __init__(self, interaction, msg: Messages, store):
        super().__init__(interaction, msg, timeout=60)
        self.store = store
        reset = discord.ui.Button(label=msg._("Reset"), style=discord.ButtonStyle.danger, custom_id="wf:settings:reset")
        cancel = discord.ui.Button(label=msg._("Cancel"), style=discord.ButtonStyle.secondary,
                                   custom_id="wf:settings:cancel")
        reset.callback, cancel.callback = self.reset, self.cancel
        self.add_item(reset)
        self.add_item(cancel)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if not await super().interaction_check(interaction):
            return False
        if not is_admin(interaction):
            await send_error(interaction, needs_manage_server(self.msg))
            return False
        return True

    async def reset(self, interaction: discord.Interaction) -> None:
        self.stop()
        await self.store.reset_guild(interaction.guild_id)
        await interaction.response.edit_message(content=self.msg._("Every setting of this server is back to its default."),
                                                view=None, allowed_mentions=NO_PINGS)

    async def cancel(self, interaction: discord.Interaction) -> None:
        self.stop()
        await interaction.response.edit_message(content=self.msg._("Nothing was changed."), view=None,
                                                allowed_mentions=NO_PINGS)


@app_commands.default_permissions(manage_guild=True)
class Settings(commands.GroupCog, group_name=_T("settings"), group_description=_T("Server settings")):
    def __init__(self, bot):
        self.bot = bot
        super().__init__()

    async def _guild_change(self, interaction: discord.Interaction, key: str, value) -> None:
        ctx = await context(interaction)
        if interaction.guild is None:
            await send_error(interaction, server_only(ctx.msg))
            return
        if not is_admin(interaction):
            await send_error(interaction, needs_manage_server(ctx.msg))
            return
        updated = await self.bot.settings.set_guild(interaction.guild_id, key, value)
        ctx = await context(interaction)  # the reply language may just have changed
        await send(interaction, content=saved_message(updated, key, ctx.msg), ephemeral=True)

    @app_commands.command(name=_T("show"), description=_T("Show this server's settings"))
    async def show(self, interaction: discord.Interaction) -> None:
        ctx = await context(interaction)
        if interaction.guild is None:
            await send_error(interaction, server_only(ctx.msg))
            return
        user_language = await self.bot.settings.user_language(interaction.user.id)
        await send(interaction, embed=embed(settings_page(ctx.guild, user_language, ctx.msg)), ephemeral=True)

    @app_commands.command(name=_T("reset"), description=_T("Reset this server's settings"))
    async def reset(self, interaction: discord.Interaction) -> None:
        ctx = await context(interaction)
        if interaction.guild is None or not is_admin(interaction):
            await send_error(interaction, needs_manage_server(ctx.msg))
            return
        await send(interaction, content=ctx.msg._("Reset every setting of this server?"),
                   view=ConfirmReset(interaction, ctx.msg, self.bot.settings), ephemeral=True)

    @app_commands.command(name=_T("language"), description=_T("Reply language"))
    @app_commands.describe(value=_T("The new value"))
    @app_commands.rename(**option_names("value"))
    @app_commands.choices(value=LANGUAGE_VALUES)
    async def language(self, interaction: discord.Interaction, value: app_commands.Choice[str]) -> None:
        await self._guild_change(interaction, "reply_language", value.value)

    @app_commands.command(name=_T("machine"), description=_T("Machine translations"))
    @app_commands.describe(value=_T("The new value"))
    @app_commands.rename(**option_names("value"))
    @app_commands.choices(value=[app_commands.Choice(name=_T("shown, marked"), value="show"),
                                 app_commands.Choice(name=_T("hidden (English original instead)"), value="hide")])
    async def machine(self, interaction: discord.Interaction, value: app_commands.Choice[str]) -> None:
        await self._guild_change(interaction, "machine_translations", value.value)

    @app_commands.command(name=_T("originals"), description=_T("English originals"))
    @app_commands.describe(value=_T("The new value"))
    @app_commands.rename(**option_names("value"))
    @app_commands.choices(value=[app_commands.Choice(name=_T("beside every translation"), value="beside"),
                                 app_commands.Choice(name=_T("on click"), value="click")])
    async def originals(self, interaction: discord.Interaction, value: app_commands.Choice[str]) -> None:
        await self._guild_change(interaction, "english_originals", value.value)

    @app_commands.command(name=_T("private"), description=_T("Private replies"))
    @app_commands.describe(value=_T("The new value"))
    @app_commands.rename(**option_names("value"))
    @app_commands.choices(value=ON_OFF)
    async def private(self, interaction: discord.Interaction, value: app_commands.Choice[str]) -> None:
        await self._guild_change(interaction, "private_replies", value.value == "on")

    @app_commands.command(name=_T("inline"), description=_T("Inline [[card]]"))
    @app_commands.describe(value=_T("The new value"))
    @app_commands.rename(**option_names("value"))
    @app_commands.choices(value=ON_OFF)
    async def inline(self, interaction: discord.Interaction, value: app_commands.Choice[str]) -> None:
        await self._guild_change(interaction, "inline_cards", value.value == "on")

    @app_commands.command(name=_T("deck"), description=_T("Default deck"))
    @app_commands.describe(value=_T("The new value"))
    @app_commands.rename(**option_names("value"))
    async def deck(self, interaction: discord.Interaction, value: str) -> None:
        ctx = await context(interaction)
        problem = await default_deck_problem(value, ctx.msg, self.bot.settings, interaction.guild_id)
        if problem:
            await send_error(interaction, problem)
            return
        await self._guild_change(interaction, "default_deck", value)

    @app_commands.command(name=_T("policy"), description=_T("Default choice for revealed nonland cards"))
    @app_commands.describe(value=_T("The new value"))
    @app_commands.rename(**option_names("value"))
    @app_commands.choices(value=[app_commands.Choice(name=_T("ask each time"), value="ask"),
                                 app_commands.Choice(name=_T("keep on top"), value="keep"),
                                 app_commands.Choice(name=_T("graveyard"), value="graveyard")])
    async def policy(self, interaction: discord.Interaction, value: app_commands.Choice[str]) -> None:
        await self._guild_change(interaction, "default_policy", None if value.value == "ask" else value.value)

class MyLanguage(commands.Cog):
    def __init__(self, bot):
        self.bot = bot

    @app_commands.command(name=_T("language"), description=_T("Your own reply language"))
    @app_commands.describe(value=_T("The new value"))
    @app_commands.rename(**option_names("value"))
    @app_commands.choices(value=LANGUAGE_VALUES)
    async def my_language(self, interaction: discord.Interaction, value: app_commands.Choice[str]) -> None:
        chosen = None if value.value == AUTO else value.value
        await self.bot.settings.set_user_language(interaction.user.id, chosen)
        ctx = await context(interaction)
        text = (ctx.msg._("Your language is now {language}.", language=ctx.msg.language_name(chosen)) if chosen
                else ctx.msg._("Your language now follows your Discord settings."))
        await send(interaction, content=text, ephemeral=True)


async def setup(bot) -> None:
    await bot.add_cog(Settings(bot))
    await bot.add_cog(MyLanguage(bot))
