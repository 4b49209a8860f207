"""Per-guild and per-user settings and saved decks: one interface, two backends.

`WAYFINDER_SETTINGS_DB` is a SQLite file (bot/settings/sqlite.py, the default) or a
`postgresql://` URL (bot/settings/postgres.py, for several processes on several hosts). Both:

- apply the same versioned migrations (data/migrations/NNN_name.<dialect>.sql: each version is
  written once per dialect, side by side), in order, each in one transaction, under a lock so that
  processes starting together apply each once;
- check the version first: a database newer than the code stops start-up and is never touched;
- commit every write before it is acknowledged; each write is one statement (an upsert) or one
  transaction, never a read-modify-write in Python, so writers in several processes lose nothing;
- keep no cache: every read asks the database, so a change made through one process is seen by
  the others at their next read.
"""
from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, fields
from pathlib import Path

from bot.config import DATA_DIR, is_database_url, shown
from bot.i18n import Note
from bot.languages import LANGUAGES
from bot.settings.errors import SettingsError

MIGRATIONS_DIR = DATA_DIR / "migrations"
DIALECTS = ("sqlite", "postgresql")
_MIGRATION = re.compile(r"^(\d{3})_[\w-]+\.(sqlite|postgresql)\.sql$")
MAX_DECKS_PER_GUILD = 50
MAX_DECK_NAME = 40


def storable_deck_name(name: str) -> bool:
    """Whether ``name`` is a deck name /explore deck save stores: not empty, no surrounding spaces,
    at most MAX_DECK_NAME characters."""
    return 0 < len(name) <= MAX_DECK_NAME and name == name.strip()


@dataclass(frozen=True)
class GuildSettings:
    reply_language: str = "auto"
    machine_translations: str = "show"
    english_originals: str = "click"
    private_replies: bool = False
    inline_cards: bool = False
    default_deck: str | None = None
    default_policy: str | None = None

    @classmethod
    def from_row(cls, row) -> "GuildSettings":
        if row is None:
            return cls()
        return cls(**{f.name: bool(row[f.name]) if f.type == "bool" else row[f.name] for f in fields(cls)})


SETTING_COLUMNS = tuple(f.name for f in fields(GuildSettings))

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

# the tables a logical export copies, with their columns (the current schema)
TABLES = {
    "guild_settings": ("guild_id",) + SETTING_COLUMNS + ("updated_at",),
    "user_settings": ("user_id", "language", "updated_at"),
    "decks": ("guild_id", "name", "list", "cards", "saved_by", "saved_at"),
    "synced_commands": ("application_id", "scope", "fingerprint", "synced_at"),
}


def migrations(dialect: str, folder: Path = MIGRATIONS_DIR) -> list[tuple[int, Path]]:
    """The migrations for one dialect, in order."""
    found = []
    for path in sorted(folder.glob("*.sql")):
        match = _MIGRATION.match(path.name)
        if match and match.group(2) == dialect:
            found.append((int(match.group(1)), path))
    return found


@dataclass(frozen=True)
class SchemaStatus:
    target: str      # the database, as it may be shown
    version: int     # what the database has
    latest: int      # what this code knows

    @property
    def pending(self) -> int:
        return max(self.latest - self.version, 0)


