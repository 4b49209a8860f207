"""What the first uses after a start would pay for is done in the background after READY: the
first /rule keystroke finds the rules read, and an autocomplete that comes before they are is still
answered within Discord's 3 seconds."""
from __future__ import annotations

import asyncio
import threading
import time

import logging

import pytest
import pytest_asyncio

from bot.config import Config
from bot.rules import book
from bot.services import Services
from tests.e2e.conftest import assert_nothing_went_wrong
from tests.e2e.helpers import BotUnderTest, start_bot, stop_bot
from tests.e2e.test_refresh import upstream  # noqa: F401  (the fixture: a local Scryfall with a new ruling)
from tests.fake_discord import FakeDiscord

DISCORD_LIMIT = 3.0   # seconds Discord waits for the answer to an interaction


def query(value):
    return [{"name": "query", "type": 3, "value": value, "focused": True}]


async def until(condition, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "not in time"
        await asyncio.sleep(0.02)


async def timed(coro):
    started = time.perf_counter()
    result = await coro
    return result, time.perf_counter() - started


@pytest_asyncio.fixture(loop_scope="module")
async def fake(e2e_env, caplog):
    """The fake Discord, for a test that starts its bot itself (after changing what it reads)."""
    caplog.set_level(logging.INFO)
    fake = FakeDiscord()
    await fake.start()
    fake.bots = []
    yield fake
    for under_test in fake.bots:
        await stop_bot(under_test.bot, under_test.task)
    await fake.close()
    assert_nothing_went_wrong(fake, caplog)


async def started(fake) -> BotUnderTest:
    under_test = BotUnderTest(fake, *await start_bot(fake))
    fake.bots.append(under_test)
    return under_test


@pytest.fixture
def held_rules(monkeypatch):
    """Reading the current edition of the rules waits until the test releases it (a slow disk, a
    loaded machine). Each read records whether Discord had sent READY when it began."""
    release, reads, fakes = threading.Event(), [], []
    real = book.load_current_edition

    def held(catalog):
        reads.append(all(f._ready.is_set() for f in fakes))
        assert release.wait(60)
        return real(catalog)

    monkeypatch.setattr(book, "load_current_edition", held)
    return release, reads, fakes


async def test_the_rules_are_read_after_ready_so_the_first_keystroke_finds_them(fake, held_rules):
    release, reads, fakes = held_rules
    fakes.append(fake)
    bot = (await started(fake)).bot
    await until(lambda: reads)   # the warm-up has started reading
    assert reads == [True], "read after READY, not before: the start is not made slower"
    early, elapsed = await timed(fake.autocomplete("rule", query("expl")))
    assert early.type == 8 and early.data["choices"] == [] and elapsed < DISCORD_LIMIT
    release.set()
    await asyncio.wait_for(bot.warming, 30)
    answer, elapsed = await timed(fake.autocomplete("rule", query("expl")))
    assert {"name": "701.44 Explore", "value": "701.44"} in answer.data["choices"]
    assert elapsed < DISCORD_LIMIT
    assert len(reads) == 1, "read once, by the warm-up"


def test_after_a_refresh_the_new_rules_are_read_before_the_bot_answers_from_them(upstream, monkeypatch):
    services = Services(Config.from_env(upstream))
    try:
        old = services.rules
        assert services.refresh() is True
        assert services.rules is not old

        def unread(catalog):
            raise AssertionError("the rules of the new catalog were not read before the switch")
        monkeypatch.setattr(book, "load_current_edition", unread)
        assert ("701.44 Explore", "701.44") in services.rules.autocomplete("expl")
    finally:
        services.close()
