"""Card-name matcher benchmark on the real catalog and the public queries.

Prints top-1 accuracy per query kind, median and p99 latency of resolve and autocomplete, the
index build time and memory, and the naive baseline measured in the same run
(rapidfuzz.process.extractOne with WRatio over every name).

    python tests/benchmarks/bench_names.py [--catalog PATH] [--baseline-sample N] [--misses]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from _shared import SHARED_DATA, Report, full_catalog  # noqa: E402
from rapidfuzz import fuzz, process  # noqa: E402

from bot.catalog import Catalog  # noqa: E402
from bot.matching import Matcher, NameIndex  # noqa: E402
from bot.text import fold  # noqa: E402


def load_queries(path: Path) -> list[tuple[str, str, str, str]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            kind, query, oracle_id, name = line.split("\t")
            rows.append((kind, query, oracle_id, name))
    return rows


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--catalog", type=Path)
    parser.add_argument("--baseline-sample", type=int, default=150,
                        help="queries timed for the naive baseline (it takes ~0.1 s each)")
    parser.add_argument("--misses", action="store_true", help="list the queries answered wrongly")
    args = parser.parse_args()
    catalog = Catalog(args.catalog or full_catalog())
    queries = load_queries(SHARED_DATA / "queries" / "names-public.tsv")

    started = time.process_time()
    built = NameIndex.from_catalog(catalog)
    build = time.process_time() - started
    del built
    started = time.perf_counter()
    index = NameIndex.load(catalog)
    ready = time.perf_counter() - started
    matcher = Matcher(index)

    hits: dict[str, list[bool]] = defaultdict(list)
    resolve_ms: list[float] = []
    complete_ms: list[float] = []
    misses = []
    for kind, query, oracle_id, name in queries:
        t0 = time.perf_counter()
        result = matcher.resolve(query)
        t1 = time.perf_counter()
        matcher.autocomplete(query)
        t2 = time.perf_counter()
        resolve_ms.append((t1 - t0) * 1000)
        complete_ms.append((t2 - t1) * 1000)
        ok = result.best is not None and result.best.oracle_id == oracle_id
        hits[kind].append(ok)
        if not ok:
            misses.append((kind, query, name, result.best.english_name if result.best else None,
                           result.best.name if result.best else None))
    total = sum(sum(v) for v in hits.values()) / sum(len(v) for v in hits.values())

    every_name = [fold(n) for n in index.names]
    owners = index.oracle_ids
    sample = queries[:: max(1, len(queries) // args.baseline_sample)]
    base_ms = []
    base_hits = 0
    for kind, query, oracle_id, _ in sample:
        t0 = time.perf_counter()
        best = process.extractOne(fold(query), every_name, scorer=fuzz.WRatio)
        base_ms.append((time.perf_counter() - t0) * 1000)
        base_hits += best is not None and owners[best[2]] == oracle_id
    base_median = statistics.median(base_ms)

    report = Report(f"card names: {len(index):,} names, {len(queries):,} public queries; baseline: rapidfuzz"
                    f" extractOne WRatio over every name ({len(sample)} queries)")
    report.info("name index opened (memory-mapped)", f"{ready * 1000:.1f} ms")
    report.info("name index built from the catalog (cpu; the importer does it)", f"{build:.2f} s")
    report.limit("top-1 accuracy", total * 100, 99, "%", at_least=True, baseline=base_hits / len(sample) * 100)
    for kind in sorted(hits):
        report.limit(f"  top-1 {kind}", sum(hits[kind]) / len(hits[kind]) * 100, 95, "%", at_least=True)
    report.limit("resolve median", statistics.median(resolve_ms), 2, "ms", baseline=base_median)
    report.limit("resolve p99", percentile(resolve_ms, 99), 10, "ms")
    report.limit("autocomplete median", statistics.median(complete_ms), 2, "ms")
    report.limit("autocomplete p99", percentile(complete_ms, 99), 10, "ms")
    if args.misses:
        for miss in misses:
            print("MISS", *miss, sep="\t")
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
