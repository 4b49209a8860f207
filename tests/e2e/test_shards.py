"""Shards across processes: two real bot processes (SHARD_COUNT=2, SHARD_IDS=0 and 1) against the fake
Discord, which routes each server's interactions by Discord's formula, sharing one PostgreSQL
settings database. What is changed through one process is honoured at once by the other."""
from __future__ import annotations

import asyncio
import os
import signal
import sys

import pytest

from tests.e2e.helpers import TOKEN, answer_of, embed_text, option
from tests.fake_discord import FakeDiscord
from tests.fake_discord.server import ADMIN_PERMISSIONS, shard_of
from tests.helpers import PROJECT


def setting(name, value):
    return [{"name": name, "type": 1, "options": [{"name": "value", "type": 3, "value": value}]}]


async def start_shard(fake: FakeDiscord, shard_id: int, env: dict, ca_file: str, log):
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.e2e.shard_process", str(fake.port), ca_file, cwd=PROJECT,
        env={**env, "SHARD_COUNT": "2", "SHARD_IDS": str(shard_id)}, stdout=asyncio.subprocess.PIPE, stderr=log)
    return process


async def stop_shards(processes) -> None:
    for process in processes:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
    for process in processes:
        try:
            await asyncio.wait_for(process.wait(), 20)
        except asyncio.TimeoutError:
            process.kill()
            await process.wait()


async def test_two_shard_processes_share_one_postgresql(bundled_catalog_path, postgres_cluster, tmp_path):
    fake = FakeDiscord()
    await fake.start()
    first, second = fake.add_guild(0, 2), fake.add_guild(1, 2)   # served by shard 0 and by shard 1
    ca_file = tmp_path / "ca.pem"
    fake.certs.ca.cert_pem.write_to_path(str(ca_file))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SHARD_", "DISCORD_TOKEN"))}
    env.update(WAYFINDER_CATALOG=str(bundled_catalog_path), WAYFINDER_SETTINGS_DB=postgres_cluster.new_database(),
               WAYFINDER_LOG_LEVEL="WARNING")
    logs = [open(tmp_path / f"shard-{n}.log", "wb") for n in (0, 1)]
    processes = [await start_shard(fake, n, env, str(ca_file), logs[n]) for n in (0, 1)]
    try:
        lines = await asyncio.wait_for(asyncio.gather(*(p.stdout.readline() for p in processes)), 120)
        assert lines == [b"ready\n", b"ready\n"], [(tmp_path / f"shard-{n}.log").read_text() for n in (0, 1)]
        assert sorted(tuple(i["shard"]) for i in fake.identify) == [(0, 2), (1, 2)]
        # the commands are synced once, by the process running shard 0
        assert len([r for r in fake.requests if r.method == "PUT" and r.path.endswith("/commands")]) == 1

        # the server's admin, in the server on shard 0: the server's language, then their own
        saved = await fake.slash("settings", setting("language", "fr"), guild_id=first, permissions=ADMIN_PERMISSIONS)
        assert (await answer_of(fake, saved))["content"].startswith("Paramètre enregistré : Langue des réponses")
        mine = await fake.slash("language", [option("value", "de")], guild_id=first,
                                permissions=ADMIN_PERMISSIONS)
        assert (await answer_of(fake, mine))["content"] == "Votre langue est maintenant : allemand."   # the server's language rules here
        assert {fake.routed[i] for i in fake.routed} == {(0, 2)}

        # the other process answers in the other server: the admin's own language holds there
        answer = await fake.slash("ruling", [option("card", "tishana")], guild_id=second)
        assert fake.routed[next(reversed(fake.routed))] == (1, 2)
        assert "Tishanas Pfadfinderin (Tishana's Wayfinder)" in embed_text(await answer_of(fake, answer))
        # a change through shard 0 is read by shard 1 at its next command: nothing went stale
        await fake.slash("language", [option("value", "ja")], guild_id=first)
        answer = await fake.slash("ruling", [option("card", "tishana")], guild_id=second)
        assert "ティシャーナの道探し (Tishana's Wayfinder)" in embed_text(await answer_of(fake, answer))
        # while the server setting stays the first server's: a reader without a language of their own
        reader = fake.new_user("Reader")
        there = await fake.slash("ruling", [option("card", "tishana")], guild_id=first, user=reader, locale="it")
        here = await fake.slash("ruling", [option("card", "tishana")], guild_id=second, user=reader, locale="it")
        assert "Guidevoie de Tishana" in embed_text(await answer_of(fake, there)) and "Apripista di Tishana" in embed_text(await answer_of(fake, here))
        assert shard_of(first, 2) == 0 and shard_of(second, 2) == 1
    finally:
        await stop_shards(processes)
        for log in logs:
            log.close()
        await fake.close()
    assert [p.returncode for p in processes] == [0, 0]
    for n in (0, 1):
        log = (tmp_path / f"shard-{n}.log").read_text()
        assert "Traceback" not in log and " ERROR " not in log and TOKEN not in log, log
    assert not fake.unexpected and not fake.resolver.refused
