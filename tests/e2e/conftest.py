"""Start the real bot against the fake Discord, through discord.py's public connector= option."""
from __future__ import annotations

import logging

import pytest

from tests.e2e.helpers import TOKEN, BotUnderTest, start_bot, stop_bot
from tests.fake_discord import FakeDiscord

@pytest.fixture(autouse=True)
def answer_budget(request, monkeypatch):
    """The bot's answer budget: as shipped, or what ``--answer-budget`` or a test's parameter sets
    (0: every answer that takes work is deferred, then sent as a follow-up or an edit)."""
    budget = getattr(request, "param", request.config.getoption("--answer-budget"))
    if budget is not None:
        from bot.discord_app import views
        monkeypatch.setattr(views, "ANSWER_BUDGET", budget)
    return budget


@pytest.fixture
def e2e_settings_db(tmp_path) -> str:
    """SQLite; a test module runs on both databases by overriding this with `settings_db`."""
    return str(tmp_path / "settings.sqlite3")


@pytest.fixture
def e2e_env(bundled_catalog_path, tmp_path, monkeypatch, e2e_settings_db):
    monkeypatch.setenv("WAYFINDER_CATALOG", str(bundled_catalog_path))
    monkeypatch.setenv("WAYFINDER_SETTINGS_DB", e2e_settings_db)
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
