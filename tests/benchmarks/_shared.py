"""What the benchmarks share: the real data, the full catalog built from it (cached in var/), the
naive baseline every timing is a ratio to, and one way to print and judge their figures.

Every benchmark prints rows ``figure | value | baseline | ratio | goal | pass/FAIL`` and exits
non-zero when a goal is missed; ``tests/benchmarks/run.py`` (``make bench``) runs them all.
"""
from __future__ import annotations

import resource
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
SHARED_DATA = PROJECT.parent / "shared" / "data"
FULL_CATALOG = PROJECT / "var" / "bench-full-catalog.sqlite3"
ALL_CARDS = SHARED_DATA / "scryfall" / "all-cards-derived-2022.json.gz"
RULINGS = SHARED_DATA / "scryfall" / "rulings-derived-2022.json.gz"


def require_shared() -> None:
    if not SHARED_DATA.exists():
        sys.exit(f"the real data is not at {SHARED_DATA}: benchmarks need ../shared/data")


def full_catalog_files() -> list[Path]:
    """All cards, rulings and the four editions of the Comprehensive Rules (the seeds come with
    the bundled catalog every import starts from)."""
    return [ALL_CARDS, RULINGS, *sorted((SHARED_DATA / "cr").glob("MagicCompRules-*.txt"))]


def full_catalog() -> Path:
    """The catalog of every card, ruling and rule in ../shared/data plus the seeds, built once (again
    when its name index is missing, e.g. after an upgrade)."""
    require_shared()
    if not FULL_CATALOG.exists() or not _has_index(FULL_CATALOG):
        from bot.catalog.bundled import bundled_files
        from bot.catalog.importer import import_files
        FULL_CATALOG.unlink(missing_ok=True)
        import_files(FULL_CATALOG, [*bundled_files(), *full_catalog_files()], log=print)
    return FULL_CATALOG


def _has_index(path: Path) -> bool:
    from bot.catalog import Catalog
    from bot.matching.index import NameIndex, recorded_digest
    catalog = Catalog(path)
    try:
        digest = recorded_digest(catalog)
        return bool(digest) and NameIndex.open(path, digest) is not None
    finally:
        catalog.close()


NAIVE_LOAD = """
import gzip, json, resource, sys, time
started, cpu = time.perf_counter(), time.process_time()
with gzip.open(sys.argv[1]) as fh:
    cards = json.load(fh)
print(time.perf_counter() - started, time.process_time() - cpu,
      resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, len(cards))
"""


@dataclass
class Baseline:
    """``json.load`` of the whole all_cards file in a fresh interpreter: the naive bot's start-up,
    and the unit every timing here is a ratio to."""
    seconds: float   # wall clock
    cpu: float       # CPU time (user + system)
    peak_mb: float


def json_load_baseline(runs: int = 3) -> Baseline:
    """The best of ``runs`` measurements (as timeit reports: the least disturbed by other work)."""
    results = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", NAIVE_LOAD, str(ALL_CARDS)], capture_output=True, text=True,
                             check=True).stdout.split()
        results.append(Baseline(float(out[0]), float(out[1]), float(out[2])))
    return Baseline(*(min(getattr(r, f) for r in results) for f in ("seconds", "cpu", "peak_mb")))


def user_env(**overrides: str) -> dict:
    """The environment a user's shell gives a command: Python may cache compiled modules, as it
    does by default (a test runner's environment may forbid it)."""
    import os
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(overrides)
    return env


@dataclass
class Measured:
    seconds: float    # wall clock
    cpu: float        # CPU time (user + system) of the command and every process it waited for
    peak_mb: float    # peak RSS summed over its process tree (sampled)
    done: subprocess.CompletedProcess


def run_measured(argv: list[str], env: dict | None = None, stdin: str | None = None,
                 cwd: Path = PROJECT, interval: float = 0.005) -> Measured:
    """Run a command as a user would and measure it. The process tree's memory is sampled every
    ``interval`` seconds; CPU time is what the kernel counted for the command and its children,
    which a loaded machine does not inflate the way it does wall-clock time."""
    import psutil
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = psutil.Popen(argv, env=env, cwd=cwd, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = 0
    out: dict = {}
    reader = threading.Thread(target=lambda: out.update(zip(("stdout", "stderr"), proc.communicate(stdin))))
    reader.start()
    while reader.is_alive():
        try:
            tree = [proc, *proc.children(recursive=True)]
            peak = max(peak, sum(p.memory_info().rss for p in tree))
        except psutil.Error:
            pass
        reader.join(interval)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    done = subprocess.CompletedProcess(argv, proc.returncode, out.get("stdout", ""), out.get("stderr", ""))
    return Measured(seconds, cpu, peak / 2**20, done)


@dataclass
class Row:
    figure: str
    value: str
    baseline: str
    ratio: str
    goal: str
    ok: bool | None     # None: a figure shown for information, without a goal


class Report:
    """The figures of one benchmark: printed as a table, judged against their goals."""

    def __init__(self, title: str):
        self.title = title
        self.rows: list[Row] = []

    def ratio(self, figure: str, value: float, baseline: float, max_ratio: float, unit: str = "s",
              digits: int = 2) -> None:
        """A timing judged as a ratio to the baseline measured in the same run."""
        ratio = value / baseline if baseline else float("inf")
        self.rows.append(Row(figure, f"{value:.{digits}f} {unit}", f"{baseline:.{digits}f} {unit}",
                             f"{ratio:.3f}x", f"<= {max_ratio}x", ratio <= max_ratio))

    def limit(self, figure: str, value: float, limit: float, unit: str, *, at_least: bool = False,
              baseline: float | None = None, digits: int = 2) -> None:
        """A figure with an absolute goal (memory, accuracy, a handler's cost); the baseline, when
        given, is shown with the ratio."""
        ok = value >= limit if at_least else value <= limit
        base = f"{baseline:.{digits}f} {unit}" if baseline is not None else "-"
        ratio = f"{value / baseline:.3f}x" if baseline else "-"
        self.rows.append(Row(figure, f"{value:.{digits}f} {unit}", base, ratio,
                             f"{'>=' if at_least else '<='} {limit:g} {unit}", ok))

    def info(self, figure: str, value: str, baseline: str = "-", ratio: str = "-") -> None:
        self.rows.append(Row(figure, value, baseline, ratio, "-", None))

    def finish(self) -> int:
        """Print the table; 1 when a goal was missed."""
        header = Row("figure", "value", "baseline", "ratio", "goal", None)
        cells = [[r.figure, r.value, r.baseline, r.ratio, r.goal,
                  "" if r.ok is None else ("pass" if r.ok else "FAIL")] for r in [header, *self.rows]]
        cells[0][5] = "result"
        widths = [max(len(c[i]) for c in cells) for i in range(6)]
        print(f"\n== {self.title}")
        for c in cells:
            print(" | ".join(text.ljust(width) for text, width in zip(c, widths)).rstrip())
        missed = [r.figure for r in self.rows if r.ok is False]
        if missed:
            print(f"goals missed: {', '.join(missed)}")
        sys.stdout.flush()
        return 1 if missed else 0
