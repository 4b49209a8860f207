"""/rule on the real Comprehensive Rules (the current edition of the full catalog):
the /rule query autocomplete as a user's keystroke reaches it — delivered by the offline Discord
harness to the started bot, its round trip's CPU time (the whole process: harness, bot and
threads) less the harness's floor (a /floor autocomplete: no choices, nothing read, no thread) —
and, for information, the rules book's own autocomplete and look-up, beside a naive baseline
measured in the same run (rapidfuzz extractOne WRatio over every rule's text).

    python tests/benchmarks/bench_rules.py [--rounds 20]
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from _shared import (FLOOR_CHOICES_WHAT, Report, floor_choices_trip, full_catalog, harness_env, median_trip,  # noqa: E402
                     percentile, started_bot, timed)
from rapidfuzz import fuzz, process  # noqa: E402

QUERIES = ["701.4", "701.44a", "702", "expl", "explore", "last known", "trample", "mull", "empty library",
           "protection", "dea", "commander", "7", "Stack", "priority", "tok", "counter", "scry", "vote", "ward"]
MAX_AUTOCOMPLETE_MS = 5.0


async def through_the_bot(rounds: int) -> tuple[list, list]:
    async with started_bot() as fake:
        async def keystroke(query: str):
            trip, callback = await timed(fake.autocomplete("rule", [{"name": "query", "type": 3, "value": query,
                                                                      "focused": True}]))
            assert callback.type == 8, callback.body
            return trip
        for q in QUERIES:   # warm up: the rules book loaded by the first
            await keystroke(q)
        floor, trips = [], []
        for _ in range(rounds):
            for q in QUERIES:
                floor.append(await floor_choices_trip(fake))
                trips.append(await keystroke(q))
        return trips, floor


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20, help="times each query is typed")
    args = parser.parse_args()
    from bot.catalog import Catalog
    from bot.rules.book import RulesBook
    catalog = full_catalog()
    harness_env(catalog)
    started = time.process_time()
    book = RulesBook.from_catalog(Catalog(catalog))
    loaded = time.process_time() - started
    complete, lookup = [], []
    for _ in range(args.rounds):
        for q in QUERIES:
            t0 = time.thread_time()
            book.autocomplete(q)
            t1 = time.thread_time()
            book.lookup(q)
            t2 = time.thread_time()
            complete.append((t1 - t0) * 1000)
            lookup.append((t2 - t1) * 1000)
    texts = [r.text for r in book.current.rules.values()]
    base = []
    for q in QUERIES:
        t0 = time.thread_time()
        process.extractOne(q, texts, scorer=fuzz.WRatio)
        base.append((time.thread_time() - t0) * 1000)
    naive = statistics.median(base)
    trips, floor = asyncio.run(through_the_bot(args.rounds))
    f = median_trip(floor)
    handler = [(t.cpu - f.cpu) * 1000 for t in trips]

    report = Report(f"/rule: {len(book.current.rules):,} rules, {len(book.current.glossary):,} glossary entries;"
                    f" {len(QUERIES)} queries typed {args.rounds} times; baseline: extractOne WRatio over every"
                    " rule's text (cpu)")
    report.info(f"harness floor ({FLOOR_CHOICES_WHAT}), median (cpu)", f"{f.cpu * 1000:.2f} ms")
    report.limit("/rule autocomplete through the bot (round trip less floor), median (cpu)",
                 statistics.median(handler), MAX_AUTOCOMPLETE_MS, "ms", baseline=naive)
    report.info("  p99 (cpu)", f"{percentile(handler, 0.99):.2f} ms", f"{naive:.2f} ms",
                f"{percentile(handler, 0.99) / naive:.3f}x")
    report.info("  median, wall clock", f"{(median_trip(trips).seconds - f.seconds) * 1000:.2f} ms",
                f"{f.seconds * 1000:.2f} ms (floor)")
    report.info("rules book autocomplete alone, median; p99 (cpu)", f"{statistics.median(complete):.2f} ms",
                f"{naive:.2f} ms", f"p99 {percentile(complete, 0.99):.2f} ms")
    report.info("rules book look-up alone, median (cpu)", f"{statistics.median(lookup):.2f} ms")
    report.info("rules loaded from the catalog (cpu)", f"{loaded:.2f} s")
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
