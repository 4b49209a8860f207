"""The settings in a SQLite file, through aiosqlite: one process, or several on one host.

WAL journal (readers never wait for the writer), a busy timeout (writers from several processes
queue), synchronous=FULL (a commit is on disk before it returns). The schema version is kept in
PRAGMA user_version. A file that is not a database, or a damaged one, stops start-up with a
message that names it; it is never overwritten. Every write is one BEGIN IMMEDIATE … COMMIT
transaction: it holds the write lock from its first statement, so a check and the write it guards
(the deck limit) see the same database in every process.
"""
from __future__ import annotations

import asyncio
import sqlite3
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from bot.i18n import Note
from bot.settings.store import (MAX_DECKS_PER_GUILD, SETTING_COLUMNS, TABLES, GuildSettings, SettingsError,
                                SettingsStore, too_many_decks)

_SETTINGS = ", ".join(SETTING_COLUMNS)


def statements(script: str) -> list[str]:
    """A migration script cut into its statements (sqlite3 runs one at a time inside a transaction)."""
    found, buffer = [], ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                found.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        found.append(buffer.strip())
    return found


class SqliteSettingsStore(SettingsStore):
    dialect = "sqlite"

    def __init__(self, db: aiosqlite.Connection, path: Path, folder: Path):
        super().__init__(str(path), folder)
        self.db = db
        self.path = path
        self._write = asyncio.Lock()   # one transaction at a time on this connection

    @classmethod
    async def connect(cls, target, folder):
        path = Path(target)
        if path.is_dir():
            raise SettingsError(Note("{path} is a folder, not a settings database: name a file in it", path=path))
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.exists() and path.stat().st_size:
                with open(path, "rb") as fh:
                    if fh.read(16) != b"SQLite format 3\x00":
                        raise SettingsError(Note("{path} is not a SQLite database (it is left untouched)", path=path))
        except OSError as exc:
            raise SettingsError(Note("{path} cannot be opened as a settings database: {error}", path=path,
                                     error=exc.strerror or exc)) from exc
        try:
            # isolation_level=None: the store opens and commits its own transactions
            db = await aiosqlite.connect(path, timeout=10, isolation_level=None)
            db.row_factory = sqlite3.Row
        except sqlite3.DatabaseError as exc:
            raise SettingsError(Note("{path} cannot be opened as a settings database: {error}", path=path, error=exc)) from exc
        try:
            await db.execute("PRAGMA busy_timeout = 10000")
            row = await (await db.execute("PRAGMA quick_check")).fetchone()
            if row[0] != "ok":
                raise SettingsError(Note("{path} is damaged ({problem}); it is left untouched", path=path, problem=row[0]))
            store = cls(db, path, folder)
            status = await store.status()
            if status.version <= status.latest:   # a newer file is refused untouched
                await _wal(db)
            await db.execute("PRAGMA synchronous = FULL")
            await db.execute("PRAGMA foreign_keys = ON")
        except sqlite3.DatabaseError as exc:
            await db.close()
            raise SettingsError(Note("{path} cannot be opened as a settings database: {error}", path=path, error=exc)) from exc
        except BaseException:
            await db.close()
            raise
        return store

    async def schema_version(self) -> int:
        return (await (await self.db.execute("PRAGMA user_version")).fetchone())[0]

    @asynccontextmanager
    async def _transaction(self):
        async with self._write:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            await self.db.execute("COMMIT")

    async def _apply(self, number: int, script: str) -> bool:
        try:
            async with self._transaction() as db:
                if await self.schema_version() >= number:   # another process applied it meanwhile
                    return False
                for statement in statements(script):
                    await db.execute(statement)
                await db.execute(f"PRAGMA user_version = {int(number)}")
                return True
        except sqlite3.DatabaseError as exc:
            raise SettingsError(Note("{target}: migration {number} failed ({error}); nothing of it was applied",
                                     target=self.path, number=f"{number:03d}", error=exc)) from exc

    async def close(self) -> None:
        await self.db.close()

    # -- guild settings ----------------------------------------------------------------------

    async def guild(self, guild_id: int | None) -> GuildSettings:
        if guild_id is None:
            return GuildSettings()
        row = await (await self.db.execute(f"SELECT {_SETTINGS} FROM guild_settings WHERE guild_id = ?",
                                           (guild_id,))).fetchone()
        return GuildSettings.from_row(row)

    async def _upsert_guild(self, guild_id: int, key: str, value) -> GuildSettings:
        async with self._transaction() as db:
            cursor = await db.execute(
                f"INSERT INTO guild_settings (guild_id, {key}) VALUES (?, ?) ON CONFLICT (guild_id)"
                f" DO UPDATE SET {key} = excluded.{key}, updated_at = datetime('now') RETURNING {_SETTINGS}",
                (guild_id, value))
            rows = await cursor.fetchall()
        return GuildSettings.from_row(rows[0])

    async def reset_guild(self, guild_id: int) -> None:
        async with self._transaction() as db:
            await db.execute("DELETE FROM guild_settings WHERE guild_id = ?", (guild_id,))

    # -- user settings -----------------------------------------------------------------------

    async def user_language(self, user_id: int) -> str | None:
        row = await (await self.db.execute("SELECT language FROM user_settings WHERE user_id = ?",
                                           (user_id,))).fetchone()
        return row[0] if row else None

    async def _upsert_user_language(self, user_id: int, language: str | None) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO user_settings (user_id, language) VALUES (?, ?) ON CONFLICT (user_id)"
                " DO UPDATE SET language = excluded.language, updated_at = datetime('now')", (user_id, language))

    # -- decks -------------------------------------------------------------------------------

    async def save_deck(self, guild_id: int, name: str, text: str, cards: int, user_id: int) -> None:
        async with self._transaction() as db:
            count = (await (await db.execute("SELECT count(*) FROM decks WHERE guild_id = ? AND name != ?",
                                             (guild_id, name))).fetchone())[0]
            if count >= MAX_DECKS_PER_GUILD:
                raise too_many_decks()
            await db.execute(
                "INSERT INTO decks (guild_id, name, list, cards, saved_by) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id, name) DO UPDATE SET list = excluded.list, cards = excluded.cards,"
                " saved_by = excluded.saved_by, saved_at = datetime('now')", (guild_id, name, text, cards, user_id))

    async def deck(self, guild_id: int, name: str) -> str | None:
        row = await (await self.db.execute("SELECT list FROM decks WHERE guild_id = ? AND name = ?",
                                           (guild_id, name))).fetchone()
        return row[0] if row else None

    async def deck_names(self, guild_id: int) -> list[str]:
        rows = await (await self.db.execute("SELECT name FROM decks WHERE guild_id = ? ORDER BY name",
                                            (guild_id,))).fetchall()
        return [r[0] for r in rows]

    async def delete_deck(self, guild_id: int, name: str) -> bool:
        async with self._transaction() as db:
            cursor = await db.execute("DELETE FROM decks WHERE guild_id = ? AND name = ?", (guild_id, name))
            return cursor.rowcount > 0

    # -- the slash commands on Discord ------------------------------------------------------

    async def synced_commands(self, application_id: int, scope: str) -> str | None:
        row = await (await self.db.execute("SELECT fingerprint FROM synced_commands WHERE application_id = ?"
                                           " AND scope = ?", (application_id, scope))).fetchone()
        return row[0] if row else None

    async def record_synced_commands(self, application_id: int, scope: str, fingerprint: str) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO synced_commands (application_id, scope, fingerprint) VALUES (?, ?, ?)"
                " ON CONFLICT (application_id, scope) DO UPDATE SET fingerprint = excluded.fingerprint,"
                " synced_at = datetime('now')", (application_id, scope, fingerprint))

    # -- copies ------------------------------------------------------------------------------

    async def rows(self, table: str) -> list[dict]:
        columns = TABLES[table]
        cursor = await self.db.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {columns[0]}, {columns[1]}")
        return [dict(zip(columns, row)) for row in await cursor.fetchall()]

    async def insert_rows(self, table: str, rows: list[dict]) -> None:
        """Add exported rows (a logical export from another backend) in one transaction."""
        columns = TABLES[table]
        async with self._transaction() as db:
            await db.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                                 [tuple(row[c] for c in columns) for row in rows])

    async def backup(self, target: Path | str) -> str:
        """A consistent copy of the live database (SQLite's online backup)."""
        target = Path(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        dest = await aiosqlite.connect(target)
        try:
            await self.db.backup(dest)
        finally:
            await dest.close()
        return Note("a copy of {source} (SQLite's online backup)", source=self.path)


async def _wal(db, attempts: int = 200) -> None:
    """Switch the file to WAL. Processes opening a new file at the same moment can find it locked
    for the switch, which SQLite reports at once rather than through the busy timeout: try again
    for a while (about 10 s) before calling the file unusable."""
    for attempt in range(attempts):
        try:
            mode = (await (await db.execute("PRAGMA journal_mode = WAL")).fetchone())[0]
            if mode.lower() == "wal":
                return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == attempts - 1:
                raise
        await asyncio.sleep(0.05)
