"""The `wayfinder` command as a user starts it, DISCORD_TOKEN set, reaching the harness through the
network as it reaches Discord: its host names resolve to the harness, and the certificate
authorities it trusts are the ones SSL_CERT_FILE names, as the system's bundle."""
from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

from tests.e2e.helpers import TOKEN, answer_of
from tests.fake_discord import FakeDiscord
from tests.fake_discord.network import command_network, system_authorities

PROJECT = Path(__file__).resolve().parents[2]


async def start_command(fake: FakeDiscord, catalog: Path, folder: Path, authorities: bytes):
    env = {k: v for k, v in os.environ.items() if not k.startswith("WAYFINDER_")}
    env.update(DISCORD_TOKEN=TOKEN, WAYFINDER_CATALOG=str(catalog),
               WAYFINDER_SETTINGS_DB=str(folder / "settings.sqlite3"), WAYFINDER_LOG_LEVEL="WARNING",
               **command_network(fake.port, authorities, folder, env.get("PYTHONPATH")))
    log = open(folder / "wayfinder.log", "wb")
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=folder, env=env,
                                                stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log)
    log.close()
    return proc


async def stop(proc) -> None:
    if proc.returncode is None:
        proc.send_signal(signal.SIGINT)   # Ctrl-C
        try:
            await asyncio.wait_for(proc.wait(), 60)
        except asyncio.TimeoutError:
            proc.kill()
            await proc.wait()


async def test_the_command_answers_a_ruling_from_a_server_its_authorities_vouch_for(bundled_catalog_path,
                                                                                     tmp_path):
    fake = FakeDiscord()
    await fake.start()
    proc = await start_command(fake, bundled_catalog_path, tmp_path,
                               system_authorities() + fake.certs.ca.cert_pem.bytes())
    try:
        await asyncio.wait({asyncio.ensure_future(fake.wait_ready(120)), asyncio.ensure_future(proc.wait())},
                           return_when=asyncio.FIRST_COMPLETED)
        assert proc.returncode is None, (tmp_path / "wayfinder.log").read_text(errors="replace")[-3000:]
        ruling = {"id": fake.command_id("ruling"), "name": "ruling", "type": 1,
                  "options": [{"name": "card", "type": 3, "value": "Jadelight Ranger"}]}
        answer = await answer_of(fake, await fake.send(fake.interaction(2, ruling), timeout=60))
        assert "Jadelight Ranger" in json.dumps(answer, ensure_ascii=False)
    finally:
        await stop(proc)
        await fake.close()
    assert proc.returncode == 0, (tmp_path / "wayfinder.log").read_text(errors="replace")[-3000:]


async def test_the_command_refuses_a_server_no_authority_it_trusts_vouches_for(bundled_catalog_path, tmp_path):
    fake = FakeDiscord()
    await fake.start()
    proc = await start_command(fake, bundled_catalog_path, tmp_path, system_authorities())
    try:
        await asyncio.wait_for(proc.wait(), 120)
    finally:
        await stop(proc)
        await fake.close()
    log = (tmp_path / "wayfinder.log").read_text(errors="replace")
    assert proc.returncode != 0 and "Traceback" not in log, log[-3000:]
    assert "error: Discord cannot be reached (no certificate authority this system trusts vouches for its" \
           " certificate)" in log, log[-3000:]
    assert not fake.commands, "commands were synced to a server whose certificate nothing vouches for"
    assert TOKEN not in log
