"""Card-name resolving on the full catalog and the 1,500 public queries, as users run it: the
``wayfinder resolve`` command, reading names on its standard input one per line and writing one
JSON answer per line; its top-1 accuracy per query kind, and what each answer costs it.

The baseline, measured in the same run and the same way: a naive resolver command that reads the
names the same way and answers each with rapidfuzz ``process.extractOne`` (WRatio) over every
folded name. Every ``len/--baseline-sample``-th query (300 of the 1,500 by default, every 5th) goes
to both commands, in turns (one first, then the other, the order alternating from query to query),
each the same number of times (``--repeats``); the others go to ``wayfinder resolve`` alone. Both commands run with Python
allowed to cache compiled modules, and unbuffered, as at a terminal; the first queries are sent to
both before anything is timed (the index mapped, the modules loaded).

An answer's cost is the CPU time the command's process spent between the query sent and its answer
read (the kernel's count per thread, /proc/PID/task/*/schedstat, in nanoseconds): a loaded machine
does not inflate it the way it inflates wall-clock time. Each query's figure is the least of its
repeats, on both sides alike (as timeit reports: the least disturbed); the wall clock is printed
beside.

The goals are issue 15's — resolve median ≤ 2 ms, p99 ≤ 10 ms, top-1 ≥ 99 % — with the times
judged as ratios to the baseline's median: on a quiet moment of this 2-core machine extractOne over
the 212,360 names takes about 80 ms of CPU per query (75–100 ms from run to run), so 2 ms is
0.025x of it and 10 ms 0.125x. The median and p99 judged are those of the queries sent to both
commands in turns, the only ones measured alike with the baseline: a query answered right after
another answer of the same command finds its caches warm, one answered after ~80 ms of the other
command's work may not. Sending all 1,500 to the baseline would add some 6 minutes of CPU (3 times
80 ms each); 300, a fifth, make the p99 the 3rd slowest, not a single outlier. Top-1 accuracy is
judged on all 1,500, and the median and p99 of all 1,500 are printed beside. The matcher called directly (``Matcher.resolve``, ``autocomplete``,
also on every beginning of a sample of the queries as users type them) is printed for information:
autocomplete's goals are judged through the bot (bench_autocomplete.py).

    python tests/benchmarks/bench_names.py [--catalog PATH] [--repeats 3] [--baseline-sample 150]
                                           [--misses] [--slowest N]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from _shared import (PROJECT, Report, full_catalog, name_queries, percentile, typed_beginnings,  # noqa: E402
                     user_env)

from bot.catalog import Catalog  # noqa: E402
from bot.matching import Matcher, NameIndex  # noqa: E402

WAYFINDER = str(Path(sys.executable).parent / "wayfinder")
MEDIAN_RATIO = 0.025   # 2 ms against extractOne's ~80 ms
P99_RATIO = 0.125      # 10 ms against the same
TOP1_GOAL, KIND_GOAL = 99, 95
WARM_UP = 50

NAIVE_RESOLVE = """
import json, sys
from rapidfuzz import fuzz, process
from bot.catalog import Catalog
from bot.matching import NameIndex
from bot.text import fold
index = NameIndex.load(Catalog(sys.argv[1]))
names = [fold(name) for name in index.names]
for line in sys.stdin:
    best = process.extractOne(fold(line.rstrip("\\n")), names, scorer=fuzz.WRatio)
    print(json.dumps({"oracle_id": index.oracle_ids[best[2]] if best else None}), flush=True)
"""


def cpu_ns(pid: int) -> int:
    """CPU time the kernel has counted for the process's threads so far, in nanoseconds."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as fh:
                total += int(fh.read().split()[0])
        except OSError:   # a thread that ended meanwhile
            pass
    return total


