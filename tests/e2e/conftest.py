"""Start the real bot against the fake Discord, through discord.py's public connector= option."""
from __future__ import annotations

import asyncio
import logging

import pytest

from tests.fake_discord import FakeDiscord

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.fake.token-never-to-be-logged"


class BotUnderTest:
    def __init__(self, fake: FakeDiscord, bot, task):
        self.fake, self.bot, self.task = fake, bot, task


async def start_bot(fake: FakeDiscord, **options):
    from bot import create_bot
    bot = create_bot(connector=fake.connector(), guild_ready_timeout=0.05, **options)
    task = asyncio.create_task(bot.start(TOKEN))
    ready = asyncio.create_task(bot.wait_until_ready())
    done, _ = await asyncio.wait({task, ready}, timeout=30, return_when=asyncio.FIRST_COMPLETED)
    if ready not in done:
        ready.cancel()
        if task.done():
            await bot.close()
            task.result()  # raises what stopped the bot
        raise TimeoutError("the bot did not become ready")
    return bot, task


async def stop_bot(bot, task) -> None:
    await bot.close()
    try:
        await asyncio.wait_for(task, 10)
    except (asyncio.CancelledError, Exception):
        pass


@pytest.fixture
def e2e_env(bundled_catalog_path, tmp_path, monkeypatch):
    monkeypatch.setenv("WAYFINDER_CATALOG", str(bundled_catalog_path))
    monkeypatch.setenv("WAYFINDER_SETTINGS_DB", str(tmp_path / "settings.sqlite3"))
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    return tmp_path


@pytest.fixture
async def discord_bot(e2e_env, caplog):
    caplog.set_level(logging.INFO)
    fake = FakeDiscord()
    await fake.start()
    bot, task = await start_bot(fake)
    under_test = BotUnderTest(fake, bot, task)
    try:
        yield under_test
    finally:
        await stop_bot(under_test.bot, under_test.task)   # a test may have restarted the bot
        await fake.close()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR and r.name.startswith(("discord", "wayfinder"))]
    assert not errors, [r.getMessage() for r in errors]
    assert not fake.unexpected, fake.unexpected
    assert not fake.resolver.refused, fake.resolver.refused
    assert TOKEN not in caplog.text
