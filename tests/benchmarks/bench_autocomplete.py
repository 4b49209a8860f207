"""Card-name autocomplete as a user's keystroke reaches it, on the full catalog: the /ruling card
option's autocomplete, delivered by the offline Discord harness to the started bot (the cog's
callback: the reader's language from the settings, the matcher off the event loop, the choices
sent back), for the 1,500 public queries and for every beginning of every 5th of them as users
type it, readers of each language in turn.

A query's cost is its round trip's CPU time (the whole process: harness, bot and threads), the
best of REPEATS, less the harness's floor (the median /floor autocomplete round trip: the same
harness and dispatch, no choices, nothing read, no thread); the wall clock is printed beside.

    python tests/benchmarks/bench_autocomplete.py [--repeats 3]
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from _shared import (FLOOR_CHOICES_WHAT, Report, floor_choices_trip, full_catalog, harness_env, median_trip,  # noqa: E402
                     name_queries, percentile, started_bot, timed, typed_beginnings)

MEDIAN_MS, P99_MS = 2.0, 10.0


async def measure(typed: list[tuple[str, str]], repeats: int) -> tuple[list, list]:
    from bot.languages import DISCORD_LOCALES

    async def keystroke(fake, current: str, lang: str):
        options = [{"name": "card", "type": 3, "value": current, "focused": True}]
        trips = [(await timed(fake.autocomplete("ruling", options, locale=DISCORD_LOCALES[lang][0])))
                 for _ in range(repeats)]
        for _, callback in trips:
            assert callback.type == 8, callback.body
        return min(t.cpu for t, _ in trips), min(t.seconds for t, _ in trips)

    async with started_bot() as fake:
        for current, lang in typed[:50]:   # warm up
            await keystroke(fake, current, lang)
            await floor_choices_trip(fake)
        floor, costs = [], []
        for current, lang in typed:
            floor.append(await floor_choices_trip(fake))
            costs.append(await keystroke(fake, current, lang))
        return costs, floor


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    harness_env(full_catalog())
    queries = name_queries()
    whole = [(query, "en") for _, query, _, _ in queries]
    typed = typed_beginnings(queries)
    costs, floor = asyncio.run(measure(whole + typed, args.repeats))
    base = median_trip(floor)
    cpu = [(c - base.cpu) * 1000 for c, _ in costs]
    wall = [(w - base.seconds) * 1000 for _, w in costs]
    whole_cpu, typed_cpu = cpu[:len(whole)], cpu[len(whole):]
    report = Report(f"card-name autocomplete through the bot (/ruling card), full catalog: {len(whole):,} public"
                    f" queries, {len(typed):,} beginnings as typed; handler = round trip (cpu, best of"
                    f" {args.repeats}) less the floor")
    floor_ms = base.cpu * 1000
    report.info(f"harness floor ({FLOOR_CHOICES_WHAT}), median (cpu)", f"{floor_ms:.2f} ms", "-", "-")
    report.limit("autocomplete handler, public queries: median (cpu)", statistics.median(whole_cpu), MEDIAN_MS, "ms",
                 baseline=floor_ms)
    report.limit("autocomplete handler, public queries: p99 (cpu)", percentile(whole_cpu, 0.99), P99_MS, "ms",
                 baseline=floor_ms)
    report.limit(f"autocomplete handler as typed, {len(typed):,} beginnings: p99 (cpu)", percentile(typed_cpu, 0.99),
                 P99_MS, "ms", baseline=floor_ms)
    report.info("  the slowest of them (cpu)", f"{max(typed_cpu):.2f} ms")
    report.info("  public queries, wall clock: median; p99", f"{statistics.median(wall[:len(whole)]):.2f} ms",
                f"{base.seconds * 1000:.2f} ms (floor)", f"p99 {percentile(wall[:len(whole)], 0.99):.2f} ms")
    report.info("  as typed, wall clock: p99", f"{percentile(wall[len(whole):], 0.99):.2f} ms",
                f"{base.seconds * 1000:.2f} ms (floor)")
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
