"""The settings store, on SQLite and on PostgreSQL alike: migrations, the version check, refusals,
no stale reads across processes, concurrent writers in several processes, SIGKILL, backup, the db
commands."""
import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from bot.settings.store import MAX_DECKS_PER_GUILD, SettingsError, SettingsStore, migrations
from tests.helpers import PROJECT

LATEST = migrations("sqlite")[-1][0]   # the schema version this code writes
APPLICATION = 123456789012345678        # a Discord application's id (a snowflake, beyond 32 bits)


def wayfinder(*args, settings_db: str, timeout: float = 60, **env) -> subprocess.CompletedProcess:
    env = dict(os.environ, WAYFINDER_SETTINGS_DB=settings_db, **env)
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=PROJECT, env=env, capture_output=True,
                          text=True, timeout=timeout)


def test_every_migration_is_written_for_both_databases():
    assert [n for n, _ in migrations("sqlite")] == [n for n, _ in migrations("postgresql")] != []


async def test_migrations_are_applied_and_the_version_recorded(settings_db):
    store = await SettingsStore.open(settings_db)
    assert await store.schema_version() == migrations(store.dialect)[-1][0]
    assert (await store.guild(1)).reply_language == "auto"
    await store.close()


async def test_processes_starting_together_apply_each_migration_once(settings_db):
    stores = await asyncio.gather(*(SettingsStore.open(settings_db) for _ in range(4)))
    assert {await s.schema_version() for s in stores} == {migrations(stores[0].dialect)[-1][0]}
    await stores[0].set_guild(5, "reply_language", "ja")
    assert [(await s.guild(5)).reply_language for s in stores] == ["ja"] * 4
    for store in stores:
        await store.close()


def test_a_sqlite_database_newer_than_the_code_is_refused_untouched(tmp_path):
    path = tmp_path / "s.sqlite3"
    con = sqlite3.connect(path)
    con.execute("PRAGMA user_version = 99")
    con.close()
    before = path.read_bytes()
    with pytest.raises(SettingsError, match="newer than this code"):
        asyncio.run(SettingsStore.open(path))
    assert path.read_bytes() == before


def test_a_postgresql_database_newer_than_the_code_is_refused_untouched(postgres_cluster):
    url = postgres_cluster.new_database()
    postgres_cluster.sql(url, "CREATE TABLE wayfinder_schema (version INTEGER NOT NULL);"
                              " INSERT INTO wayfinder_schema VALUES (99)")
    out = wayfinder("db", "migrate", settings_db=url)
    assert out.returncode == 2 and "newer than this code" in out.stderr and "Traceback" not in out.stderr
    with pytest.raises(SettingsError, match="newer than this code"):
        asyncio.run(SettingsStore.open(url))
    assert postgres_cluster.sql(url, "SELECT string_agg(tablename, ',') FROM pg_tables WHERE schemaname = current_schema()") \
        == "wayfinder_schema"
    assert postgres_cluster.sql(url, "SELECT version FROM wayfinder_schema") == "99"


async def test_a_corrupt_file_stops_start_up_with_its_name_and_is_not_overwritten(tmp_path):
    path = tmp_path / "settings.sqlite3"
    path.write_bytes(b"this is not a database" * 50)
    with pytest.raises(SettingsError, match="settings.sqlite3"):
        await SettingsStore.open(path)
    assert path.read_bytes() == b"this is not a database" * 50


def test_an_unreachable_server_is_named_without_its_password(postgres_cluster):
    url = f"postgresql://wayfinder:hunter2@127.0.0.1:{postgres_cluster.port}/no_such_database"
    out = wayfinder("db", "check", settings_db=url)
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "no_such_database" in out.stderr and "Traceback" not in out.stderr
    assert "hunter2" not in out.stderr + out.stdout and "wayfinder:***@" in out.stderr


def test_the_bot_stops_at_start_up_with_one_line_when_the_settings_cannot_be_used(postgres_cluster, tmp_path):
    newer = tmp_path / "newer.sqlite3"
    sqlite3.connect(newer).execute("PRAGMA user_version = 99")
    unreachable = f"postgresql://wayfinder:hunter2@127.0.0.1:{postgres_cluster.port}/no_such_database"
    for settings_db, named in ((str(newer), "newer.sqlite3"), (unreachable, "wayfinder:***@")):
        # refused before Discord is reached (the tests' network has no Discord: it would hang or fail otherwise)
        out = wayfinder(settings_db=settings_db, DISCORD_TOKEN="not-a-real-token")
        assert out.returncode == 2, out.stderr
        errors = [line for line in out.stderr.splitlines() if "error" in line.lower() or "Traceback" in line]
        assert len(errors) == 1 and errors[0].startswith("error: ") and named in errors[0], out.stderr
        assert "hunter2" not in out.stderr and "not-a-real-token" not in out.stderr


