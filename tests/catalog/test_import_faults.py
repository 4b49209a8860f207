"""An import killed or stopped half-way: its copy is removed by the next import, never while in use;
the catalog an import writes is readable by other users."""
import json
import os
import signal
import stat
import subprocess
import sys
import time

import pytest

from bot.catalog import Catalog
from tests.helpers import PROJECT

CARD = {"object": "card", "oracle_id": "00000000-0000-4000-8000-000000000001", "name": "Test Explorer",
        "lang": "en", "layout": "normal", "type_line": "Creature — Merfolk Scout", "oracle_text": "",
        "mana_cost": "{G}"}


def cards_file(path, count, start=0):
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(start, start + count):
            fh.write(json.dumps(dict(CARD, oracle_id=f"00000000-0000-4000-8000-{i:012d}", name=f"Card {i}",
                                     oracle_text="When this creature enters, it explores. " * 4)) + "\n")
    return path


def start_import(catalog, *files, umask=0o022):
    env = dict(os.environ, WAYFINDER_CATALOG=str(catalog), WAYFINDER_LOG_LEVEL="WARNING")
    return subprocess.Popen([sys.executable, "-m", "bot", "data", "import", "--no-progress", *map(str, files)],
                            cwd=PROJECT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: os.umask(umask))


def leftovers(catalog):
    return sorted(p.name for p in catalog.parent.iterdir()
                  if p.name.startswith(catalog.name + ".") and p.name.endswith((".tmp", ".tmp-journal")))


def wait_for_copy(catalog, proc, timeout=60):
    """Wait until the import is writing its copy of the catalog."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        copies = [p for p in catalog.parent.glob(catalog.name + ".*.tmp") if p.stat().st_size > 0]
        if copies:
            return copies[0]
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.01)
    raise TimeoutError("the import never started writing")


def finish(proc, timeout=120):
    out, err = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, err
    return out


@pytest.fixture
def catalog(tmp_path):
    catalog = tmp_path / "catalog.sqlite3"
    finish(start_import(catalog, cards_file(tmp_path / "one.jsonl", 1)))
    return catalog


@pytest.fixture
def big(tmp_path):
    return cards_file(tmp_path / "big.jsonl", 40_000, start=1000)


def test_the_next_import_removes_what_a_killed_import_left(catalog, big, tmp_path):
    proc = start_import(catalog, big)
    wait_for_copy(catalog, proc)
    proc.kill()
    proc.wait(timeout=30)
    assert leftovers(catalog), "a killed import leaves its copy"
    out = finish(start_import(catalog, cards_file(tmp_path / "two.jsonl", 1, start=500)))
    assert "removed what an import that did not finish left: catalog.sqlite3." in out
    assert leftovers(catalog) == []
    opened = Catalog(catalog)
    assert opened.query("SELECT count(*) FROM cards WHERE name LIKE 'Card %'")[0][0] == 2
    opened.close()


def test_a_copy_in_use_is_left_alone_and_the_imports_run_one_after_the_other(catalog, big, tmp_path):
    first = start_import(catalog, big)
    copy = wait_for_copy(catalog, first)
    os.kill(first.pid, signal.SIGSTOP)
    try:
        second = start_import(catalog, cards_file(tmp_path / "two.jsonl", 1, start=500))
        time.sleep(2)
        assert copy.exists(), "the copy of a running import is not touched"
        assert second.poll() is None, "the second import waits for the first"
    finally:
        os.kill(first.pid, signal.SIGCONT)
    finish(first)
    assert f"waiting for another import (pid {first.pid}) into {catalog} to finish" in finish(second)
    assert leftovers(catalog) == []
    opened = Catalog(catalog)
    assert opened.query("SELECT count(*) FROM cards WHERE name LIKE 'Card %'")[0][0] == 40_002
    opened.close()


def test_the_catalog_is_readable_by_other_users(tmp_path):
    catalog = tmp_path / "new" / "catalog.sqlite3"
    finish(start_import(catalog, cards_file(tmp_path / "one.jsonl", 1), umask=0o022))
    assert stat.S_IMODE(catalog.stat().st_mode) == 0o644
    names, = catalog.parent.glob("catalog.sqlite3.names-*")     # its name index too
    assert stat.S_IMODE(names.stat().st_mode) == 0o644
    catalog.chmod(0o640)   # a mode the owner chose is kept by later imports
    finish(start_import(catalog, cards_file(tmp_path / "two.jsonl", 1, start=7)))
    assert stat.S_IMODE(catalog.stat().st_mode) == 0o640
    names, = catalog.parent.glob("catalog.sqlite3.names-*")
    assert stat.S_IMODE(names.stat().st_mode) == 0o640