class LineCommand:
    """A command that answers each line written to its standard input with one line."""

    def __init__(self, argv: list[str], env: dict):
        self.errors = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen(argv, env=env, cwd=PROJECT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.errors, text=True, encoding="utf-8")

    def ask(self, query: str) -> tuple[float, float, dict]:
        """(CPU ms, wall-clock ms, the answer) of one query."""
        cpu, wall = cpu_ns(self.proc.pid), time.perf_counter()
        self.proc.stdin.write(query + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        wall, cpu = time.perf_counter() - wall, cpu_ns(self.proc.pid) - cpu
        if not line:
            self.errors.seek(0)
            raise RuntimeError(f"{self.proc.args[0]} stopped: {self.errors.read()[-2000:]}")
        return cpu / 1e6, wall * 1000, json.loads(line)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(60)
        self.errors.close()


def best_of(runs: list[tuple[float, float, dict]]) -> tuple[float, float, dict]:
    return min(r[0] for r in runs), min(r[1] for r in runs), runs[0][2]


def through_the_commands(catalog: Path, queries, repeats: int, every: int) -> tuple[list, list]:
    """Each query's (CPU ms, wall ms, answer) from ``wayfinder resolve``; every ``every``-th query's
    from the naive resolver too, in turns with it."""
    env = user_env(WAYFINDER_CATALOG=str(catalog), PYTHONUNBUFFERED="1")
    subject = LineCommand([WAYFINDER, "resolve"], env)
    naive = LineCommand([sys.executable, "-c", NAIVE_RESOLVE, str(catalog)], env)
    try:
        for _, query, _, _ in queries[:WARM_UP]:
            subject.ask(query)
            naive.ask(query)
        answers, baseline = [], []
        for n, (_, query, _, _) in enumerate(queries):
            sides = [subject, naive] if n % every == 0 else [subject]
            if n // every % 2:
                sides.reverse()
            runs: dict = defaultdict(list)
            for _ in range(repeats):
                for side in sides:
                    runs[side].append(side.ask(query))
            answers.append(best_of(runs[subject]))
            if naive in runs:
                baseline.append(best_of(runs[naive]))
        return answers, baseline
    finally:
        subject.close()
        naive.close()


def matcher_alone(catalog: Catalog, queries, repeats: int) -> dict[str, list[float]]:
    """CPU ms of ``Matcher.resolve`` and ``autocomplete`` called directly, best of ``repeats``."""
    matcher = Matcher(NameIndex.load(catalog))

    def cost(call, *args, **kwargs) -> float:
        runs = []
        for _ in range(repeats):
            started = time.thread_time()
            call(*args, **kwargs)
            runs.append((time.thread_time() - started) * 1000)
        return min(runs)
    return {"resolve": [cost(matcher.resolve, q) for _, q, _, _ in queries],
            "autocomplete": [cost(matcher.autocomplete, q) for _, q, _, _ in queries],
            "typed": [cost(matcher.autocomplete, typed, prefer_lang=reader)
                      for typed, reader in typed_beginnings(queries)]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--catalog", type=Path)
    parser.add_argument("--repeats", type=int, default=3, help="times each query is sent to each command")
    parser.add_argument("--baseline-sample", type=int, default=300,
                        help="queries sent to the naive resolver too, in turns (it takes ~0.1 s each); the"
                             " latency goals are judged on them")
    parser.add_argument("--misses", action="store_true", help="list the queries answered wrongly")
    parser.add_argument("--slowest", type=int, default=0, help="list the N slowest queries (CPU time)")
    args = parser.parse_args()
    path = args.catalog or full_catalog()
    catalog = Catalog(path)
    queries = name_queries()
    every = max(1, len(queries) // args.baseline_sample)

    started = time.process_time()
    size = len(NameIndex.from_catalog(catalog))
    build = time.process_time() - started
    started = time.perf_counter()
    NameIndex.load(catalog)
    opened = time.perf_counter() - started
    answers, baseline = through_the_commands(path, queries, args.repeats, every)
    alone = matcher_alone(catalog, queries, args.repeats)

    hits: dict[str, list[bool]] = defaultdict(list)
    misses = []
    for (kind, query, oracle_id, name), (_, _, answer) in zip(queries, answers):
        best = answer["candidates"][0] if answer["candidates"] else None
        hits[kind].append(best is not None and best["oracle_id"] == oracle_id)
        if not hits[kind][-1]:
            misses.append((kind, query, name, best and best["name"], best and best["matched"]))
    sample = queries[::every]
    base_hits = sum(answer["oracle_id"] == oracle_id for (_, _, oracle_id, _), (_, _, answer) in zip(sample, baseline))
    total = sum(sum(v) for v in hits.values()) / len(queries)
    cpu = [a[0] for a in answers]
    wall = [a[1] for a in answers]
    base_cpu = statistics.median(b[0] for b in baseline)
    base_wall = statistics.median(b[1] for b in baseline)

    report = Report(f"card names: `wayfinder resolve` reading {len(queries):,} public queries on its standard input"
                    f" ({size:,} names); baseline: a naive resolver command, extractOne WRatio over every name"
                    f" ({len(sample)} of the queries, in turns with it); cpu, the least of {args.repeats} each")
    report.limit("top-1 accuracy", total * 100, TOP1_GOAL, "%", at_least=True, baseline=base_hits / len(sample) * 100)
    for kind in sorted(hits):
        report.limit(f"  top-1 {kind}", sum(hits[kind]) / len(hits[kind]) * 100, KIND_GOAL, "%", at_least=True)
    paired = cpu[::every]   # the queries sent to both commands, in turns
    report.ratio(f"resolve, the command's answer, the {len(sample)} queries in turns with the baseline: median (cpu)",
                 statistics.median(paired), base_cpu, MEDIAN_RATIO, unit="ms", note="2 ms")
    report.ratio(f"resolve, the command's answer, the {len(sample)} queries in turns with the baseline: p99 (cpu)",
                 percentile(paired, 0.99), base_cpu, P99_RATIO, unit="ms", note="10 ms")
    report.info(f"  all {len(queries):,} queries (most sent to the command alone): median; p99 (cpu)",
                f"{statistics.median(cpu):.2f} ms", f"{base_cpu:.2f} ms",
                f"{statistics.median(cpu) / base_cpu:.3f}x; p99 {percentile(cpu, 0.99):.2f} ms,"
                f" {percentile(cpu, 0.99) / base_cpu:.3f}x")
    report.info(f"  the {len(sample)} in turns, wall clock: median; p99", f"{statistics.median(wall[::every]):.2f} ms",
                f"{base_wall:.2f} ms", f"p99 {percentile(wall[::every], 0.99):.2f} ms")
    report.info("  the slowest (cpu)", f"{max(cpu):.2f} ms")
    for what, values in (("Matcher.resolve", alone["resolve"]), ("Matcher.autocomplete", alone["autocomplete"])):
        report.info(f"{what} alone: median; p99 (cpu)", f"{statistics.median(values):.2f} ms", "-",
                    f"p99 {percentile(values, 0.99):.2f} ms")
    report.info(f"Matcher.autocomplete alone as typed, {len(alone['typed']):,} beginnings: p99; slowest (cpu)",
                f"{percentile(alone['typed'], 0.99):.2f} ms", "-", f"max {max(alone['typed']):.2f} ms")
    report.info("name index opened (memory-mapped)", f"{opened * 1000:.1f} ms")
    report.info("name index built from the catalog (cpu; the importer does it)", f"{build:.2f} s")
    if args.misses:
        for miss in misses:
            print("MISS", *miss, sep="\t")
    if args.slowest:
        for cost, (kind, query, _, _) in sorted(zip(cpu, queries), key=lambda r: -r[0])[:args.slowest]:
            print(f"SLOW\t{cost:.2f} ms\t{kind}\t{query}")
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
