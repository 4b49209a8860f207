"""What the first uses after a start would pay for is done in the background after READY: the
first /rule keystroke finds the rules read (an autocomplete that comes before they are is still
answered within Discord's 3 seconds), and the /ask index is built by a process of its own, so that
the first question does not wait for it (one asked during the build is deferred, then answered)."""
from __future__ import annotations

import asyncio
import logging
import os
import shutil
import sys
import threading
import time

import pytest
import pytest_asyncio

from bot.ask import command as ask_command
from bot.ask.index import AskIndex, index_path
from bot.catalog import Catalog
from bot.catalog.locks import FileLock, beside
from bot.config import Config
from bot.rules import book
from bot.services import Services
from tests.e2e.conftest import assert_nothing_went_wrong
from tests.e2e.helpers import BotUnderTest, answer_of, edited, embed_text, option, start_bot, stop_bot, until
from tests.e2e.test_refresh import upstream, upstream_gets  # noqa: F401  (fixtures: a local Scryfall, a new ruling)
from tests.fake_discord import FakeDiscord, payloads

DISCORD_LIMIT = 3.0   # seconds Discord waits for the answer to an interaction


def query(value):
    return [{"name": "query", "type": 3, "value": value, "focused": True}]


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


async def test_an_autocomplete_offers_choices_on_a_host_whose_clock_runs_ahead(shared_bot):
    """The answer budget counts from the interaction's creation, by Discord's clock: an age beyond
    what Discord lets any interaction reach says this host's clock is off, not that it is late."""
    fake, bot = shared_bot.fake, shared_bot.bot
    await until(lambda: bot.warming is not None)
    await asyncio.wait_for(asyncio.shield(bot.warming), 120)   # the rules read: no wait at all
    data = {"id": fake.command_id("rule"), "name": "rule", "type": 1, "options": query("expl")}
    payload = fake.interaction(4, data)
    minutes_ago = int(time.time() * 1000) - 10 * 60 * 1000
    payload["id"] = str((minutes_ago - payloads.DISCORD_EPOCH) << 22)
    answer = await fake.send(payload)
    assert {"name": "701.44 Explore", "value": "701.44"} in answer.data["choices"]


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


QUESTION = [option("question", "what happens when a creature explores and the library is empty?")]


@pytest.fixture
def fresh_catalog(e2e_env, bundled_catalog_path, tmp_path, monkeypatch):
    """A catalog with no /ask index beside it yet; the bot's own process never builds one."""
    live = tmp_path / "catalog.sqlite3"
    shutil.copy(bundled_catalog_path, live)
    monkeypatch.setenv("WAYFINDER_CATALOG", str(live))

    def not_here(*args):
        raise AssertionError("the bot's own process built the /ask index")
    monkeypatch.setattr(AskIndex, "_build_file", staticmethod(not_here))
    monkeypatch.setattr(AskIndex, "in_memory", staticmethod(not_here))
    return live


def explore_rules_cited(message: dict) -> bool:
    return "701.44" in embed_text(message)


GATED_BUILDER = """
import pathlib, sys, time
gate = pathlib.Path(sys.argv[1])
(gate.parent / "building").touch()
while not gate.exists():
    time.sleep(0.05)
from bot.ask.index import main
sys.exit(main(sys.argv[2:]))   # the catalog's path
"""


async def test_the_ask_index_is_built_after_ready_by_a_process_of_its_own_and_kept(fake, fresh_catalog, tmp_path,
                                                                                    monkeypatch):
    """Built without a question; one asked during the build is deferred, then answered from it
    (the bot's own process builds nothing); the next start reads it back."""
    gate = tmp_path / "gate"
    monkeypatch.setattr(Services, "ask_builder", (sys.executable, "-c", GATED_BUILDER, str(gate)))
    first = await started(fake)
    await until(lambda: (tmp_path / "building").exists())
    asked, elapsed = await timed(fake.slash("ask", QUESTION, locale="de"))
    assert asked.type == 5 and elapsed < DISCORD_LIMIT     # "thinking…" while the index is built
    gate.touch()
    kind, message = await fake.next_edit(asked.token, timeout=120)
    assert kind == "followup" and explore_rules_cited(message)
    index = index_path(fresh_catalog)
    built = index.stat().st_mtime_ns
    await stop_bot(first.bot, first.task)
    again = await started(fake)
    await asyncio.wait_for(again.bot.warming, 120)
    assert index.stat().st_mtime_ns == built, "a start finds it beside the catalog and reads it"
    assert explore_rules_cited(await answer_of(fake, await fake.slash("ask", QUESTION, locale="fr")))


