"""The slash commands are put on Discord when they changed, not at every start.

Discord keeps an application's commands until they are replaced. Putting them again at each start
would translate every name, description and choice into every language (which loads every
language's messages and Babel data) and send them all, for nothing when they are what Discord
already has, and would spend Discord's daily allowance of command updates on restarts. So a start
reckons a fingerprint of what it would send — the commands as defined, the translator's code and
what it reads (every language's compiled catalog and Babel locale data, the Babel and discord.py
versions) — and puts the commands only when it differs from the fingerprint recorded in the
settings database when they were last put there, for that application and scope (global, or the
development server).

What Discord holds can change without this bot: another deployment of the same application (with
its own settings database) puts its own commands, someone deletes them, the application is added
to the development server again. Discord gives each command an id, and a new ``version`` whenever
the command is put again, so a start also asks Discord for the commands it holds in the scope (one
GET, a few hundred bytes; nothing is translated for it) and compares their ids and versions with
the ones Discord answered after the last sync: what is recorded is both, and a start puts the
commands when either differs. The operator can also force a sync (WAYFINDER_SYNC_COMMANDS=force).
When Discord cannot be asked, the start goes on: it syncs when the commands changed here and keeps
what Discord has otherwise.
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from pathlib import Path

import aiohttp
import babel
import discord

from bot import babel_data, i18n
from bot.languages import LANGUAGES

log = logging.getLogger(__name__)
PACKAGE = Path(__file__).resolve().parents[1]
# the code that turns a command into what Discord shows in each language
TRANSLATION_CODE = ("discord_app/translator.py", "i18n.py", "babel_data.py", "languages.py")


def fingerprint(tree: discord.app_commands.CommandTree, guild: discord.abc.Snowflake | None = None) -> str | None:
    """What a sync of ``tree``'s commands for ``guild`` (None: global) would send, in a few bytes:
    the commands as defined and everything that translates them; None when the translator's code
    cannot be read (an installation without its sources): then every start syncs."""
    digest = hashlib.sha256()

    def add(data: bytes) -> None:
        digest.update(len(data).to_bytes(8, "big"))
        digest.update(data)

    def add_file(path: Path) -> None:   # a file that may be missing: its absence is part of the fingerprint
        try:
            add(path.read_bytes())
        except FileNotFoundError:
            add(b"")

    add(f"discord.py {discord.__version__}; Babel {babel.__version__}".encode())
    commands = [command.to_dict(tree) for command in tree.get_commands(guild=guild)]
    add(json.dumps(commands, sort_keys=True, ensure_ascii=False).encode())
    try:
        for name in TRANSLATION_CODE:
            add((PACKAGE / name).read_bytes())
    except OSError:
        return None
    for lang in LANGUAGES:
        po = i18n.po_path(lang)   # the catalog's source (its .mo is compiled from it), else the .mo alone
        add_file(po if po.exists() else i18n.mo_path(lang))
        add_file(babel_data.data_path(lang))   # missing: Babel's full data is read, its version is above
    return digest.hexdigest()


def held(commands: list[dict]) -> str:
    """What Discord holds in a scope, in a few bytes: its commands' ids and versions (a version
    changes whenever a command is put again, by anyone)."""
    pairs = sorted(f"{command['id']}:{command.get('version', '')}" for command in commands)
    return hashlib.sha256(" ".join(pairs).encode()).hexdigest()


async def held_on_discord(bot, guild: discord.abc.Snowflake | None) -> str | None:
    """``held`` for the commands Discord has for ``bot``'s application in the scope; None (and one
    line in the log) when Discord cannot be asked."""
    try:
        if guild is None:
            commands = await bot.http.get_global_commands(bot.application_id)
        else:
            commands = await bot.http.get_guild_commands(bot.application_id, guild.id)
    except (discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError) as exc:
        log.warning("could not ask Discord which slash commands it holds (%s): %s",
                    "global" if guild is None else guild.id, exc)
        return None
    return held(commands)


async def sync_commands(bot, guild: discord.abc.Snowflake | None = None, force: bool = False) -> bool:
    """Put ``bot``'s commands on Discord (globally, or for ``guild``) unless they are the ones last
    put there and Discord still holds what it held then (or always, when ``force``); whether they
    were put."""
    scope = "global" if guild is None else str(guild.id)
    current = fingerprint(bot.tree, guild)
    recorded = await bot.settings.synced_commands(bot.application_id, scope)
    last, _, last_held = (recorded or "").partition("/")
    if not force and current is not None and last == current:
        now_held = await held_on_discord(bot, guild)
        if now_held is None:   # Discord could not be asked: what it held at the last sync is trusted
            log.info("slash commands (%s) unchanged since they were last synced", scope)
            return False
        if now_held == last_held:
            log.info("slash commands (%s) unchanged since they were last synced, and on Discord", scope)
            return False
        log.info("slash commands (%s) changed on Discord since they were last synced: syncing", scope)
    await bot.tree.sync(guild=guild)
    if current is not None:
        # what Discord holds now (new ids or versions): unknown when it cannot be asked, and then
        # the next start finds it differs and syncs again
        await bot.settings.record_synced_commands(bot.application_id, scope,
                                                  f"{current}/{await held_on_discord(bot, guild) or ''}")
    log.info("slash commands (%s) synced%s", scope, " (forced)" if force else "")
    return True
