"""Keeping a running bot's data current: what ``data sync`` does, from inside the bot.

Every WAYFINDER_REFRESH_HOURS the bot asks Scryfall's bulk-data index (and the Comprehensive
Rules source, with WAYFINDER_RULES_URL) what changed, downloads it and imports it. The import
builds a new catalog beside the live one and renames it into place in one step, so the bot keeps
answering from the old file (its open connection) until the new one is whole; then the services
switch to the new catalog, its name index and rules, without a restart. Processes sharing a host
(and so a catalog) refresh one at a time: a lock file beside the catalog, held for the whole
refresh; a process that finds it held skips its turn. With the settings on PostgreSQL, a
database advisory lock is taken too, so that the processes of a deployment, whatever their host,
fetch from upstream one at a time; a process that cannot reach that server, or gets no answer in
time, skips its turn too, holding nothing. An import under way (``data import``) is not waited
for either: the refresh skips its turn, before downloading anything.
"""
from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path
from typing import Callable

from bot.catalog.build import import_lock
from bot.catalog.errors import CatalogBusy, DataImportError
from bot.catalog.locks import FileLock, beside
from bot.catalog.sync import sync
from bot.config import Config, is_database_url, shown

log = logging.getLogger(__name__)


class RefreshLock(FileLock):
    """``<catalog>.refresh.lock``, never waited for."""

    def __init__(self, catalog: Path):
        super().__init__(beside(catalog, ".refresh.lock"))


REFRESH_LOCK = 0x5761_7966_5265_6672      # the PostgreSQL advisory lock held while refreshing
LOCK_TIMEOUT = 30.0     # seconds to reach the settings' PostgreSQL server and take its lock


class LockUnavailable(Exception):
    """The settings' database could not be asked for the refresh lock: nothing was taken."""


class DatabaseRefreshLock:
    """The advisory lock on the settings' PostgreSQL server, held by one connection for the whole
    refresh (a session-level lock: it goes with the connection, even if the process dies). The
    connection lives on an event loop of its own, run only while the lock is taken or let go; a
    failure or a timeout on the way closes the connection and the loop before it is raised."""

    def __init__(self, url: str, timeout: float = LOCK_TIMEOUT):
        self.url = url
        self.timeout = timeout
        self.runner: asyncio.Runner | None = None
        self.connection = None

    def acquire(self) -> bool:
        """True when taken; False when another session holds it; LockUnavailable when the server
        cannot be reached or does not answer within the timeout."""
        import asyncpg
        self.runner = asyncio.Runner(loop_factory=asyncio.new_event_loop)   # this thread's loop stays as it was

        async def take() -> bool:
            self.connection = await asyncpg.connect(self.url, timeout=self.timeout)
            return await self.connection.fetchval("SELECT pg_try_advisory_lock($1)", REFRESH_LOCK)

        try:
            held = self.runner.run(asyncio.wait_for(take(), self.timeout))
        except Exception as exc:
            self.release()
            reason = f"no answer within {self.timeout:g} s" if isinstance(exc, TimeoutError) else str(exc)
            raise LockUnavailable(reason or type(exc).__name__) from exc
        except BaseException:
            self.release()
            raise
        if not held:
            self.release()
        return bool(held)

    def holder(self) -> str:
        """Who holds it, as it may be shown: a process of the deployment, on any of its hosts."""
        return " of the deployment"

    def release(self) -> None:
        """Close the connection (the lock goes with its session) and the loop; never raises: a
        server that went away mid-way took the lock with it."""
        runner, connection = self.runner, self.connection
        self.runner, self.connection = None, None
        if runner is None:
            return
        try:
            if connection is not None:
                try:
                    runner.run(asyncio.wait_for(connection.close(), self.timeout))
                except Exception:
                    connection.terminate()
        finally:
            runner.close()


def refresh(config: Config, say: Callable[[str], None] = log.info,
            warn: Callable[[str], None] = log.warning) -> list[Path] | None:
    """Sync once. The files imported (empty: nothing changed); None when the turn is skipped:
    another process holds the refresh lock, the database that keeps it cannot be reached, an
    import into the catalog is under way (never waited for: the next turn finds it done), or
    Scryfall or the rules' source cannot be read (one warning saying what failed)."""
    locks = [RefreshLock(config.catalog_path)]
    if is_database_url(config.settings_path):
        locks.append(DatabaseRefreshLock(config.settings_path))
    taken = []
    try:
        for lock in locks:
            try:
                acquired = lock.acquire()
            except LockUnavailable as exc:
                warn(f"cannot take the refresh lock on {shown(config.settings_path)}: {exc}; refresh skipped")
                return None
            if not acquired:
                say(f"another process{lock.holder()} is refreshing {config.catalog_path}: skipped")
                return None
            taken.append(lock)
        with import_lock(config.catalog_path, 0):
            pass                     # free now: what is downloaded next can be imported
        return sync(config, types=list(config.refresh_types), progress=False, log=say, lock_wait=0, warn=warn)
    except CatalogBusy as exc:
        say(f"an import{exc.holder} into {config.catalog_path} is under way: refresh skipped")
        return None
    except (DataImportError, OSError, sqlite3.Error) as exc:   # upstream unreachable or refusing, a bad file, a full disk
        warn(f"{exc}; refresh skipped, still answering from {config.catalog_path}")
        return None
    finally:
        for lock in reversed(taken):
            lock.release()
