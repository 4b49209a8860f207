"""``python -m bot.ask.index CATALOG``, the process a running bot builds the /ask index in."""
from __future__ import annotations

import os
import shutil
import signal

import pytest

from bot.ask import index as ask_index
from bot.ask.index import index_path
from bot.catalog.locks import FileLock, beside


@pytest.fixture
def catalog_path(bundled_catalog_path, tmp_path, monkeypatch):
    """A copy of the bundled catalog without its /ask index; the builder runs in this process."""
    monkeypatch.setattr(signal, "signal", lambda *args: None)   # the test process keeps its own handlers
    live = tmp_path / "catalog.sqlite3"
    shutil.copy(bundled_catalog_path, live)
    return live


def test_a_build_that_waited_in_vain_for_another_exits_non_zero_and_builds_nothing(catalog_path, monkeypatch,
                                                                                     capsys):
    other = FileLock(beside(index_path(catalog_path), ".lock"))
    assert other.acquire()
    monkeypatch.setattr(ask_index, "BUILD_WAIT", 0.2)
    try:
        assert ask_index.main([str(catalog_path)]) != 0
        assert not index_path(catalog_path).exists()
        assert "still building the /ask index" in capsys.readouterr().err
        assert not FileLock(beside(index_path(catalog_path), ".lock")).acquire(), "the other build keeps its lock"
    finally:
        other.release()


def test_a_build_removes_what_killed_builds_left_and_not_what_running_ones_write(catalog_path):
    index = index_path(catalog_path)
    killed = index.parent / f"{index.name}.{2 ** 31 - 2}.k3x9.tmp"       # no process has this id
    running = index.parent / f"{index.name}.{os.getppid()}.r7q2.tmp"
    killed.write_bytes(b"half an index")
    running.write_bytes(b"half an index")
    assert ask_index.main([str(catalog_path)]) == 0
    assert index.exists() and not killed.exists() and running.exists()
