"""Keeping a running bot's data current: what ``data sync`` does, from inside the bot.

Every WAYFINDER_REFRESH_HOURS the bot asks Scryfall's bulk-data index (and the Comprehensive
Rules source, with WAYFINDER_RULES_URL) what changed, downloads it and imports it. The import
builds a new catalog beside the live one and renames it into place in one step, so the bot keeps
answering from the old file (its open connection) until the new one is whole; then the services
switch to the new catalog, its name index and rules, without a restart. Processes sharing a host
(and so a catalog) refresh one at a time: a lock file beside the catalog, held for the whole
refresh; a process that finds it held skips its turn.
"""
from __future__ import annotations

import fcntl
import logging
import os
from pathlib import Path
from typing import Callable

from bot.catalog.sync import sync
from bot.config import Config

log = logging.getLogger(__name__)


class RefreshLock:
    """An exclusive lock on ``<catalog>.refresh.lock``, never waited for."""

    def __init__(self, catalog: Path):
        self.path = Path(str(catalog) + ".refresh.lock")
        self.fd: int | None = None

    def acquire(self) -> bool:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self.fd = fd
        return True

    def release(self) -> None:
        if self.fd is not None:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = None


def refresh(config: Config, say: Callable[[str], None] = log.info) -> list[Path] | None:
    """Sync once. The files imported (empty: nothing changed); None when another process holds
    the refresh lock."""
    lock = RefreshLock(config.catalog_path)
    if not lock.acquire():
        say(f"another process is refreshing {config.catalog_path}: skipped")
        return None
    try:
        return sync(config, types=list(config.refresh_types), progress=False, log=say)
    finally:
        lock.release()