class SettingsStore(ABC):
    """What the bot, the console and the CLI use, whichever database holds the settings."""

    dialect: str

    def __init__(self, target: str, folder: Path):
        self.target = target           # shown in messages: a path, or a URL without its password
        self.folder = folder

    @staticmethod
    async def open(target: Path | str, folder: Path = MIGRATIONS_DIR, *, migrate: bool = True) -> "SettingsStore":
        """Open the settings database named by WAYFINDER_SETTINGS_DB; refuse one newer than the code;
        apply the pending migrations unless `migrate` is false."""
        if is_database_url(target):
            from bot.settings.postgres import PostgresSettingsStore as backend
        else:
            from bot.settings.sqlite import SqliteSettingsStore as backend
        store = await backend.connect(target, folder)
        try:
            status = await store.status()
            if status.version > status.latest:
                raise SettingsError(Note("{target} has schema version {version}, newer than this code knows ({latest});"
                                         " it is left untouched — run a newer Wayfinder", target=store.target,
                                         version=status.version, latest=status.latest))
            if migrate:
                await store.migrate()
        except BaseException:
            await store.close()
            raise
        return store

    async def status(self) -> SchemaStatus:
        known = migrations(self.dialect, self.folder)
        return SchemaStatus(self.target, await self.schema_version(), known[-1][0] if known else 0)

    async def migrate(self) -> list[int]:
        """Apply the pending migrations in order; the versions this call applied."""
        applied = []
        for number, path in migrations(self.dialect, self.folder):
            if number > await self.schema_version() and await self._apply(number, path.read_text(encoding="utf-8")):
                applied.append(number)
        return applied

    # -- what each backend provides -----------------------------------------------------------

    @classmethod
    @abstractmethod
    async def connect(cls, target: Path | str, folder: Path) -> "SettingsStore":
        """Connect without writing anything."""

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    async def _apply(self, number: int, script: str) -> bool:
        """Apply one migration in one transaction, under a lock, unless another process just did
        (then False)."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def _upsert_guild(self, guild_id: int, key: str, value) -> GuildSettings: ...

    @abstractmethod
    async def guild(self, guild_id: int | None) -> GuildSettings: ...

    @abstractmethod
    async def reset_guild(self, guild_id: int) -> None: ...

    @abstractmethod
    async def user_language(self, user_id: int) -> str | None: ...

    @abstractmethod
    async def _upsert_user_language(self, user_id: int, language: str | None) -> None: ...

    @abstractmethod
    async def save_deck(self, guild_id: int, name: str, text: str, cards: int, user_id: int) -> None:
        """Save or replace a deck; at most MAX_DECKS_PER_GUILD per server, checked in the same
        transaction as the write."""

    @abstractmethod
    async def deck(self, guild_id: int, name: str) -> str | None: ...

    @abstractmethod
    async def deck_names(self, guild_id: int) -> list[str]: ...

    @abstractmethod
    async def delete_deck(self, guild_id: int, name: str) -> bool: ...

    @abstractmethod
    async def synced_commands(self, application_id: int, scope: str) -> str | None:
        """The fingerprint of the slash commands last put on Discord for the application, in
        ``scope`` ("global" or a server id), or None (bot.discord_app.sync: what was put, then
        ``/`` and what Discord held right after)."""

    @abstractmethod
    async def record_synced_commands(self, application_id: int, scope: str, fingerprint: str) -> None: ...

    @abstractmethod
    async def backup(self, target: Path | str) -> str:
        """A consistent copy of the settings into `target` (a new or empty file); what it holds, for
        the CLI."""

    @abstractmethod
    async def rows(self, table: str) -> list[dict]:
        """Every row of one of TABLES, in a consistent order (for exports and tests)."""

    # -- checked the same way for both --------------------------------------------------------

    async def set_guild(self, guild_id: int, key: str, value) -> GuildSettings:
        if key not in ALLOWED:
            raise ValueError(f"unknown setting {key!r}")
        allowed = ALLOWED[key]
        if allowed is not None and value not in allowed:
            raise ValueError(f"{key} must be one of {allowed}")
        return await self._upsert_guild(guild_id, key, value)

    async def set_user_language(self, user_id: int, language: str | None) -> None:
        if language is not None and language not in LANGUAGES:
            raise ValueError(f"language must be one of {LANGUAGES}")
        await self._upsert_user_language(user_id, language)


def too_many_decks() -> ValueError:
    return ValueError(f"at most {MAX_DECKS_PER_GUILD} saved decks per server")


__all__ = ["ALLOWED", "GuildSettings", "MAX_DECKS_PER_GUILD", "MAX_DECK_NAME", "SchemaStatus", "SettingsError",
           "SettingsStore", "TABLES", "migrations", "shown", "storable_deck_name"]
