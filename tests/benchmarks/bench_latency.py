"""/ruling under load through the offline Discord harness, on the full catalog: the event loop's lag
(p99) while 50 /ruling run at once, beside the single-request latency.

Baselines, measured in the same run: the harness's floor (an autocomplete answered with nothing)
for the single request, and the same bot with the core work run on the event loop (as a handler
that calls the core directly does) for the lag. The fake Discord shares the bot's event loop, so
its own work is in every figure alike.

    python tests/benchmarks/bench_latency.py [--at-once 50] [--n 40]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _shared import full_catalog  # noqa: E402

QUERIES = ["defossilizare", "agente da rainha", "lanterne calotte", "Jadelight Ranger", "Île", "Llanowar Elves",
           "serv of the cond", "Lightning Bolt", "ティシャーナの道探し", "Проводница Тишаны", "Guidevoie de Tishana"]
LOCALES = ["it", "pt-BR", "fr", "en-US", "fr", "de", "en-US", "es-ES", "ja", "ru", "ko"]
DISCORD_LIMIT = 3.0   # seconds: Discord fails an interaction with no response by then
LAG_GOAL = 0.75       # the lag under load, as a share of the lag with the core work on the loop


class LoopLag:
    """How late the event loop wakes a task that asked to sleep ``interval`` seconds: the time
    every other callback on the loop waits, sampled while the monitor runs."""

    def __init__(self, interval: float = 0.005):
        self.interval = interval
        self.samples: list[float] = []
        self._task: asyncio.Task | None = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            started = loop.time()
            await asyncio.sleep(self.interval)
            self.samples.append(loop.time() - started - self.interval)

    def __enter__(self) -> "LoopLag":
        self._task = asyncio.get_running_loop().create_task(self._run())
        return self

    def __exit__(self, *exc) -> None:
        self._task.cancel()

    def p99(self) -> float:
        return percentile(self.samples, 0.99)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1) + 0.5))] if ordered else 0.0


async def timed_slash(fake, i: int):
    """Seconds until the first response to a /ruling (the answer, or "thinking…"), and its type."""
    options, locale = [{"name": "card", "type": 3, "value": QUERIES[i % len(QUERIES)]}], LOCALES[i % len(LOCALES)]
    data = {"id": fake.command_id("ruling"), "name": "ruling", "type": 1, "options": options}
    started = time.perf_counter()
    answer = await fake.send(fake.interaction(2, data, locale=locale), timeout=60)
    return time.perf_counter() - started, answer.type


async def measure(at_once: int, n: int) -> dict:
    """Start the bot, warm it up, then time requests one at a time and ``at_once`` together."""
    from tests.e2e.helpers import start_bot, stop_bot
    from tests.fake_discord import FakeDiscord
    fake = FakeDiscord()
    await fake.start()
    bot, task = await start_bot(fake)
    try:
        for i in range(len(QUERIES)):   # each query and language once
            await timed_slash(fake, i)
        floor, single = [], []
        for i in range(n):
            started = time.perf_counter()
            await fake.autocomplete("ruling", [{"name": "card", "type": 3, "value": "", "focused": True}])
            floor.append(time.perf_counter() - started)
            single.append((await timed_slash(fake, i))[0])
        with LoopLag() as lag:
            results = await asyncio.gather(*(timed_slash(fake, i) for i in range(at_once)))
        return {"floor": statistics.median(floor), "single": statistics.median(single), "lag_p99": lag.p99(),
                "slowest": max(t for t, _ in results), "deferred": sum(1 for _, kind in results if kind == 5)}
    finally:
        await stop_bot(bot, task)
        await fake.close()


async def inline(interaction, work, /, *args, ephemeral: bool = False, update: bool = False, **kwargs):
    """The baseline's way of answering: the core called right on the event loop."""
    return work(*args, **kwargs)


def measure_on_the_loop(at_once: int, n: int) -> dict:
    from bot.discord_app import views
    threaded = views.in_time
    views.in_time = inline   # the cogs are loaded afresh by every bot start and take this one
    try:
        return asyncio.run(measure(at_once, n))
    finally:
        views.in_time = threaded


def print_rows(title: str, rows: list[tuple[str, str, str, str, str, bool | None]]) -> int:
    """Rows of figure | value | baseline | ratio | goal | result; 1 when a goal was missed."""
    cells = [("figure", "value", "baseline", "ratio", "goal", "result")] + [
        (*row[:5], "" if row[5] is None else ("pass" if row[5] else "FAIL")) for row in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(6)]
    print(f"\n== {title}")
    for c in cells:
        print(" | ".join(text.ljust(width) for text, width in zip(c, widths)).rstrip())
    missed = [row[0] for row in rows if row[5] is False]
    if missed:
        print(f"goals missed: {', '.join(missed)}")
    return 1 if missed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--at-once", type=int, default=50)
    parser.add_argument("--n", type=int, default=40, help="requests one at a time")
    args = parser.parse_args()
    catalog = full_catalog()
    os.environ["WAYFINDER_CATALOG"] = str(catalog)
    os.environ["WAYFINDER_SETTINGS_DB"] = str(Path(tempfile.mkdtemp()) / "settings.sqlite3")
    os.environ["WAYFINDER_LOG_LEVEL"] = "WARNING"
    on_loop = measure_on_the_loop(args.at_once, args.n)
    threaded = asyncio.run(measure(args.at_once, args.n))

    many = args.at_once
    single, floor = threaded["single"] * 1000, threaded["floor"] * 1000
    lag, lag_on_loop = threaded["lag_p99"] * 1000, on_loop["lag_p99"] * 1000
    slowest, slowest_on_loop = threaded["slowest"], on_loop["slowest"]
    return print_rows(f"/ruling: one at a time, and {many} at once (full catalog, offline harness)", [
        ("/ruling one at a time: first response, median (baseline: harness floor)", f"{single:.2f} ms",
         f"{floor:.2f} ms", f"{single / floor:.3f}x", "-", None),
        (f"event-loop lag p99, {many} /ruling at once (baseline: core work on the loop)", f"{lag:.2f} ms",
         f"{lag_on_loop:.2f} ms", f"{lag / lag_on_loop:.3f}x", f"<= {LAG_GOAL}x", lag <= LAG_GOAL * lag_on_loop),
        (f"event-loop lag p99, {many} at once (beside: /ruling one at a time)", f"{lag:.2f} ms",
         f"{single:.2f} ms", f"{lag / single:.3f}x", "-", None),
        (f"slowest first response of {many} at once (Discord fails at {DISCORD_LIMIT:g} s)", f"{slowest:.2f} s",
         f"{slowest_on_loop:.2f} s", f"{slowest / slowest_on_loop:.3f}x", f"<= {DISCORD_LIMIT:g} s",
         slowest <= DISCORD_LIMIT),
        (f"answers deferred of {many} at once", str(threaded["deferred"]), str(on_loop["deferred"]), "-", "-", None),
    ])


if __name__ == "__main__":
    sys.exit(main())
