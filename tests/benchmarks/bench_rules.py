"""/rule on the real Comprehensive Rules (3,114 rules, 725 glossary entries): autocomplete and
look-up latency, beside a naive baseline (rapidfuzz extractOne WRatio over every rule's text).

    python tests/benchmarks/bench_rules.py
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from _shared import full_catalog  # noqa: E402
from rapidfuzz import fuzz, process  # noqa: E402

QUERIES = ["701.4", "701.44a", "702", "expl", "explore", "last known", "trample", "mull", "empty library",
           "protection", "dea", "commander", "7", "Stack", "priority", "tok", "counter", "scry", "vote", "ward"]


def main() -> None:
    from bot.catalog import Catalog
    from bot.rules.book import RulesBook
    catalog = Catalog(full_catalog())
    started = time.perf_counter()
    book = RulesBook.from_catalog(catalog)
    print(f"rules loaded in {time.perf_counter() - started:.2f} s: {len(book.current.rules):,} rules,"
          f" {len(book.current.glossary):,} glossary entries")
    complete, lookup = [], []
    for _ in range(20):
        for q in QUERIES:
            t0 = time.perf_counter()
            book.autocomplete(q)
            t1 = time.perf_counter()
            book.lookup(q)
            t2 = time.perf_counter()
            complete.append((t1 - t0) * 1000)
            lookup.append((t2 - t1) * 1000)
    print(f"autocomplete: median {statistics.median(complete):.2f} ms, p99 {sorted(complete)[int(0.99 * len(complete))]:.2f} ms")
    print(f"look-up:      median {statistics.median(lookup):.2f} ms")
    texts = [r.text for r in book.current.rules.values()]
    base = []
    for q in QUERIES:
        t0 = time.perf_counter()
        process.extractOne(q, texts, scorer=fuzz.WRatio)
        base.append((time.perf_counter() - t0) * 1000)
    print(f"naive baseline (extractOne WRatio over every rule text): median {statistics.median(base):.2f} ms")


if __name__ == "__main__":
    main()
