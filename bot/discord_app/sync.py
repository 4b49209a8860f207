"""The slash commands are put on Discord when they changed, not at every start.

Discord keeps an application's commands until they are replaced. Putting them again at each start
would translate every name, description and choice into every language (which loads every
language's messages and Babel data) and send them all, for nothing when they are what Discord
already has, and would spend Discord's daily allowance of command updates on restarts. So a start
reckons a fingerprint of what it would send — the commands as defined, the translator's code and
what it reads (every language's compiled catalog and Babel locale data, the Babel and discord.py
versions) — and puts the commands only when it differs from the fingerprint recorded in the
settings database when they were last put there, for that application and scope (global, or the
development server). Commands changed on Discord by something else (another deployment of the same
application with its own settings database) are not noticed: its next start puts its own.
"""
from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path

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


async def sync_commands(bot, guild: discord.abc.Snowflake | None = None) -> bool:
    """Put ``bot``'s commands on Discord (globally, or for ``guild``) unless they are the ones last
    put there; whether they were put."""
    scope = "global" if guild is None else str(guild.id)
    current = fingerprint(bot.tree, guild)
    if current is not None and await bot.settings.synced_commands(bot.application_id, scope) == current:
        log.info("slash commands (%s) unchanged since they were last synced", scope)
        return False
    await bot.tree.sync(guild=guild)
    if current is not None:
        await bot.settings.record_synced_commands(bot.application_id, scope, current)
    log.info("slash commands (%s) synced", scope)
    return True
