"""The lock files beside the catalog: one import at a time (``<catalog>.lock``), one refresh at a
time (``<catalog>.refresh.lock``)."""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Callable

try:
    import fcntl
except ImportError:   # not on POSIX: nothing is locked
    fcntl = None

POLL = 0.2   # seconds between two tries while waiting for a lock another process holds


class FileLock:
    """An exclusive lock on a file, released by the system when the process ends, however it
    ends. The file names the process holding it."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self.fd: int | None = None

    def acquire(self, wait: float = 0, waiting: Callable[[], None] | None = None) -> bool:
        """True once held; False when another process still held it after ``wait`` seconds
        (``waiting`` is called once, when it has to wait)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + wait
        while fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                left = deadline - time.monotonic()
                if left <= 0:
                    os.close(fd)
                    return False
                if waiting is not None:
                    waiting()
                    waiting = None
                time.sleep(min(POLL, left))
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self.fd = fd
        return True

    def holder(self) -> str:
        """Who holds the lock, as it may be shown: " (pid N)", or "" when the file does not say."""
        try:
            pid = self.path.read_text(encoding="ascii").strip()
        except (OSError, ValueError):
            return ""
        return f" (pid {pid})" if pid.isdigit() else ""

    def release(self) -> None:
        if self.fd is not None:
            if fcntl is not None:
                fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = None


def beside(catalog: Path | str, suffix: str) -> Path:
    """The lock file ``<catalog><suffix>``."""
    catalog = Path(catalog)
    return catalog.with_name(catalog.name + suffix)
