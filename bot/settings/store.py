"""Per-guild and per-user settings and saved decks, in SQLite through aiosqlite.

WAL journal, a busy timeout, versioned migrations (data/migrations/NNN_name.sql, applied in order
at start-up, the version kept in PRAGMA user_version). A database newer than the code, or a file
that is not a database, stops start-up with a message that names it; it is never overwritten.
Every write is one transaction, committed (synchronous=FULL) before it is acknowledged.
"""
from __future__ import annotations

import asyncio
import re
import sqlite3
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

import aiosqlite

from bot.config import DATA_DIR
from bot.languages import LANGUAGES

MIGRATIONS_DIR = DATA_DIR / "migrations"
_MIGRATION = re.compile(r"^(\d{3})_[\w-]+\.sql$")
MAX_DECKS_PER_GUILD = 50
MAX_DECK_NAME = 40


class SettingsError(Exception):
    """The settings database cannot be used; the message names the file."""


@dataclass(frozen=True)
class GuildSettings:
    reply_language: str = "auto"
    machine_translations: str = "show"
    english_originals: str = "click"
    private_replies: bool = False
    inline_cards: bool = False
    default_deck: str | None = None
    default_policy: str | None = None


# what each setting accepts (None: free text, checked elsewhere)
ALLOWED = {
    "reply_language": ("auto",) + LANGUAGES,
    "machine_translations": ("show", "hide"),
    "english_originals": ("click", "beside"),
    "private_replies": (True, False),
    "inline_cards": (True, False),
    "default_deck": None,
    "default_policy": (None, "keep", "graveyard"),
}


def migrations(folder: Path = MIGRATIONS_DIR) -> list[tuple[int, Path]]:
    found = []
    for path in sorted(folder.glob("*.sql")):
        match = _MIGRATION.match(path.name)
        if match:
            found.append((int(match.group(1)), path))
    return found


