"""Keeping a running bot's data current: what ``data sync`` does, from inside the bot.

Every WAYFINDER_REFRESH_HOURS the bot asks Scryfall's bulk-data index (and the Comprehensive
Rules source, with WAYFINDER_RULES_URL) what changed, downloads it and imports it. The import
builds a new catalog beside the live one and renames it into place in one step, so the bot keeps
answering from the old file (its open connection) until the new one is whole; then the services
switch to the new catalog, its name index and rules, without a restart. Processes sharing a host
(and so a catalog) refresh one at a time: a lock file beside the catalog, held for the whole
refresh; a process that finds it held skips its turn. With the settings on PostgreSQL, a
database advisory lock is taken too, so that the processes of a deployment, whatever their host,
fetch from upstream one at a time.
"""
from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import threading
from pathlib import Path
from typing import Callable

from bot.catalog.sync import sync
from bot.config import Config, is_database_url

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


REFRESH_LOCK = 0x5761_7966_5265_6672      # the PostgreSQL advisory lock held while refreshing


class DatabaseRefreshLock:
    """The advisory lock on the settings' PostgreSQL server, held by one connection for the whole
    refresh (a session-level lock: it goes with the connection, even if the process dies)."""

    def __init__(self, url: str):
        self.url = url
        self.loop: asyncio.AbstractEventLoop | None = None
        self.connection = None

    def acquire(self) -> bool:
        import asyncpg
        self.loop = asyncio.new_event_loop()
        thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        thread.start()

        async def take():
            self.connection = await asyncpg.connect(self.url)
            return await self.connection.fetchval("SELECT pg_try_advisory_lock($1)", REFRESH_LOCK)

        held = asyncio.run_coroutine_threadsafe(take(), self.loop).result(30)
        if not held:
            self.release()
        return held

    def release(self) -> None:
        if self.loop is None:
            return

        async def drop():
            if self.connection is not None:
                await self.connection.close()     # the lock goes with its session

        asyncio.run_coroutine_threadsafe(drop(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.loop, self.connection = None, None


def refresh(config: Config, say: Callable[[str], None] = log.info) -> list[Path] | None:
    """Sync once. The files imported (empty: nothing changed); None when another process holds
    the refresh lock."""
    locks = [RefreshLock(config.catalog_path)]
    if is_database_url(config.settings_path):
        locks.append(DatabaseRefreshLock(config.settings_path))
    taken = []
    try:
        for lock in locks:
            if not lock.acquire():
                say(f"another process is refreshing {config.catalog_path}: skipped")
                return None
            taken.append(lock)
        return sync(config, types=list(config.refresh_types), progress=False, log=say)
    finally:
        for lock in reversed(taken):
            lock.release()
