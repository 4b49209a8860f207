"""Card-name matcher benchmark on the real catalog and the public queries.

Prints top-1 accuracy per query kind, median and p99 latency of resolve, the index build time and
memory, and the naive baseline measured in the same run (rapidfuzz.process.extractOne with WRatio
over every name). Autocomplete's goals are judged as users reach it, through the bot
(bench_autocomplete.py); the matcher's own autocomplete figures are printed here for information.

Each query's latency is its CPU time (the thread's, which a loaded machine does not inflate the way
it inflates wall-clock time), the best of REPEATS runs as timeit reports; the wall-clock p99, of the
best run and of the first, is printed beside. Autocomplete is also timed as a user types, on every
beginning of a sample of the queries ("s", "se", "ser"…), by readers of each language in turn.
``--slowest N`` lists the N slowest queries.

    python tests/benchmarks/bench_names.py [--catalog PATH] [--baseline-sample N] [--misses] [--slowest N]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from _shared import Report, full_catalog, name_queries, percentile, typed_beginnings  # noqa: E402
from rapidfuzz import fuzz, process  # noqa: E402

from bot.catalog import Catalog  # noqa: E402
from bot.matching import Matcher, NameIndex  # noqa: E402
from bot.text import fold  # noqa: E402


REPEATS = 3


def timed(call, query: str) -> tuple[float, float, object]:
    """(CPU ms, wall-clock ms, result) of one call."""
    cpu, wall = time.thread_time(), time.perf_counter()
    result = call(query)
    return (time.thread_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000, result


def best_of(call, query: str) -> tuple[float, float, float, object]:
    """(best CPU ms, best wall-clock ms, first run's wall-clock ms, result) over REPEATS runs."""
    runs = [timed(call, query) for _ in range(REPEATS)]
    return min(r[0] for r in runs), min(r[1] for r in runs), runs[0][1], runs[0][2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--catalog", type=Path)
    parser.add_argument("--baseline-sample", type=int, default=150,
                        help="queries timed for the naive baseline (it takes ~0.1 s each)")
    parser.add_argument("--misses", action="store_true", help="list the queries answered wrongly")
    parser.add_argument("--slowest", type=int, default=0, help="list the N slowest queries (CPU time)")
    args = parser.parse_args()
    catalog = Catalog(args.catalog or full_catalog())
    queries = name_queries()

    started = time.process_time()
    built = NameIndex.from_catalog(catalog)
    build = time.process_time() - started
    del built
    started = time.perf_counter()
    index = NameIndex.load(catalog)
    ready = time.perf_counter() - started
    matcher = Matcher(index)

    hits: dict[str, list[bool]] = defaultdict(list)
    resolve_ms: list[float] = []      # CPU, best of REPEATS
    complete_ms: list[float] = []
    wall: dict[str, list[float]] = defaultdict(list)   # wall clock: best of REPEATS, first run
    misses = []
    for kind, query, oracle_id, name in queries:
        cpu, best_wall, first_wall, result = best_of(matcher.resolve, query)
        resolve_ms.append(cpu)
        wall["resolve best"].append(best_wall)
        wall["resolve first"].append(first_wall)
        cpu, best_wall, first_wall, _ = best_of(matcher.autocomplete, query)
        complete_ms.append(cpu)
        wall["autocomplete best"].append(best_wall)
        wall["autocomplete first"].append(first_wall)
        ok = result.best is not None and result.best.oracle_id == oracle_id
        hits[kind].append(ok)
        if not ok:
            misses.append((kind, query, name, result.best.english_name if result.best else None,
                           result.best.name if result.best else None))
    # Discord asks for choices at every keystroke, in the reader's language
    typed_ms = [best_of(lambda q: matcher.autocomplete(q, prefer_lang=reader), typed)[0]
                for typed, reader in typed_beginnings(queries)]

    total = sum(sum(v) for v in hits.values()) / sum(len(v) for v in hits.values())

    every_name = [fold(n) for n in index.names]
    owners = index.oracle_ids
    sample = queries[:: max(1, len(queries) // args.baseline_sample)]
    base_ms = []
    base_hits = 0
    for kind, query, oracle_id, _ in sample:
        cpu, _, best = timed(lambda q: process.extractOne(fold(q), every_name, scorer=fuzz.WRatio), query)
        base_ms.append(cpu)
        base_hits += best is not None and owners[best[2]] == oracle_id
    base_median = statistics.median(base_ms)

    report = Report(f"card names: {len(index):,} names, {len(queries):,} public queries; baseline: rapidfuzz"
                    f" extractOne WRatio over every name ({len(sample)} queries)")
    report.info("name index opened (memory-mapped)", f"{ready * 1000:.1f} ms")
    report.info("name index built from the catalog (cpu; the importer does it)", f"{build:.2f} s")
    report.limit("top-1 accuracy", total * 100, 99, "%", at_least=True, baseline=base_hits / len(sample) * 100)
    for kind in sorted(hits):
        report.limit(f"  top-1 {kind}", sum(hits[kind]) / len(hits[kind]) * 100, 95, "%", at_least=True)
    report.limit("resolve median (cpu)", statistics.median(resolve_ms), 2, "ms", baseline=base_median)
    report.limit("resolve p99 (cpu)", percentile(resolve_ms, 0.99), 10, "ms")
    # autocomplete's goals are judged through the bot (bench_autocomplete.py): these are the
    # matcher's share of them
    report.info("Matcher.autocomplete alone, median (cpu)", f"{statistics.median(complete_ms):.2f} ms")
    report.info("Matcher.autocomplete alone, p99 (cpu)", f"{percentile(complete_ms, 0.99):.2f} ms")
    report.info(f"Matcher.autocomplete alone as typed, {len(typed_ms):,} beginnings: p99 (cpu)",
                f"{percentile(typed_ms, 0.99):.2f} ms")
    report.info("  the slowest of them (cpu)", f"{max(typed_ms):.2f} ms")
    for what, values in wall.items():
        report.info(f"  {what.replace(' ', ' p99, wall clock, ')} run", f"{percentile(values, 0.99):.2f} ms")
    if args.misses:
        for miss in misses:
            print("MISS", *miss, sep="\t")
    if args.slowest:
        slowest = sorted(zip(resolve_ms, complete_ms, queries), key=lambda r: -max(r[0], r[1]))[:args.slowest]
        for resolve, complete, (kind, query, _, _) in slowest:
            print(f"SLOW\tresolve {resolve:.2f} ms\tautocomplete {complete:.2f} ms\t{kind}\t{query}")
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
