"""Configuration, read from environment variables (documented in README)."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
PROJECT_DIR = PACKAGE_DIR.parent
# the source tree's data/; an installed package carries its own copy as bot/data (see setup.py)
_PACKAGED_DATA = Path(__file__).resolve().parent / "data"
DATA_DIR = _PACKAGED_DATA if _PACKAGED_DATA.is_dir() else PROJECT_DIR / "data"
DATABASE_URL_SCHEMES = ("postgresql://", "postgres://")


def default_var_dir(package_dir: Path | None = None) -> Path:
    """Where the catalog, the settings database and downloads go unless the environment says:
    ``var/`` in a source checkout (``make run``, the tests); for an installed package (in
    site-packages, where nothing should be written) the user's data directory, as platformdirs
    gives it (``$XDG_DATA_HOME/wayfinder``, else ``~/.local/share/wayfinder`` on Linux)."""
    checkout = (package_dir or PACKAGE_DIR).parent
    if (checkout / "pyproject.toml").is_file() and (checkout / "data").is_dir():
        return checkout / "var"
    from platformdirs import user_data_dir
    return Path(user_data_dir("wayfinder", appauthor=False))


def is_database_url(target) -> bool:
    """A database server's URL (PostgreSQL), rather than a SQLite file's path."""
    return isinstance(target, str) and target.startswith(DATABASE_URL_SCHEMES)


def shown(target) -> str:
    """A settings database as it may be shown in logs and messages: a URL without its password."""
    text = re.sub(r"(://[^:/@]*:)[^/]*@", r"\1***@", str(target))
    return re.sub(r"([?&]password=)[^&]*", r"\1***", text)


@dataclass(frozen=True)
class Config:
    token: str | None
    catalog_path: Path
    settings_path: Path | str   # a SQLite file, or a postgresql:// URL
    log_level: str
    scryfall_base_url: str
    rules_url: str | None
    downloads_dir: Path
    shard_count: int | None
    shard_ids: tuple[int, ...] | None
    dev_guild_id: int | None
    message_content: bool
    sync_commands: bool = True
    view_timeout: float = 600.0
    console_lang: str | None = None
    refresh_hours: float = 24.0                       # 0: the running bot never refreshes its data
    refresh_types: tuple[str, ...] = ("all_cards", "rulings")

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> "Config":
        env = dict(os.environ if env is None else env)
        var = default_var_dir()
        shard_ids = env.get("SHARD_IDS")
        return cls(
            token=env.get("DISCORD_TOKEN") or None,
            catalog_path=Path(env.get("WAYFINDER_CATALOG", var / "catalog.sqlite3")),
            settings_path=_settings_db(env.get("WAYFINDER_SETTINGS_DB") or str(var / "settings.sqlite3")),
            log_level=env.get("WAYFINDER_LOG_LEVEL", "INFO").upper(),
            scryfall_base_url=env.get("WAYFINDER_SCRYFALL_URL", "https://api.scryfall.com").rstrip("/"),
            rules_url=env.get("WAYFINDER_RULES_URL") or None,
            downloads_dir=Path(env.get("WAYFINDER_DOWNLOADS", var / "downloads")),
            shard_count=int(env["SHARD_COUNT"]) if env.get("SHARD_COUNT") else None,
            shard_ids=tuple(int(s) for s in shard_ids.split(",")) if shard_ids else None,
            dev_guild_id=int(env["WAYFINDER_DEV_GUILD"]) if env.get("WAYFINDER_DEV_GUILD") else None,
            message_content=env.get("WAYFINDER_MESSAGE_CONTENT", "0") == "1",
            sync_commands=env.get("WAYFINDER_SYNC_COMMANDS", "1") != "0",
            view_timeout=float(env.get("WAYFINDER_VIEW_TIMEOUT", "600")),
            console_lang=env.get("WAYFINDER_CONSOLE_LANG") or None,
            refresh_hours=max(0.0, float(env.get("WAYFINDER_REFRESH_HOURS") or 24)),
            refresh_types=tuple(t.strip() for t in env.get("WAYFINDER_REFRESH_TYPES", "all_cards,rulings").split(",")
                                if t.strip()),
        )

    def __repr__(self) -> str:  # never show the token
        return (f"Config(token={'set' if self.token else 'unset'}, catalog_path={self.catalog_path!s},"
                f" settings_path={shown(self.settings_path)}, log_level={self.log_level})")


def _settings_db(value: str) -> Path | str:
    return value if is_database_url(value) else Path(value)