class SettingsStore:
    def __init__(self, db: aiosqlite.Connection, path: Path):
        self.db = db
        self.path = path
        self._guilds: dict[int, GuildSettings] = {}
        self._users: dict[int, str | None] = {}
        self._write = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str, folder: Path = MIGRATIONS_DIR) -> "SettingsStore":
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and path.stat().st_size:
            with open(path, "rb") as fh:
                if fh.read(16) != b"SQLite format 3\x00":
                    raise SettingsError(f"{path} is not a SQLite database (it is left untouched)")
        try:
            db = await aiosqlite.connect(path, timeout=10)
            await db.execute("PRAGMA busy_timeout = 10000")
            row = await (await db.execute("PRAGMA quick_check")).fetchone()
            if row[0] != "ok":
                await db.close()
                raise SettingsError(f"{path} is damaged ({row[0]}); it is left untouched")
            version = (await (await db.execute("PRAGMA user_version")).fetchone())[0]
            known = migrations(folder)
            latest = known[-1][0] if known else 0
            if version > latest:   # checked before anything is written to the file
                await db.close()
                raise SettingsError(f"{path} has schema version {version}, newer than this code knows ({latest});"
                                    " it is left untouched — run a newer Wayfinder")
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = FULL")
            await db.execute("PRAGMA foreign_keys = ON")
        except sqlite3.DatabaseError as exc:
            raise SettingsError(f"{path} cannot be opened as a settings database: {exc}") from exc
        store = cls(db, path)
        await store._migrate(known, version)
        return store

    async def _migrate(self, known: list[tuple[int, Path]], version: int) -> None:
        for number, path in known:
            if number <= version:
                continue
            script = path.read_text(encoding="utf-8")
            await self.db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")

    async def schema_version(self) -> int:
        return (await (await self.db.execute("PRAGMA user_version")).fetchone())[0]

    async def close(self) -> None:
        await self.db.close()

    # -- guild settings ----------------------------------------------------------------------

    async def guild(self, guild_id: int | None) -> GuildSettings:
        if guild_id is None:
            return GuildSettings()
        cached = self._guilds.get(guild_id)
        if cached is not None:
            return cached
        names = [f.name for f in fields(GuildSettings)]
        row = await (await self.db.execute(
            f"SELECT {', '.join(names)} FROM guild_settings WHERE guild_id = ?", (guild_id,))).fetchone()
        settings = GuildSettings() if row is None else GuildSettings(**{
            n: bool(v) if n in ("private_replies", "inline_cards") else v for n, v in zip(names, row)})
        self._guilds[guild_id] = settings
        return settings

    def cached_guild(self, guild_id: int | None) -> GuildSettings:
        return self._guilds.get(guild_id, GuildSettings()) if guild_id else GuildSettings()

    async def set_guild(self, guild_id: int, key: str, value) -> GuildSettings:
        if key not in ALLOWED:
            raise ValueError(f"unknown setting {key!r}")
        allowed = ALLOWED[key]
        if allowed is not None and value not in allowed:
            raise ValueError(f"{key} must be one of {allowed}")
        async with self._write:
            await self.db.execute("INSERT OR IGNORE INTO guild_settings(guild_id) VALUES (?)", (guild_id,))
            await self.db.execute(f"UPDATE guild_settings SET {key} = ?, updated_at = datetime('now')"
                                  " WHERE guild_id = ?", (value, guild_id))
            await self.db.commit()
        current = await self.guild(guild_id)
        updated = replace(current, **{key: value})
        self._guilds[guild_id] = updated
        return updated

    async def reset_guild(self, guild_id: int) -> None:
        async with self._write:
            await self.db.execute("DELETE FROM guild_settings WHERE guild_id = ?", (guild_id,))
            await self.db.commit()
        self._guilds.pop(guild_id, None)

    # -- user settings -----------------------------------------------------------------------

    async def user_language(self, user_id: int) -> str | None:
        if user_id in self._users:
            return self._users[user_id]
        row = await (await self.db.execute("SELECT language FROM user_settings WHERE user_id = ?",
                                           (user_id,))).fetchone()
        self._users[user_id] = row[0] if row else None
        return self._users[user_id]

    async def set_user_language(self, user_id: int, language: str | None) -> None:
        if language is not None and language not in LANGUAGES:
            raise ValueError(f"language must be one of {LANGUAGES}")
        async with self._write:
            await self.db.execute(
                "INSERT INTO user_settings(user_id, language) VALUES (?, ?) ON CONFLICT(user_id)"
                " DO UPDATE SET language = excluded.language, updated_at = datetime('now')", (user_id, language))
            await self.db.commit()
        self._users[user_id] = language

    # -- decks -------------------------------------------------------------------------------

    async def save_deck(self, guild_id: int, name: str, text: str, cards: int, user_id: int) -> None:
        async with self._write:
            count = (await (await self.db.execute("SELECT count(*) FROM decks WHERE guild_id = ? AND name != ?",
                                                  (guild_id, name))).fetchone())[0]
            if count >= MAX_DECKS_PER_GUILD:
                raise ValueError(f"at most {MAX_DECKS_PER_GUILD} saved decks per server")
            await self.db.execute(
                "INSERT INTO decks(guild_id, name, list, cards, saved_by) VALUES (?,?,?,?,?)"
                " ON CONFLICT(guild_id, name) DO UPDATE SET list = excluded.list, cards = excluded.cards,"
                " saved_by = excluded.saved_by, saved_at = datetime('now')", (guild_id, name, text, cards, user_id))
            await self.db.commit()

    async def deck(self, guild_id: int, name: str) -> str | None:
        row = await (await self.db.execute("SELECT list FROM decks WHERE guild_id = ? AND name = ?",
                                           (guild_id, name))).fetchone()
        return row[0] if row else None

    async def deck_names(self, guild_id: int) -> list[str]:
        rows = await (await self.db.execute("SELECT name FROM decks WHERE guild_id = ? ORDER BY name",
                                            (guild_id,))).fetchall()
        return [r[0] for r in rows]

    async def delete_deck(self, guild_id: int, name: str) -> bool:
        async with self._write:
            cur = await self.db.execute("DELETE FROM decks WHERE guild_id = ? AND name = ?", (guild_id, name))
            await self.db.commit()
        return cur.rowcount > 0

    # -- backup ------------------------------------------------------------------------------

    async def backup(self, target: Path | str) -> None:
        """A consistent copy of the live database (SQLite's online backup)."""
        target = Path(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        dest = await aiosqlite.connect(target)
        try:
            await self.db.backup(dest)
        finally:
            await dest.close()

    def as_dict(self, settings: GuildSettings) -> dict:
        return asdict(settings)