async def test_invalid_values_are_refused(settings_db):
    store = await SettingsStore.open(settings_db)
    with pytest.raises(ValueError):
        await store.set_guild(1, "reply_language", "klingon")
    with pytest.raises(ValueError):
        await store.set_guild(1, "no_such_setting", 1)
    with pytest.raises(ValueError):
        await store.set_user_language(1, "xx")
    assert (await store.guild(1)).reply_language == "auto"
    await store.close()


async def test_a_change_through_one_process_is_read_by_another_at_once(settings_db):
    # two stores are two processes' connections: neither keeps a copy that could go stale
    first, second = await SettingsStore.open(settings_db), await SettingsStore.open(settings_db)
    assert (await second.guild(3)).reply_language == "auto" and await second.user_language(9) is None
    await first.set_guild(3, "reply_language", "de")
    await first.set_user_language(9, "ko")
    assert (await second.guild(3)).reply_language == "de" and await second.user_language(9) == "ko"
    await first.reset_guild(3)
    assert (await second.guild(3)).reply_language == "auto"
    await first.close()
    await second.close()


async def test_the_deck_limit_holds_against_concurrent_savers(settings_db):
    stores = [await SettingsStore.open(settings_db) for _ in range(3)]

    async def save(n: int):
        try:
            await stores[n % 3].save_deck(77, f"deck-{n:02d}", "4 Forest", 4, n)
            return True
        except ValueError:
            return False

    saved = await asyncio.gather(*(save(n) for n in range(MAX_DECKS_PER_GUILD + 10)))
    assert saved.count(True) == MAX_DECKS_PER_GUILD
    assert len(await stores[0].deck_names(77)) == MAX_DECKS_PER_GUILD
    for store in stores:
        await store.close()


async def test_two_hundred_concurrent_writes_and_four_processes_lose_nothing(settings_db):
    store = await SettingsStore.open(settings_db)
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
            store = await SettingsStore.open({settings_db!r})
            for i in range(10):
                await store.save_deck(base, f"deck-{{i}}", "4 Forest", 4, base)
            await store.close()
        asyncio.run(main(int(sys.argv[1])))
    """)
    procs = [subprocess.Popen([sys.executable, "-c", script, str(1000 + n)]) for n in range(4)]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    store = await SettingsStore.open(settings_db)
    assert [await store.user_language(u) for u in range(100)] == [languages[u % 5] for u in range(100)]
    assert all([(await store.guild(g)).inline_cards for g in range(100)])
    assert [len(await store.deck_names(1000 + n)) for n in range(4)] == [10] * 4
    await store.close()


# Four writers set each their own setting on the same 250 servers (1,000 writes at once): a
# read-modify-write of the row would lose the others' settings. A fifth writer, setting users'
# languages meanwhile, is killed with SIGKILL in the middle. A line is printed only once the write
# is acknowledged.
WRITES = [("reply_language", "fr"), ("machine_translations", "hide"), ("english_originals", "beside"),
          ("private_replies", True), ("user", "it")]
WRITER = textwrap.dedent("""
    import asyncio, sys
    sys.path.insert(0, {project!r})
    from bot.settings.store import SettingsStore
    async def main(key, value):
        store = await SettingsStore.open({db!r})
        print("ready", flush=True)
        sys.stdin.readline()              # all start writing together
        for n in range(250):
            if key == "user":
                await store.set_user_language(n, value)
            else:
                await store.set_guild(n, key, value)
            print(n, flush=True)          # acknowledged: committed before this line is written
        await store.close()
    asyncio.run(main(sys.argv[1], eval(sys.argv[2])))
