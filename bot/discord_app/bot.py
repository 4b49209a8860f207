"""The discord.py bot: a Bot subclass that loads the cogs, translates commands and syncs them."""
from __future__ import annotations

import asyncio
import gc
import logging
import sys

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Config
from bot.i18n import Note
from bot.services import Services
from bot.settings.store import SettingsStore
from bot.discord_app.late import LateAnswers, waited_for
from bot.discord_app.sync import sync_commands
from bot.discord_app.translator import WayfinderTranslator

log = logging.getLogger(__name__)

# seconds after READY before the warm-up starts: it would share the CPU (and the interpreter's
# lock) with the first commands, those sent while the bot was starting, whose answers on a loaded
# machine it could push past Discord's 3 seconds
WARM_UP_AFTER = 5.0
# How long a thread doing Python work (a command's catalog work, a chart, the warm-up) may keep the
# interpreter lock while the event loop waits for it: Python's default is 5 ms, and the loop gives
# the lock up at every socket operation, so under load it waited up to 5 ms per operation.
SWITCH_INTERVAL = 0.001
EXTENSIONS = ("cogs.errors", "cogs.ruling", "cogs.rule", "cogs.explore", "cogs.settings", "cogs.inline", "cogs.ask")


class WayfinderBot(commands.AutoShardedBot):
    def __init__(self, services: Services, **client_options):
        config = services.config
        intents = discord.Intents.none()
        intents.guilds = True
        if config.message_content:
            intents.guild_messages = True
            intents.message_content = True
        options = dict(
            command_prefix=commands.when_mentioned,
            intents=intents,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
        )
        if config.shard_count:
            options["shard_count"] = config.shard_count
        if config.shard_ids:
            options["shard_ids"] = list(config.shard_ids)
        options.update(client_options)
        super().__init__(**options)
        self.services = services
        self.settings: SettingsStore | None = None
        self.warming: asyncio.Task | None = None   # the background warm-up under way (warm_up)
        self._warm_work: asyncio.Future | None = None
        self.late_answers = LateAnswers()   # what the cogs answer to components and forms nothing waits for
        self._late: set[asyncio.Task] = set()

    async def open_settings(self) -> None:
        """Open the settings database (migrated, or refused with SettingsError), once."""
        if self.settings is None:
            self.settings = await SettingsStore.open(self.services.config.settings_path)
            log.info("settings in %s", self.settings.target)

    async def setup_hook(self) -> None:
        sys.setswitchinterval(SWITCH_INTERVAL)
        await self.open_settings()
        await self.tree.set_translator(WayfinderTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        # before READY: the catalog and the name index, which every first command reads
        await asyncio.to_thread(lambda: self.services.matcher)
        config = self.services.config
        # one process syncs the commands: the one running shard 0 (every process, without sharding);
        # only when they changed since they were last put on Discord (bot.discord_app.sync)
        if config.sync_commands != "0" and (config.shard_ids is None or 0 in config.shard_ids):
            force = config.sync_commands == "force"
            await sync_commands(self, force=force)
            guild_id = self.services.config.dev_guild_id
            if guild_id:
                guild = discord.Object(guild_id)
                self.tree.copy_global_to(guild=guild)
                await sync_commands(self, guild, force=force)
        # every language's messages and Babel data, the rules and the /ask index are made ready
        # after READY, in the background (on_ready); a command that comes first loads what it reads
        if config.refresh_hours > 0:
            self._refresher = asyncio.create_task(self._refresh_every(config.refresh_hours * 3600))
        resume_collector()

    def dispatch(self, event_name: str, /, *args, **kwargs) -> None:
        super().dispatch(event_name, *args, **kwargs)
        # discord.py has just dispatched it to its views, dynamic items and forms: when none waits
        # for it (a message from before a restart, a form past its hour), it is answered late
        if event_name == "interaction" and not waited_for(self, args[0]):
            task = asyncio.create_task(self.late_answers.answer(args[0]))
            self._late.add(task)
            task.add_done_callback(self._late.discard)

    async def on_ready(self) -> None:
        if self.warming is None:   # READY comes again after a reconnection: once is enough
            self.warm_up()

    def warm_up(self) -> asyncio.Task:
        """What the first uses would otherwise pay for, made ready in the background off the event
        loop, after READY (the start is not made slower) and again after a refresh: every
        language's messages and Babel data, the rules book, which an autocomplete (it cannot be
        deferred) needs within Discord's 3 seconds, then the /ask index (Services.warm_up). One warm-up at a time: a new one starts when the one under
        way has ended."""
        previous = self.warming

        async def warm() -> None:
            if previous is not None:
                await asyncio.gather(previous, return_exceptions=True)
            else:   # the first moments after READY are the first commands'
                await asyncio.sleep(WARM_UP_AFTER)
            self._warm_work = asyncio.ensure_future(asyncio.to_thread(self.services.warm_up))
            try:
                await asyncio.shield(self._warm_work)   # close() waits for the work, not for the delay
            except Exception:   # what was not read now is read when first used, as without a warm-up
                log.warning("warming up failed; the first uses will read what they need", exc_info=True)

        self.warming = asyncio.create_task(warm())
        return self.warming

    async def _refresh_every(self, seconds: float) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await self.refresh_data()
            except Exception:        # a failed refresh keeps the data the bot has; the next one tries again
                log.exception("data refresh failed; still answering from %s", self.services.config.catalog_path)

    async def refresh_data(self) -> bool:
        """Bring the catalog up to date off the event loop; answers go on from the old one meanwhile."""
        refreshed = await asyncio.to_thread(self.services.refresh)
        if refreshed:
            self.warm_up()
        return refreshed

    async def close(self) -> None:
        refresher = getattr(self, "_refresher", None)
        if refresher is not None:
            refresher.cancel()
        if self.warming is not None:
            self.warming.cancel()
        await asyncio.to_thread(self.services.stop_background)
        if self._warm_work is not None:   # it reads the catalog, which is closed below
            await asyncio.gather(self._warm_work, return_exceptions=True)
        await super().close()
        if getattr(self, "settings", None) is not None:
            await self.settings.close()
            self.settings = None
        await asyncio.to_thread(self.services.close)


def create_bot(services: Services | None = None, **client_options) -> WayfinderBot:
    """The bot, configured from environment variables; keyword arguments go to commands.Bot."""
    return WayfinderBot(services or Services(Config.from_env()), **client_options)


def resume_collector() -> None:
    """The start (the modules imported, the cogs, the catalogs, the command tree) makes objects
    that live as long as the bot and next to no garbage, so `wayfinder` pauses Python's cyclic
    garbage collector while it runs: collections would walk every object made so far, again and
    again, for nothing. Once the bot is set up, what was made is set aside for good (gc.freeze: no
    collection walks it again) and collections resume for what comes next."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


class StartError(Exception):
    """The bot could not start (Discord refused it, or cannot be reached): its note says why, in
    the operator's language (bot.i18n.said)."""


def start_refusal(exc: BaseException) -> Note | None:
    """Why Discord would not let the bot start, as one line; None for anything else."""
    if isinstance(exc, discord.LoginFailure):
        return Note("Discord refused the token in DISCORD_TOKEN: copy the bot's token again from the"
                    " Discord developer portal (Bot, Reset Token)")
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return Note("Discord refused the message content intent the bot asks for (WAYFINDER_MESSAGE_CONTENT=1):"
                    " turn it on in the Discord developer portal (Bot, Privileged Gateway Intents), or unset"
                    " WAYFINDER_MESSAGE_CONTENT")
    if isinstance(exc, aiohttp.ClientConnectorDNSError):
        reason = Note("its name {host} could not be resolved", host=exc.host)
    elif isinstance(exc, aiohttp.ClientConnectorCertificateError):
        reason = Note("no certificate authority this system trusts vouches for its certificate")
    elif isinstance(exc, aiohttp.ClientSSLError):
        reason = Note("the secure connection failed")
    elif isinstance(exc, (asyncio.TimeoutError, aiohttp.ServerTimeoutError)):
        reason = Note("it did not answer in time")
    elif isinstance(exc, ConnectionRefusedError) or isinstance(getattr(exc, "os_error", None), ConnectionRefusedError):
        reason = Note("the connection was refused")
    elif isinstance(exc, (aiohttp.ClientConnectionError, ConnectionError)):   # not a file's OSError
        reason = Note("the connection failed")
    else:
        return None
    return Note("Discord cannot be reached ({reason}): the bot did not start; check the network and start it again",
                reason=reason)


def run_bot(config: Config) -> int:
    """Run the bot until Ctrl-C. A settings database that cannot be used raises SettingsError, and
    Discord refusing the bot or out of reach raises StartError, before or instead of the start."""
    bot = create_bot(Services(config))

    async def run() -> None:   # as discord.py's Client.run, the settings opened first
        async with bot:
            await bot.open_settings()   # migrated, or refused, before Discord is reached
            await bot.start(config.token)

    try:   # refused by the command line, in its language: SettingsError, StartError
        asyncio.run(run())
    except KeyboardInterrupt:   # Ctrl-C: the bot has closed
        pass
    except Exception as exc:
        why = start_refusal(exc)
        if why is None:
            raise
        raise StartError(why) from exc
    finally:
        resume_collector()   # a bot that stopped before it was set up
    return 0


__all__ = ["StartError", "WayfinderBot", "app_commands", "create_bot", "run_bot"]
