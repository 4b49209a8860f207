"""`wayfinder` with a token, when it cannot start: Discord refuses the token or the intents, or
cannot be reached. The operator reads one line in their
own language (WAYFINDER_CONSOLE_LANG), no traceback, and the command ends with a non-zero status."""
from __future__ import annotations

import asyncio
import os
import socket
import sys
from pathlib import Path

import pytest

from bot.i18n import messages
from tests.e2e.helpers import TOKEN
from tests.fake_discord import FakeDiscord
from tests.fake_discord.network import command_network

PROJECT = Path(__file__).resolve().parents[2]


async def start(catalog: Path, folder: Path, port: int, authorities: bytes, resolves: bool = True,
                **settings) -> tuple[int, str]:
    """`wayfinder` started with a token; Discord's hosts lead to ``port`` (with ``resolves``
    false, no name resolves: a network without a name server)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("WAYFINDER_")}
    env.update(DISCORD_TOKEN=TOKEN, WAYFINDER_CATALOG=str(catalog), WAYFINDER_LOG_LEVEL="WARNING",
               WAYFINDER_SETTINGS_DB=str(folder / "settings.sqlite3"),
               **command_network(port, authorities, folder, env.get("PYTHONPATH")))
    env.update(settings)
    if not resolves:
        site = folder / "network" / "sitecustomize.py"
        site.write_text(site.read_text().replace("if host in", "if host is None and host in"))
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=folder, env=env,
                                                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(proc.communicate(), 120)
    except asyncio.TimeoutError:
        proc.kill()
        await proc.wait()
        raise
    return proc.returncode, err.decode()


def one_line(status: int, stderr: str, lang: str) -> str:
    """The command's only line on stderr (its log's warnings aside), said as `lang` says errors."""
    assert status != 0
    assert "Traceback" not in stderr, stderr
    prefix = messages(lang)._("error: {reason}", reason="")
    errors = [line for line in stderr.splitlines() if line.startswith(prefix)]
    assert len(errors) == 1, stderr
    return errors[0]


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]   # nothing listens there once it is closed


@pytest.mark.parametrize("lang, words", [("en", "Discord refused the token in DISCORD_TOKEN"),
                                         ("ru", "Discord отклонил токен из DISCORD_TOKEN")])
async def test_a_refused_token(bundled_catalog_path, tmp_path, lang, words):
    fake = FakeDiscord(refuse_token=True)
    await fake.start()
    try:
        status, stderr = await start(bundled_catalog_path, tmp_path, fake.port, fake.certs.ca.cert_pem.bytes(),
                                     WAYFINDER_CONSOLE_LANG=lang)
    finally:
        await fake.close()
    assert words in one_line(status, stderr, lang)
    assert not fake.identify, "the gateway is not reached with a refused token"


async def test_privileged_intents_not_allowed(bundled_catalog_path, tmp_path):
    fake = FakeDiscord(refuse_intents=True)
    await fake.start()
    try:
        status, stderr = await start(bundled_catalog_path, tmp_path, fake.port, fake.certs.ca.cert_pem.bytes(),
                                     WAYFINDER_CONSOLE_LANG="de", WAYFINDER_MESSAGE_CONTENT="1")
    finally:
        await fake.close()
    line = one_line(status, stderr, "de")
    assert "Discord hat den Message-Content-Intent abgelehnt" in line and "WAYFINDER_MESSAGE_CONTENT" in line, line


@pytest.mark.parametrize("lang, words", [("en", "Discord cannot be reached (the connection was refused)"),
                                         ("ru", "Discord недоступен (в соединении отказано)")])
async def test_discord_out_of_reach(bundled_catalog_path, tmp_path, lang, words):
    status, stderr = await start(bundled_catalog_path, tmp_path, closed_port(), b"", WAYFINDER_CONSOLE_LANG=lang)
    assert words in one_line(status, stderr, lang)


async def test_discord_name_not_resolved(bundled_catalog_path, tmp_path):
    status, stderr = await start(bundled_catalog_path, tmp_path, closed_port(), b"", resolves=False,
                                 WAYFINDER_CONSOLE_LANG="fr")
    line = one_line(status, stderr, "fr")
    assert "Discord est injoignable (son nom discord.com n’a pas pu être résolu)" in line, line