""")


def test_a_thousand_writes_from_four_processes_and_a_sigkill_lose_nothing_acknowledged(settings_db):
    script = WRITER.format(project=str(PROJECT), db=settings_db)
    procs = [subprocess.Popen([sys.executable, "-c", script, key, repr(value)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True) for key, value in WRITES]
    assert [p.stdout.readline() for p in procs] == ["ready\n"] * 5
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    acknowledged = [[] for _ in procs]
    for line in procs[-1].stdout:         # the fifth writer is killed in the middle of its writes
        acknowledged[-1].append(int(line))
        if len(acknowledged[-1]) == 100:
            os.kill(procs[-1].pid, signal.SIGKILL)
            break
    for n, p in enumerate(procs[:-1]):
        acknowledged[n] = [int(line) for line in p.stdout]
    assert [p.wait(timeout=120) for p in procs] == [0, 0, 0, 0, -signal.SIGKILL]
    assert [len(a) for a in acknowledged] == [250, 250, 250, 250, 100]

    async def saved():
        store = await SettingsStore.open(settings_db)
        try:
            return {n: await store.guild(n) for n in range(250)}, {n: await store.user_language(n) for n in range(250)}
        finally:
            await store.close()

    settings, languages = asyncio.run(saved())
    for (key, value), written in zip(WRITES[:-1], acknowledged):
        assert [g for g in written if getattr(settings[g], key) != value] == [], key
    assert [u for u in acknowledged[-1] if languages[u] != "it"] == []
    if not settings_db.startswith("postgresql://"):
        con = sqlite3.connect(settings_db)
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        con.close()


async def test_backup_copies_a_live_database_into_a_settings_database(settings_db, tmp_path):
    store = await SettingsStore.open(settings_db)
    await store.set_guild(7, "reply_language", "ko")
    await store.set_guild(7, "private_replies", True)
    await store.set_user_language(8, "pt")
    await store.save_deck(7, "mine", "4 Forest", 4, 8)
    await store.record_synced_commands(APPLICATION, "global", "f1")
    await store.backup(tmp_path / "copy.sqlite3")
    await store.close()
    copy = await SettingsStore.open(tmp_path / "copy.sqlite3")   # a working SQLite settings database
    assert (await copy.guild(7)).reply_language == "ko" and (await copy.guild(7)).private_replies
    assert await copy.user_language(8) == "pt" and await copy.deck(7, "mine") == "4 Forest"
    assert await copy.synced_commands(APPLICATION, "global") == "f1"
    await copy.close()


async def test_the_commands_last_put_on_discord_are_recorded_per_application_and_scope(settings_db):
    store = await SettingsStore.open(settings_db)
    try:
        assert await store.synced_commands(APPLICATION, "global") is None   # never put: the first start puts them
        await store.record_synced_commands(APPLICATION, "global", "f1")
        await store.record_synced_commands(APPLICATION, "42", "f2")         # a development server's
        await store.record_synced_commands(APPLICATION, "global", "f3")     # put again, changed
        assert await store.synced_commands(APPLICATION, "global") == "f3"
        assert await store.synced_commands(APPLICATION, "42") == "f2"
        assert await store.synced_commands(APPLICATION + 1, "global") is None   # another application's are its own
    finally:
        await store.close()


def test_db_backup_command(settings_db, tmp_path):
    assert wayfinder("db", "migrate", settings_db=settings_db).returncode == 0
    out = wayfinder("db", "backup", str(tmp_path / "b.sqlite3"), settings_db=settings_db)
    assert out.returncode == 0, out.stderr
    assert sqlite3.connect(tmp_path / "b.sqlite3").execute("PRAGMA user_version").fetchone()[0] == LATEST


def test_db_check_and_migrate_commands(settings_db):
    if settings_db.startswith("postgresql://"):
        fresh = wayfinder("db", "check", settings_db=settings_db)
        assert fresh.returncode == 1 and f"schema version 0 of {LATEST}" in fresh.stdout
        assert "wayfinder db migrate" in fresh.stdout
    else:
        missing = wayfinder("db", "check", settings_db=settings_db)
        assert missing.returncode == 2 and "no settings database" in missing.stderr
    migrated = wayfinder("db", "migrate", settings_db=settings_db)
    applied = ", ".join(f"{n:03d}" for n in range(1, LATEST + 1))
    assert migrated.returncode == 0 and f"schema version {LATEST} (applied {applied})" in migrated.stdout, migrated.stderr
    again = wayfinder("db", "migrate", settings_db=settings_db)
    assert again.returncode == 0 and "nothing to apply" in again.stdout
    checked = wayfinder("db", "check", settings_db=settings_db)
    assert checked.returncode == 0 and f"schema version {LATEST} of {LATEST}, up to date" in checked.stdout
