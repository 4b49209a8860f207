"""Configuration, read from environment variables (documented in README)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = PROJECT_DIR / "data"


@dataclass(frozen=True)
class Config:
    token: str | None
    catalog_path: Path
    settings_path: Path
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

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> "Config":
        env = dict(os.environ if env is None else env)
        var = PROJECT_DIR / "var"
        shard_ids = env.get("SHARD_IDS")
        return cls(
            token=env.get("DISCORD_TOKEN") or None,
            catalog_path=Path(env.get("WAYFINDER_CATALOG", var / "catalog.sqlite3")),
            settings_path=Path(env.get("WAYFINDER_SETTINGS_DB", var / "settings.sqlite3")),
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
        )

    def __repr__(self) -> str:  # never show the token
        return (f"Config(token={'set' if self.token else 'unset'}, catalog_path={self.catalog_path!s},"
                f" settings_path={self.settings_path!s}, log_level={self.log_level})")
