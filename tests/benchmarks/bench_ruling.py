"""/ruling through the offline Discord harness, on the full catalog: what the handler costs beyond
the harness's floor (a /floor round trip: the same harness and dispatch, a one-word answer, no
handler work), until the user sees the answer; and the core call alone, for information.

Each round trip's cost is the CPU time of the whole process (the harness, the bot and its
threads), which a loaded machine does not inflate the way it does wall-clock time; the wall clock
is printed beside. /ruling and /floor are sent in turns, as many of each, the order alternating.

The goal is issue 15's — the /ruling handler ≤ 5 ms — judged as a ratio to the floor measured in
the same run: on a quiet moment of this machine the floor takes about 1.3 ms of CPU, so 5 ms is
3.8x of it.

    python tests/benchmarks/bench_ruling.py [--n 300]
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from _shared import (FLOOR_WHAT, RULING_REQUESTS, Report, floor_trip, full_catalog, harness_env,  # noqa: E402
                     median_trip, percentile, ruling_trip, started_bot)

HANDLER_RATIO = 3.8   # 5 ms against the floor's ~1.3 ms


async def measure(n: int, report: Report) -> None:
    async with started_bot() as fake:
        for i in range(len(RULING_REQUESTS)):   # warm up: each query and language once
            await ruling_trip(fake, i)
            await floor_trip(fake)
        floor, ruling = [], []
        for i in range(n):
            if i % 2:
                ruling.append(await ruling_trip(fake, i))
                floor.append(await floor_trip(fake))
            else:
                floor.append(await floor_trip(fake))
                ruling.append(await ruling_trip(fake, i))
    f, r = median_trip(floor), median_trip(ruling)
    report.info(f"harness floor ({FLOOR_WHAT}), median of {n} (cpu)", f"{f.cpu * 1000:.2f} ms")
    report.info("/ruling round trip until the answer is seen, median (cpu)", f"{r.cpu * 1000:.2f} ms")
    report.info("  the same, wall clock; p99 wall clock", f"{r.seconds * 1000:.2f} ms",
                f"{f.seconds * 1000:.2f} ms (floor)",
                f"p99 {percentile([t.seconds for t in ruling], 0.99) * 1000:.2f} ms")
    report.ratio("/ruling handler (round trip minus floor), median (cpu)", (r.cpu - f.cpu) * 1000, f.cpu * 1000,
                 HANDLER_RATIO, unit="ms", note="5 ms")
    report.info("  the same, wall clock", f"{(r.seconds - f.seconds) * 1000:.2f} ms", f"{f.seconds * 1000:.2f} ms",
                f"{(r.seconds - f.seconds) / f.seconds:.3f}x")


def core(n: int, report: Report) -> None:
    from bot.rulings.command import ruling
    from bot.config import Config
    from bot.languages import language_for_locale
    from bot.services import Services
    services = Services(Config.from_env())
    services.matcher  # noqa: B018 - load the index before timing
    times = []
    for i in range(n):
        started = time.thread_time()
        query, locale = RULING_REQUESTS[i % len(RULING_REQUESTS)]
        ruling(services, query, language_for_locale(locale))
        times.append((time.thread_time() - started) * 1000)
    services.close()
    report.info("core ruling() alone (resolve + rulings + pages), median (cpu)", f"{statistics.median(times):.2f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=300)
    args = parser.parse_args()
    harness_env(full_catalog())
    report = Report("/ruling on the full catalog, through the offline Discord harness")
    core(args.n, report)
    asyncio.run(measure(args.n, report))
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
