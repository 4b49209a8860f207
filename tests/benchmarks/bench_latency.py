"""/ruling under load through the offline Discord harness, on the full catalog: the event loop's lag
(p99) while 50 /ruling run at once, and how long the users wait — for the first response (Discord
fails an interaction with none within 3 s) and for the answer they see (the answer itself, or the
follow-up after "thinking…") — beside the single-request latency.

Baselines, measured in the same run: the harness's floor (a /floor round trip: the same harness
and dispatch, a one-word answer, no handler work) for the single request, and the same bot with
the core work run on the event loop (as a handler that calls the core directly does) for the lag.
The fake Discord shares the bot's event loop, so its own work is in every figure alike.

    python tests/benchmarks/bench_latency.py [--at-once 50] [--n 40]
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _shared import (FLOOR_WHAT, RULING_REQUESTS, Report, floor_trip, full_catalog, harness_env,  # noqa: E402
                     percentile, ruling_trip, started_bot)

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


async def measure(at_once: int, n: int) -> dict:
    """Start the bot, warm it up, then time requests one at a time and ``at_once`` together."""
    async with started_bot() as fake:
        for i in range(len(RULING_REQUESTS)):   # each query and language once
            await ruling_trip(fake, i)
            await floor_trip(fake)
        floor, single = [], []
        for i in range(n):
            floor.append((await floor_trip(fake)).seconds)
            single.append((await ruling_trip(fake, i)).seconds)
        with LoopLag() as lag:
            results = await asyncio.gather(*(ruling_trip(fake, i) for i in range(at_once)))
        return {"floor": statistics.median(floor), "single": statistics.median(single), "lag_p99": lag.p99(),
                "slowest_first": max(r.first for r in results), "slowest_answer": max(r.seconds for r in results),
                "deferred": sum(r.deferred for r in results)}


async def inline(interaction, work, /, *args, ephemeral: bool = False, update: bool = False, long_work: bool = False,
                 **kwargs):
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--at-once", type=int, default=50)
    parser.add_argument("--n", type=int, default=40, help="requests one at a time")
    args = parser.parse_args()
    harness_env(full_catalog())
    on_loop = measure_on_the_loop(args.at_once, args.n)
    threaded = asyncio.run(measure(args.at_once, args.n))

    many = args.at_once
    single, floor = threaded["single"] * 1000, threaded["floor"] * 1000
    lag, lag_on_loop = threaded["lag_p99"] * 1000, on_loop["lag_p99"] * 1000
    report = Report(f"/ruling: one at a time, and {many} at once (full catalog, offline harness; wall clock)")
    report.info("/ruling one at a time: until the answer is seen, median (baseline: the floor, "
                f"{FLOOR_WHAT})", f"{single:.2f} ms", f"{floor:.2f} ms", f"{single / floor:.3f}x")
    report.ratio(f"event-loop lag p99, {many} /ruling at once (baseline: core work on the loop)", lag, lag_on_loop,
                 LAG_GOAL, unit="ms")
    report.info(f"event-loop lag p99, {many} at once (beside: /ruling one at a time)", f"{lag:.2f} ms",
                f"{single:.2f} ms", f"{lag / single:.3f}x")
    report.limit(f"slowest first response of {many} at once (Discord fails at {DISCORD_LIMIT:g} s)",
                 threaded["slowest_first"], DISCORD_LIMIT, "s", baseline=on_loop["slowest_first"])
    report.info(f"slowest answer seen of {many} at once (after any deferral)", f"{threaded['slowest_answer']:.2f} s",
                f"{on_loop['slowest_answer']:.2f} s",
                f"{threaded['slowest_answer'] / on_loop['slowest_answer']:.3f}x")
    report.info(f"answers deferred of {many} at once", str(threaded["deferred"]), str(on_loop["deferred"]))
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