async def test_after_a_refresh_the_new_catalogs_ask_index_is_built_in_the_background(fake, upstream, monkeypatch):
    for key, value in upstream.items():
        monkeypatch.setenv(key, value)
    bot = (await started(fake)).bot
    assert await bot.refresh_data() is True
    await asyncio.wait_for(bot.warming, 120)
    catalog = Catalog(upstream["WAYFINDER_CATALOG"])
    index = AskIndex.read(catalog)   # the file beside the catalog, when it is this catalog's index
    catalog.close()
    assert index is not None, "the new catalog's index, built before any question"
    index.close()
    assert "zebrafish" in embed_text(await answer_of(fake, await fake.slash(
        "ask", [option("question", "zebrafish clause")])))


async def test_questions_during_the_ask_index_build_leave_the_explore_commands_answering(fake, fresh_catalog,
                                                                                          tmp_path, monkeypatch):
    """Questions asked while the /ask index is built wait for it in a thread of their own: however
    many come, /explore (run in asyncio's default threads) still answers meanwhile; then each
    question is answered from the index built."""
    gate = tmp_path / "gate"
    monkeypatch.setattr(Services, "ask_builder", (sys.executable, "-c", GATED_BUILDER, str(gate)))
    await started(fake)
    await until(lambda: (tmp_path / "building").exists())
    default_threads = min(32, (os.cpu_count() or 1) + 4)   # asyncio's default executor
    asked = [await fake.slash("ask", QUESTION, user=fake.new_user()) for _ in range(default_threads + 1)]
    odds = await fake.slash("explore", [{"name": "odds", "type": 1, "options": [
        {"name": "deck", "type": 3, "value": "ixalan"}, {"name": "explorer", "type": 3, "value": "Jadelight Ranger"},
        {"name": "times", "type": 4, "value": 4}]}])
    assert "59.32% (35/59)" in embed_text(await answer_of(fake, odds)), "answered during the build"
    assert not (tmp_path / "gate").exists()
    gate.touch()
    for question in asked:
        assert explore_rules_cited(await answer_of(fake, question))
    await edited(fake, odds)   # the odds' chart attached: no work of this test outlives it


async def test_a_question_while_another_process_builds_the_ask_index_is_told_to_ask_again(fake, fresh_catalog,
                                                                                           monkeypatch):
    """Another process builds the catalog's /ask index (a second bot on the same catalog, a
    command): the bot's own build waits for it, its questions do not (no longer than an
    interaction can be answered). Each is told in its reader's language to ask again in a minute,
    and once the other build has ended the bot answers from the index it made."""
    monkeypatch.setattr(ask_command, "INDEX_WAIT", 0.5)
    other = FileLock(beside(index_path(fresh_catalog), ".lock"))
    assert other.acquire()
    try:
        bot = (await started(fake)).bot
        await until(lambda: bot.warming is not None)
        german = await answer_of(fake, await fake.slash("ask", QUESTION, locale="de"))
        japanese = await answer_of(fake, await fake.slash("ask", QUESTION, locale="ja", user=fake.new_user()))
        assert "Der Suchindex für Fragen wird noch erstellt" in german["content"]
        assert "質問の検索インデックスはまだ作成中です" in japanese["content"]
        assert not index_path(fresh_catalog).exists(), "the other process still holds the build"
    finally:
        other.release()
    await asyncio.wait_for(asyncio.shield(bot.warming), 120)   # the bot's build, once the other's ended
    assert explore_rules_cited(await answer_of(fake, await fake.slash("ask", QUESTION, locale="fr")))


async def test_a_question_waiting_when_the_background_build_is_stopped_is_answered_from_one_started_again(
        fake, fresh_catalog, tmp_path, monkeypatch):
    """A refresh that switches catalogs stops the background build of the /ask index: a question
    waiting for it does not build the index in the bot's own process (fresh_catalog), it waits for
    a background build started again, then is answered from it."""
    gate = tmp_path / "gate"
    monkeypatch.setattr(Services, "ask_builder", (sys.executable, "-c", GATED_BUILDER, str(gate)))
    bot = (await started(fake)).bot
    building = tmp_path / "building"
    await until(building.exists)
    asked = await fake.slash("ask", QUESTION, locale="it")
    assert asked.type == 5                               # "thinking…" while the index is built
    building.unlink()
    bot.services._stop_builder()                         # as a refresh does when the catalog changes
    await until(building.exists)                         # a build of its own, started again
    gate.touch()
    assert explore_rules_cited(await answer_of(fake, asked))
