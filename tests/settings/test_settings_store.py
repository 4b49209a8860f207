"""The settings store: migrations, refusals, durability under SIGKILL, concurrent writers, backup."""
import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from bot.settings.store import SettingsError, SettingsStore
from tests.helpers import PROJECT


async def test_migrations_are_applied_and_the_version_recorded(tmp_path):
    store = await SettingsStore.open(tmp_path / "s.sqlite3")
    assert await store.schema_version() == 1
    assert (await store.guild(1)).reply_language == "auto"
    await store.close()


async def test_a_database_newer_than_the_code_is_refused_untouched(tmp_path):
    path = tmp_path / "s.sqlite3"
    con = sqlite3.connect(path)
    con.execute("PRAGMA user_version = 99")
    con.close()
    before = path.read_bytes()
    with pytest.raises(SettingsError, match="newer than this code"):
        await SettingsStore.open(path)
    assert path.read_bytes() == before


async def test_a_corrupt_file_stops_start_up_with_its_name_and_is_not_overwritten(tmp_path):
    path = tmp_path / "settings.sqlite3"
    path.write_bytes(b"this is not a database" * 50)
    with pytest.raises(SettingsError, match="settings.sqlite3"):
        await SettingsStore.open(path)
    assert path.read_bytes() == b"this is not a database" * 50


async def test_invalid_values_are_refused(tmp_path):
    store = await SettingsStore.open(tmp_path / "s.sqlite3")
    with pytest.raises(ValueError):
        await store.set_guild(1, "reply_language", "klingon")
    with pytest.raises(ValueError):
        await store.set_guild(1, "no_such_setting", 1)
    with pytest.raises(ValueError):
        await store.set_user_language(1, "xx")
    await store.close()


async def test_a_hundred_concurrent_writers_lose_nothing(tmp_path):
    path = tmp_path / "s.sqlite3"
    store = await SettingsStore.open(path)
    languages = ["en", "fr", "it", "de", "ja"]
    await asyncio.gather(*(store.set_user_language(user, languages[user % 5]) for user in range(100)),
                         *(store.set_guild(guild, "inline_cards", True) for guild in range(100)))
    await store.close()
    # and from separate processes at once
    script = textwrap.dedent(f"""
        import asyncio, sys
        sys.path.insert(0, {str(PROJECT)!r})
        from bot.settings.store import SettingsStore
        async def main(base):
            store = await SettingsStore.open({str(path)!r})
            for i in range(10):
                await store.save_deck(base, f"deck-{{i}}", "4 Forest", 4, base)
            await store.close()
        asyncio.run(main(int(sys.argv[1])))
    """)
    procs = [subprocess.Popen([sys.executable, "-c", script, str(1000 + n)]) for n in range(10)]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    store = await SettingsStore.open(path)
    assert [await store.user_language(u) for u in range(100)] == [languages[u % 5] for u in range(100)]
    assert all([(await store.guild(g)).inline_cards for g in range(100)])
    assert [len(await store.deck_names(1000 + n)) for n in range(10)] == [10] * 10
    await store.close()


WRITER = textwrap.dedent("""
    import asyncio, sys
    sys.path.insert(0, {project!r})
    from bot.settings.store import SettingsStore
    async def main():
        store = await SettingsStore.open({path!r})
        for i in range(1000):
            await store.set_guild(i, "reply_language", "fr")
            print(i, flush=True)          # acknowledged: committed before this line is written
        await asyncio.sleep(60)
    asyncio.run(main())
""")


def test_every_acknowledged_write_survives_sigkill(tmp_path):
    path = tmp_path / "s.sqlite3"
    proc = subprocess.Popen([sys.executable, "-c", WRITER.format(project=str(PROJECT), path=str(path))],
                            stdout=subprocess.PIPE, text=True)
    acknowledged = []
    for line in proc.stdout:
        acknowledged.append(int(line))
        if len(acknowledged) == 300:
            os.kill(proc.pid, signal.SIGKILL)
            break
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    saved = {row[0] for row in con.execute("SELECT guild_id FROM guild_settings WHERE reply_language = 'fr'")}
    con.close()
    assert set(acknowledged) <= saved


async def test_backup_copies_a_live_database(tmp_path):
    store = await SettingsStore.open(tmp_path / "s.sqlite3")
    await store.set_guild(7, "reply_language", "ko")
    await store.backup(tmp_path / "copy.sqlite3")
    await store.close()
    copy = sqlite3.connect(tmp_path / "copy.sqlite3")
    assert copy.execute("SELECT reply_language FROM guild_settings WHERE guild_id = 7").fetchone() == ("ko",)


def test_db_backup_command(tmp_path):
    env = dict(os.environ, WAYFINDER_SETTINGS_DB=str(tmp_path / "s.sqlite3"))
    out = subprocess.run([sys.executable, "-m", "bot", "db", "backup", str(tmp_path / "b.sqlite3")],
                         cwd=PROJECT, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "b.sqlite3").exists()
