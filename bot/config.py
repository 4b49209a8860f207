"""Configuration, read from environment variables (documented in README)."""
from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from bot.languages import LANGUAGES, normalize_language

PACKAGE_DIR = Path(__file__).resolve().parent
PROJECT_DIR = PACKAGE_DIR.parent
# the source tree's data/; an installed package carries its own copy as bot/data (see setup.py)
_PACKAGED_DATA = Path(__file__).resolve().parent / "data"
DATA_DIR = _PACKAGED_DATA if _PACKAGED_DATA.is_dir() else PROJECT_DIR / "data"
DATABASE_URL_SCHEMES = ("postgresql://", "postgres://")
IMPORT_WAIT = 600.0     # seconds an import waits for another one into the same catalog to finish
BULK_TYPES = ("oracle_cards", "default_cards", "all_cards", "rulings")   # Scryfall's bulk files, in import order
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
SYNC_COMMANDS = ("0", "1", "force")   # WAYFINDER_SYNC_COMMANDS: never, when changed (here or on Discord), now


class ConfigError(ValueError):
    """An environment variable that cannot be used: the message names it and what it takes (a
    note, said in the operator's language by bot.i18n.said). ``lang`` is the operator's language
    when the configuration names one (WAYFINDER_CONSOLE_LANG), read before any other setting."""

    lang: str | None = None


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
    sync_commands: str = "1"   # "0": never, "1": when they changed here or on Discord, "force": at this start
    view_timeout: float = 600.0
    console_lang: str | None = None
    refresh_hours: float = 24.0                       # 0: the running bot never refreshes its data
    refresh_types: tuple[str, ...] = ("all_cards", "rulings")
    import_wait: float = IMPORT_WAIT

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> "Config":
        env = dict(os.environ if env is None else env)
        console_lang = _setting(env, "WAYFINDER_CONSOLE_LANG", None, _language, "one of {choices}",
                                choices=", ".join(LANGUAGES))
        try:
            return cls._read(env, console_lang)
        except ConfigError as exc:   # said in the operator's language
            exc.lang = console_lang
            raise

    @classmethod
    def _read(cls, env: dict[str, str], console_lang: str | None) -> "Config":
        var = default_var_dir()
        shard_count = _setting(env, "SHARD_COUNT", None, _whole(1), "a whole number of shards, 1 or more")
        return cls(
            token=env.get("DISCORD_TOKEN") or None,
            catalog_path=Path(env.get("WAYFINDER_CATALOG", var / "catalog.sqlite3")),
            settings_path=_settings_db(env.get("WAYFINDER_SETTINGS_DB") or str(var / "settings.sqlite3")),
            log_level=_setting(env, "WAYFINDER_LOG_LEVEL", "INFO", lambda text: _one_of(LOG_LEVELS)(text.upper()),
                               "one of {choices}", choices=", ".join(LOG_LEVELS)),
            scryfall_base_url=env.get("WAYFINDER_SCRYFALL_URL", "https://api.scryfall.com").rstrip("/"),
            rules_url=env.get("WAYFINDER_RULES_URL") or None,
            downloads_dir=Path(env.get("WAYFINDER_DOWNLOADS", var / "downloads")),
            shard_count=shard_count,
            shard_ids=_setting(env, "SHARD_IDS", None, _listed(_whole(0, shard_count)) if shard_count else _refused,
                               "shard ids separated by commas, each a whole number from 0 to {last} (SHARD_COUNT)"
                               if shard_count else "shard ids separated by commas, set only together with SHARD_COUNT",
                               last=(shard_count or 1) - 1),
            dev_guild_id=_setting(env, "WAYFINDER_DEV_GUILD", None, _whole(0), "a server id (a whole number)"),
            message_content=env.get("WAYFINDER_MESSAGE_CONTENT", "0") == "1",
            sync_commands=_setting(env, "WAYFINDER_SYNC_COMMANDS", cls.sync_commands, _one_of(SYNC_COMMANDS),
                                   "one of {choices}", choices=", ".join(SYNC_COMMANDS)),
            view_timeout=_setting(env, "WAYFINDER_VIEW_TIMEOUT", cls.view_timeout, _number(above=0),
                                  "a number of seconds above 0"),
            console_lang=console_lang,
            refresh_hours=_setting(env, "WAYFINDER_REFRESH_HOURS", cls.refresh_hours, _number(),
                                   "a number of hours, 0 or more (0: never)"),
            refresh_types=bulk_types(env.get("WAYFINDER_REFRESH_TYPES", ""), "WAYFINDER_REFRESH_TYPES",
                                     cls.refresh_types),
            import_wait=_setting(env, "WAYFINDER_IMPORT_WAIT", cls.import_wait, _number(),
                                 "a number of seconds, 0 or more (0: do not wait)"),
        )

    def __repr__(self) -> str:  # never show the token
        return (f"Config(token={'set' if self.token else 'unset'}, catalog_path={self.catalog_path!s},"
                f" settings_path={shown(self.settings_path)}, log_level={self.log_level})")


def bulk_types(text: str, name: str, default: tuple[str, ...]) -> tuple[str, ...]:
    """Scryfall's bulk files named in ``text``, separated by commas (``default`` when none);
    ConfigError naming the setting or option ``name`` for one Scryfall does not publish."""
    return _setting({name: text}, name, default, _listed(_one_of(BULK_TYPES)),
                    "one or more of {choices}, separated by commas", choices=", ".join(BULK_TYPES))


def _setting(env: dict[str, str], name: str, default, parse: Callable[[str], object], allowed: str, **values):
    """The value of the variable ``name`` (``default`` when unset or empty); ConfigError when
    ``parse`` refuses it, saying what is allowed (the message ``allowed``, with ``values``)."""
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        return parse(text)
    except ValueError:
        from bot.i18n import Note   # read when a setting is refused: reading the others needs no messages
        raise ConfigError(Note("{name} must be {allowed}, not {value}", name=name, allowed=Note(allowed, **values),
                               value=repr(text))) from None


def _number(above: float | None = None) -> Callable[[str], float]:
    """A finite number, 0 or more (or more than ``above``)."""
    def parse(text: str) -> float:
        value = float(text)
        if not math.isfinite(value) or value < 0 or (above is not None and value <= above):
            raise ValueError(text)
        return value
    return parse


def _whole(low: int, count: int | None = None) -> Callable[[str], int]:
    """A whole number, ``low`` or more (and below ``count`` when given)."""
    def parse(text: str) -> int:
        value = int(text)
        if value < low or (count is not None and value >= count):
            raise ValueError(text)
        return value
    return parse


def _one_of(choices: tuple[str, ...]) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text not in choices:
            raise ValueError(text)
        return text
    return parse


def _language(text: str) -> str:
    """A print language, in any of its spellings ("de", "pt-BR", "zh-TW"), as its code."""
    lang = normalize_language(text)
    if not lang:
        raise ValueError(text)
    return lang


def _refused(text: str):
    """A setting that has no meaning without another one, which is not set."""
    raise ValueError(text)


def _listed(item: Callable[[str], object]) -> Callable[[str], tuple]:
    """Items separated by commas (empty ones ignored), at least one."""
    def parse(text: str) -> tuple:
        items = tuple(item(part.strip()) for part in text.split(",") if part.strip())
        if not items:
            raise ValueError(text)
        return items
    return parse


def _settings_db(value: str) -> Path | str:
    return value if is_database_url(value) else Path(value)
