"""Start the real bot against the fake Discord, through discord.py's public connector= option.

Two ways to get a started bot:
- ``discord_bot``: a bot of the test's own, for a test that changes state (settings, saved decks,
  cooldowns, a restart, a slowed-down or changed configuration, a refresh of the data);
- ``shared_bot``: the one bot of the test module, started once, for tests that only read. Each
  test on it starts with a fake Discord that has forgotten the earlier tests' requests, messages
  and answers, and ends only when every interaction it sent has been answered; so each test reads
  only its own interactions' answers.

Every e2e test runs in its module's event loop (the shared bot lives there from the module's first
test to its last).
"""
from __future__ import annotations

import inspect
import logging
from pathlib import Path

import pytest
import pytest_asyncio

from tests.e2e.helpers import TOKEN, BotUnderTest, start_bot, stop_bot
from tests.fake_discord import FakeDiscord

HERE = Path(__file__).parent


def pytest_collection_modifyitems(items):
    for item in items:
        if item.path.parent == HERE and inspect.iscoroutinefunction(getattr(item, "obj", None)):
            item.add_marker(pytest.mark.asyncio(loop_scope="module"), append=False)


@pytest.fixture(autouse=True)
def answer_budget(request, monkeypatch):
    """The bot's answer budget: as shipped, or what ``--answer-budget`` or a test's parameter sets
    (0: every answer that takes work is deferred, then sent as a follow-up or an edit). The bot reads
    it at each interaction, so a shared bot follows each test's budget."""
    budget = getattr(request, "param", request.config.getoption("--answer-budget"))
    if budget is not None:
        from bot.discord_app import views
        monkeypatch.setattr(views, "ANSWER_BUDGET", budget)
    return budget


@pytest.fixture(scope="session", autouse=True)
def ask_index_built_at_normal_priority():
    """The bot builds the /ask index in a process at the lowest priority; on a machine as loaded as
    a test run makes it, that process would wait minutes for the CPU, and a first question with it."""
    from bot.services import Services
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Services, "ask_builder", (*Services.ask_builder[:-1], "0"))
        yield


@pytest.fixture(scope="module")
def e2e_catalog(bundled_catalog_path) -> Path:
    """The catalog the module's bots answer from; a module overrides this for another one."""
    return bundled_catalog_path


@pytest.fixture
def e2e_settings_db(tmp_path) -> str:
    """SQLite; a test module runs on both databases by overriding this with `settings_db`."""
    return str(tmp_path / "settings.sqlite3")


@pytest.fixture
def e2e_env(e2e_catalog, tmp_path, monkeypatch, e2e_settings_db):
    monkeypatch.setenv("WAYFINDER_CATALOG", str(e2e_catalog))
    monkeypatch.setenv("WAYFINDER_SETTINGS_DB", e2e_settings_db)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    return tmp_path


def assert_nothing_went_wrong(fake: FakeDiscord, caplog) -> None:
    """Called at a fixture's teardown: what the test's setup and call logged too (pytest keeps each
    phase's records apart; ``caplog.records`` alone holds only the teardown's)."""
    records = [*caplog.get_records("setup"), *caplog.get_records("call"), *caplog.records]
    errors = [r for r in records if r.levelno >= logging.ERROR and r.name.startswith(("discord", "wayfinder"))]
    assert not errors, [r.getMessage() for r in errors]
    assert not fake.unexpected, fake.unexpected
    assert not fake.resolver.refused, fake.resolver.refused
    assert not [r for r in records if TOKEN in r.getMessage()]


@pytest_asyncio.fixture(loop_scope="module")
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
    assert_nothing_went_wrong(fake, caplog)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def started_bot(e2e_catalog, tmp_path_factory):
    """The module's bot, started once, with a settings database of its own."""
    settings = tmp_path_factory.mktemp("shared-bot") / "settings.sqlite3"
    with pytest.MonkeyPatch.context() as env:
        env.setenv("WAYFINDER_CATALOG", str(e2e_catalog))
        env.setenv("WAYFINDER_SETTINGS_DB", str(settings))
        env.delenv("DISCORD_TOKEN", raising=False)
        fake = FakeDiscord()
        await fake.start()
        try:
            bot, task = await start_bot(fake)
        except BaseException:
            await fake.close()
            raise
    try:
        yield BotUnderTest(fake, bot, task)
    finally:
        await stop_bot(bot, task)
        await fake.close()


@pytest_asyncio.fixture(loop_scope="module")
async def shared_bot(started_bot, caplog):
    """The module's started bot, for a test that only reads: it must not change settings, save
    decks, hit a cooldown or restart the bot."""
    caplog.set_level(logging.INFO)
    fake = started_bot.fake
    # what went wrong since the last test's end (for the module's first test: the bot's start)
    assert not fake.unexpected and not fake.resolver.refused, (fake.unexpected, fake.resolver.refused)
    fake.forget()
    yield started_bot
    unanswered = await fake.settle()
    assert not unanswered, f"interactions left unanswered: {unanswered}"
    assert started_bot.bot.is_ready() and not started_bot.task.done(), "the shared bot stopped"
    assert_nothing_went_wrong(fake, caplog)
    fake.forget()
