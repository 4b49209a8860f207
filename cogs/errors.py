"""One error handler for every app command: a short localized message with a reference id for
the user, the traceback with the same id for the log; never a traceback in Discord."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_app.errors import messages_even_now, report_error
from bot.explore.command import times_error
from bot.reply import too_long
from bot.settings.command import needs_manage_server, server_only

from bot.discord_app.views import send_error


class Errors(commands.Cog):
    def __init__(self, bot):
        self.bot = bot
        bot.tree.on_error = self.on_app_command_error

    async def on_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        msg = await messages_even_now(interaction)
        if isinstance(error, app_commands.CommandOnCooldown):
            await send_error(interaction, msg._("You are doing that too often: try again in {seconds} s.",
                                                seconds=max(1, round(error.retry_after))))
            return
        if isinstance(error, app_commands.TransformerError):
            limit = getattr(error.transformer, "max_value", None)
            text = (too_long(msg, limit)
                    if isinstance(limit, int) and isinstance(error.value, str) and len(error.value) > limit
                    else msg._("Type a card name.") if not str(error.value).strip()
                    else times_error(msg))
            await send_error(interaction, text)
            return
        if isinstance(error, app_commands.NoPrivateMessage):
            await send_error(interaction, server_only(msg))
            return
        if isinstance(error, (app_commands.MissingPermissions, app_commands.CheckFailure)):
            await send_error(interaction, needs_manage_server(msg))
            return
        original = getattr(error, "original", error)
        await report_error(interaction, original,
                           "command " + (interaction.command.qualified_name if interaction.command else "?"))


async def setup(bot) -> None:
    await bot.add_cog(Errors(bot))
