"""One process of a sharded deployment, as a test starts it: the real bot (SHARD_COUNT, SHARD_IDS and
the rest from the environment) reaching the fake Discord of the test that started it, through the
same public connector= option as the in-process tests.

    python -m tests.e2e.shard_process PORT CA_FILE

It prints "ready" once its shards are ready, and closes the bot on SIGTERM."""
from __future__ import annotations

import asyncio
import signal
import ssl
import sys

import aiohttp

from tests.e2e.helpers import TOKEN
from tests.fake_discord.network import FakeResolver


async def main(port: int, ca_file: str) -> int:
    from bot import create_bot
    connector = aiohttp.TCPConnector(resolver=FakeResolver(port), ssl=ssl.create_default_context(cafile=ca_file))
    bot = create_bot(connector=connector, guild_ready_timeout=0.05)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    running = asyncio.create_task(bot.start(TOKEN))
    ready = asyncio.create_task(bot.wait_until_ready())
    await asyncio.wait({running, ready}, timeout=60, return_when=asyncio.FIRST_COMPLETED)
    if ready.done():
        print("ready", flush=True)
        await asyncio.wait({running, asyncio.create_task(stop.wait())}, return_when=asyncio.FIRST_COMPLETED)
    await bot.close()
    if running.done() and running.exception():
        raise running.exception()
    return 0 if ready.done() else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main(int(sys.argv[1]), sys.argv[2])))
