"""The settings in PostgreSQL, through asyncpg: several processes on several hosts share them.

WAYFINDER_SETTINGS_DB=postgresql://user:password@host:5432/database (the password is never shown).
The schema version is kept in the table wayfinder_schema; migrations run in one transaction each
under an advisory lock, so processes starting together apply each once. Every write is one
statement (an upsert) or one transaction, committed (synchronous_commit as the server sets it,
`on` by default) before asyncpg returns, so before the bot acknowledges it.
"""
from __future__ import annotations

import asyncio
from datetime import datetime, timezone
from pathlib import Path

import asyncpg

from bot.config import shown
from bot.i18n import Note
from bot.settings.store import (MAX_DECKS_PER_GUILD, SETTING_COLUMNS, TABLES, GuildSettings, SettingsError,
                                SettingsStore, too_many_decks)

MIGRATION_LOCK = 0x5761_7966_696E_6472   # the advisory lock held while migrating
_SETTINGS = ", ".join(SETTING_COLUMNS)
_UNREACHABLE = (OSError, asyncio.TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError)


class PostgresSettingsStore(SettingsStore):
    dialect = "postgresql"

    def __init__(self, pool: asyncpg.Pool, url: str, folder: Path):
        super().__init__(shown(url), folder)
        self.pool = pool

    @classmethod
    async def connect(cls, target, folder):
        try:
            pool = await asyncpg.create_pool(str(target), min_size=1, max_size=4, timeout=10, command_timeout=30)
        except _UNREACHABLE as exc:
            raise SettingsError(Note("cannot use the settings database {target}: {error}", target=shown(target),
                                     error=shown(exc) or type(exc).__name__)) from None
        return cls(pool, str(target), folder)

    async def schema_version(self) -> int:
        async with self.pool.acquire() as con:
            return await self._version(con)

    @staticmethod
    async def _version(con) -> int:
        if await con.fetchval("SELECT to_regclass('wayfinder_schema')") is None:
            return 0
        return await con.fetchval("SELECT coalesce(max(version), 0) FROM wayfinder_schema")

    async def _apply(self, number: int, script: str) -> bool:
        async with self.pool.acquire() as con:
            # the lock is taken before the transaction starts, so that the transaction sees the
            # tables another process created while this one waited
            await con.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            try:
                async with con.transaction():
                    if await self._version(con) >= number:   # another process applied it meanwhile
                        return False
                    await con.execute(script)
                    await con.execute("CREATE TABLE IF NOT EXISTS wayfinder_schema (version INTEGER NOT NULL)")
                    await con.execute("DELETE FROM wayfinder_schema")
                    await con.execute("INSERT INTO wayfinder_schema (version) VALUES ($1)", number)
                    return True
            except asyncpg.PostgresError as exc:
                raise SettingsError(Note("{target}: migration {number} failed ({error}); nothing of it was applied",
                                         target=self.target, number=f"{number:03d}", error=exc)) from exc
            finally:
                await con.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)

    async def close(self) -> None:
        await self.pool.close()

    # -- guild settings ----------------------------------------------------------------------

    async def guild(self, guild_id: int | None) -> GuildSettings:
        if guild_id is None:
            return GuildSettings()
        return GuildSettings.from_row(await self.pool.fetchrow(
            f"SELECT {_SETTINGS} FROM guild_settings WHERE guild_id = $1", guild_id))

    async def _upsert_guild(self, guild_id: int, key: str, value) -> GuildSettings:
        return GuildSettings.from_row(await self.pool.fetchrow(
            f"INSERT INTO guild_settings (guild_id, {key}) VALUES ($1, $2) ON CONFLICT (guild_id)"
            f" DO UPDATE SET {key} = excluded.{key}, updated_at = now() RETURNING {_SETTINGS}", guild_id, value))

    async def reset_guild(self, guild_id: int) -> None:
        await self.pool.execute("DELETE FROM guild_settings WHERE guild_id = $1", guild_id)

    # -- user settings -----------------------------------------------------------------------

    async def user_language(self, user_id: int) -> str | None:
        return await self.pool.fetchval("SELECT language FROM user_settings WHERE user_id = $1", user_id)

    async def _upsert_user_language(self, user_id: int, language: str | None) -> None:
        await self.pool.execute(
            "INSERT INTO user_settings (user_id, language) VALUES ($1, $2) ON CONFLICT (user_id)"
            " DO UPDATE SET language = excluded.language, updated_at = now()", user_id, language)

    # -- decks -------------------------------------------------------------------------------

    async def save_deck(self, guild_id: int, name: str, text: str, cards: int, user_id: int) -> None:
        async with self.pool.acquire() as con, con.transaction():
            # one saver per server at a time, in every process: the count below stays true until commit
            await con.execute("SELECT pg_advisory_xact_lock(hashtextextended('wayfinder.decks.' || $1::bigint::text, 0))",
                              guild_id)
            count = await con.fetchval("SELECT count(*) FROM decks WHERE guild_id = $1 AND name <> $2", guild_id, name)
            if count >= MAX_DECKS_PER_GUILD:
                raise too_many_decks()
            await con.execute(
                "INSERT INTO decks (guild_id, name, list, cards, saved_by) VALUES ($1, $2, $3, $4, $5)"
                " ON CONFLICT (guild_id, name) DO UPDATE SET list = excluded.list, cards = excluded.cards,"
                " saved_by = excluded.saved_by, saved_at = now()", guild_id, name, text, cards, user_id)

    async def deck(self, guild_id: int, name: str) -> str | None:
        return await self.pool.fetchval("SELECT list FROM decks WHERE guild_id = $1 AND name = $2", guild_id, name)

    async def deck_names(self, guild_id: int) -> list[str]:
        rows = await self.pool.fetch("SELECT name FROM decks WHERE guild_id = $1 ORDER BY name", guild_id)
        return [r["name"] for r in rows]

    async def delete_deck(self, guild_id: int, name: str) -> bool:
        status = await self.pool.execute("DELETE FROM decks WHERE guild_id = $1 AND name = $2", guild_id, name)
        return status != "DELETE 0"

    # -- the slash commands on Discord ------------------------------------------------------

    async def synced_commands(self, application_id: int, scope: str) -> str | None:
        return await self.pool.fetchval("SELECT fingerprint FROM synced_commands WHERE application_id = $1"
                                        " AND scope = $2", application_id, scope)

    async def record_synced_commands(self, application_id: int, scope: str, fingerprint: str) -> None:
        await self.pool.execute(
            "INSERT INTO synced_commands (application_id, scope, fingerprint) VALUES ($1, $2, $3)"
            " ON CONFLICT (application_id, scope) DO UPDATE SET fingerprint = excluded.fingerprint,"
            " synced_at = now()", application_id, scope, fingerprint)

    # -- copies ------------------------------------------------------------------------------

    async def rows(self, table: str, con=None) -> list[dict]:
        columns = TABLES[table]
        query = f"SELECT {', '.join(columns)} FROM {table} ORDER BY {columns[0]}, {columns[1]}"
        return [dict(r) for r in await (con or self.pool).fetch(query)]

    async def backup(self, target: Path | str) -> str:
        """A logical export of the settings tables, read in one snapshot, into a SQLite file that
        is itself a settings database (WAYFINDER_SETTINGS_DB can name it). For the whole server,
        use PostgreSQL's own pg_dump."""
        status = await self.status()
        if status.version != status.latest:
            raise SettingsError(Note("{target} has schema version {version}, this code writes version {latest}: run"
                                     " `wayfinder db migrate` first, or back it up with pg_dump", target=self.target,
                                     version=status.version, latest=status.latest))
        async with self.pool.acquire() as con, con.transaction(isolation="repeatable_read", readonly=True):
            tables = {table: await self.rows(table, con) for table in TABLES}
        copy = await SettingsStore.open(target, self.folder)
        try:
            for table, rows in tables.items():
                await copy.insert_rows(table, [{k: _sqlite_value(v) for k, v in row.items()} for row in rows])
        finally:
            await copy.close()
        counts = ", ".join(f"{len(rows):,} rows of {table}" for table, rows in tables.items())
        return (f"a logical export of {self.target} ({counts}) as a SQLite settings database;"
                " for the whole PostgreSQL server, use pg_dump")

def _sqlite_value(value):
    if isinstance(value, datetime):
        return value.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    return value
