"""What the end-to-end tests share: starting and stopping the real bot against the fake Discord,
building interaction options, and reading what the bot sent."""
from __future__ import annotations

import asyncio
import sys
import time

import pytest

from tests.fake_discord import FakeDiscord

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.fake.token-never-to-be-logged"


# A test under this mark runs twice: with the bot's answer budget as shipped, and with none, so
# that every answer that takes work is deferred and comes as a follow-up or an edit.
ANSWERED_OR_DEFERRED = pytest.mark.parametrize("answer_budget", [None, 0.0], ids=["budget", "deferred"],
                                               indirect=True)


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


async def until(condition, timeout: float = 30) -> None:
    """Wait until ``condition()`` holds (at most ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "not in time"
        await asyncio.sleep(0.02)


async def stop_bot(bot, task) -> None:
    await bot.close()
    try:
        await asyncio.wait_for(task, 10)
    except (asyncio.CancelledError, Exception):
        pass



def module_of(under_test: BotUnderTest, name: str):
    """The module ``name`` as the running bot uses it, for a test to patch: every bot loads its own
    copy of each extension (``cogs.*``), and a bot that closes takes its copies out of sys.modules."""
    return under_test.bot.extensions.get(name) or sys.modules[name]


def option(name, value, focused=False):
    data = {"name": name, "type": 3, "value": value}
    if focused:
        data["focused"] = True
    return data


def embed_text(body: dict) -> str:
    parts = [body.get("content") or ""]
    for e in body.get("embeds") or []:
        parts += [e.get("title") or "", e.get("description") or "", (e.get("footer") or {}).get("text", "")]
        parts += [f["name"] + "\n" + f["value"] for f in e.get("fields", [])]
    return "\n".join(parts)


def custom_ids(body: dict) -> list[str]:
    ids = []
    for row in body.get("components") or []:
        for component in row.get("components", []):
            ids.append(component.get("custom_id"))
    return ids


async def answer_of(fake: FakeDiscord, callback) -> dict:
    """The message a user finally sees for an interaction, whether the bot answered at once (4: a
    new message, 7: the component's message updated) or deferred (5: "thinking…", 6: a pending
    edit) and answered after with a follow-up (shown in place of "thinking…", as private as the
    deferral) or an edit. Later reads of the same interaction give the same message."""
    seen = getattr(callback, "_seen", None)
    if seen is not None:
        return seen
    assert callback.type in (4, 5, 6, 7), callback.body
    if callback.type in (4, 7):
        seen = callback.message
    else:
        _, seen = await fake.next_edit(callback.token, timeout=60)
    callback._seen = seen
    return seen


async def edited(fake: FakeDiscord, callback, timeout: float = 60) -> dict:
    """The message a user sees after the bot's next edit of an answer already read with
    ``answer_of`` (an answer completed later, such as a chart attached when it is drawn)."""
    await answer_of(fake, callback)
    _, message = await fake.next_edit(callback.token, timeout=timeout)
    return message
