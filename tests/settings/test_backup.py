"""`wayfinder db backup PATH` refuses what would lose data, with one clear line and no traceback."""
import hashlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import PROJECT


def backup(settings: Path, *args):
    env = dict(os.environ, WAYFINDER_SETTINGS_DB=str(settings))
    return subprocess.run([sys.executable, "-m", "bot", "db", "backup", *map(str, args)],
                          cwd=PROJECT, env=env, capture_output=True, text=True, timeout=60)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def settings(tmp_path) -> Path:
    path = tmp_path / "settings.sqlite3"
    assert backup(path, tmp_path / "first.sqlite3").returncode == 0   # creates and migrates it
    return path


def refused(out, *words):
    assert out.returncode == 2, out.stdout + out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr
    for word in words:
        assert word in out.stderr, out.stderr


def test_an_existing_file_is_kept_unless_force(settings, tmp_path):
    precious = tmp_path / "catalog-copy.sqlite3"
    con = sqlite3.connect(precious)
    con.execute("CREATE TABLE cards(name TEXT)")
    con.execute("INSERT INTO cards VALUES ('Opt')")
    con.commit()
    con.close()
    before = digest(precious)
    refused(backup(settings, precious), str(precious), "already exists", "--force")
    assert digest(precious) == before
    out = backup(settings, precious, "--force")
    assert out.returncode == 0, out.stderr
    copy = sqlite3.connect(precious)
    tables = {row[0] for row in copy.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    copy.close()
    assert "guild_settings" in tables and "cards" not in tables
    assert not [p for p in tmp_path.iterdir() if p.name.endswith((".tmp", ".probe"))]


def test_the_live_database_is_never_the_target(settings, tmp_path):
    before = digest(settings)
    refused(backup(settings, settings, "--force"), "live settings database")
    link = tmp_path / "link.sqlite3"
    link.symlink_to(settings)
    refused(backup(settings, link, "--force"), "live settings database")
    assert digest(settings) == before


def test_a_folder_a_missing_folder_and_an_unwritable_place_are_named(settings, tmp_path):
    refused(backup(settings, tmp_path), "is a folder")
    missing = tmp_path / "nowhere" / "b.sqlite3"
    refused(backup(settings, missing), "nowhere", "does not exist")
    assert not missing.parent.exists()
    if os.geteuid() == 0:      # root writes anywhere a permission allows: use a place no one can write
        locked = Path("/sys/kernel/wayfinder-backup.sqlite3")
        if not locked.parent.is_dir():
            pytest.skip("no unwritable folder to try as root")
    else:
        folder = tmp_path / "locked"
        folder.mkdir(mode=0o500)
        locked = folder / "b.sqlite3"
    refused(backup(settings, locked), "cannot be written")
