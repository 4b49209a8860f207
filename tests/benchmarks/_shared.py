"""What the benchmarks share: the real data, the full catalog built from it (cached in var/), the
naive baseline every timing is a ratio to, and one way to print and judge their figures.

Every benchmark prints rows ``figure | value | baseline | ratio | goal | pass/FAIL`` and exits
non-zero when a goal is missed; ``tests/benchmarks/run.py`` (``make bench``) runs them all.

The benchmarks that drive the bot through the offline Discord harness (tests/fake_discord) start it
with ``started_bot``, which also gives the bot one command of the benchmark's own, ``/floor``: it
answers with a one-word message (and its autocomplete with no choices) without reading settings or
handing work to a thread. A ``/floor`` round trip is the harness's own cost plus discord.py's
dispatch and reply, and nothing of a handler: what a command's round trip costs beyond it is its
handler's cost.
"""
from __future__ import annotations

import asyncio
import resource
import subprocess
import sys
import threading
import time
from contextlib import asynccontextmanager
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


NAME_QUERIES = SHARED_DATA / "queries" / "names-public.tsv"
TYPED_SAMPLE = 5   # every 5th public query is also typed letter by letter into autocomplete


def name_queries() -> list[tuple[str, str, str, str]]:
    """The public card-name queries: (kind, query, the card's oracle id, its English name)."""
    rows = []
    for line in NAME_QUERIES.read_text(encoding="utf-8").splitlines():
        if line.strip():
            kind, query, oracle_id, name = line.split("\t")
            rows.append((kind, query, oracle_id, name))
    return rows


def typed_beginnings(queries) -> list[tuple[str, str]]:
    """What Discord asks autocomplete for as users type, in their language: every beginning ("s",
    "se", "ser"…) of every TYPED_SAMPLE-th query, each query typed by a reader of another language
    in turn. (beginning, the reader's language) pairs."""
    from bot.languages import LANGUAGES
    typed = []
    for n, (_, query, _, _) in enumerate(queries[::TYPED_SAMPLE]):
        reader = LANGUAGES[n % len(LANGUAGES)]
        typed += [(query[:end], reader) for end in range(1, len(query) + 1)]
    return typed


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
    """The best of ``runs`` measurements (as timeit reports: the least disturbed by other work): the
    run with the least CPU time, with its own wall clock and memory."""
    results = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", NAIVE_LOAD, str(ALL_CARDS)], capture_output=True, text=True,
                             check=True).stdout.split()
        results.append(Baseline(float(out[0]), float(out[1]), float(out[2])))
    return least_cpu(results)


def least_cpu(runs: list):
    """Of several runs of the same thing, the one with the least CPU time: its figures (wall clock,
    memory) are reported together, never each field's least from different runs."""
    return min(runs, key=lambda run: run.cpu)


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
              digits: int = 2, note: str | None = None) -> None:
        """A timing judged as a ratio to the baseline measured in the same run; ``note``, the goal
        as first given (e.g. "5 ms") that ``max_ratio`` was derived from, is shown beside it."""
        ratio = value / baseline if baseline else float("inf")
        goal = f"<= {max_ratio}x" + (f" (~{note})" if note else "")
        self.rows.append(Row(figure, f"{value:.{digits}f} {unit}", f"{baseline:.{digits}f} {unit}",
                             f"{ratio:.3f}x", goal, ratio <= max_ratio))

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


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0.99: p99) of ``values``, nearest rank; 0 for none."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1) + 0.5))] if ordered else 0.0


# -- the bot through the offline Discord harness ---------------------------------------------------

FLOOR = "floor"
FLOOR_WHAT = "/floor: a one-word message, nothing read, no thread"
FLOOR_CHOICES_WHAT = "/floor autocomplete: no choices, nothing read, no thread"


def add_floor(bot) -> None:
    """The benchmark's own ``/floor`` command, synced with the bot's: the least work a handler can
    do to answer a command (a one-word message) or an autocomplete (no choices)."""
    import discord
    from discord import app_commands

    @app_commands.command(name=FLOOR, description="The harness's own cost (benchmarks only)")
    async def floor(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message("·", allowed_mentions=discord.AllowedMentions.none())

    @floor.autocomplete("text")
    async def floor_choices(interaction: discord.Interaction, current: str) -> list:
        return []

    bot.tree.add_command(floor)


@dataclass
class Trip:
    seconds: float   # wall clock
    cpu: float       # CPU time of the whole process: the harness, the bot and its threads


async def timed(exchange) -> tuple[Trip, object]:
    """Run ``exchange`` (a coroutine: an interaction sent and its answer awaited); its cost and result."""
    started, cpu = time.perf_counter(), time.process_time()
    result = await exchange
    return Trip(time.perf_counter() - started, time.process_time() - cpu), result


def timed_call(call, *args, **kwargs) -> Trip:
    """The cost of ``call(*args, **kwargs)`` made right here, on the same clocks as ``timed``: a
    baseline's, measured in turns with the round trips it is compared with."""
    started, cpu = time.perf_counter(), time.process_time()
    call(*args, **kwargs)
    return Trip(time.perf_counter() - started, time.process_time() - cpu)


async def answer_seen(fake, callback) -> dict:
    """The message the user finally sees: the answer itself, or the follow-up or edit after a
    deferral ("thinking…")."""
    from tests.e2e.helpers import answer_of
    return await answer_of(fake, callback)


# the /ruling requests the benchmarks send, as users send them: (what was typed, the Discord locale);
# a name in Italian, Portuguese, French, English, Japanese, Russian, with typos and half words
RULING_REQUESTS = [("defossilizare", "it"), ("agente da rainha", "pt-BR"), ("lanterne calotte", "fr"),
                   ("Jadelight Ranger", "en-US"), ("Île", "fr"), ("Llanowar Elves", "de"),
                   ("serv of the cond", "en-US"), ("Lightning Bolt", "es-ES"), ("ティシャーナの道探し", "ja"),
                   ("Проводница Тишаны", "ru"), ("Guidevoie de Tishana", "ko")]


@dataclass
class RulingTrip(Trip):
    first: float      # wall clock until the first response (the answer, or "thinking…")
    deferred: bool    # the first response was "thinking…"


async def ruling_trip(fake, i: int, timeout: float = 60) -> RulingTrip:
    """The ``i``-th of RULING_REQUESTS (in turn) as a user sends it: /ruling through the harness,
    timed until the user sees the answer (the answer itself, or the follow-up after "thinking…")."""
    query, locale = RULING_REQUESTS[i % len(RULING_REQUESTS)]
    data = {"id": fake.command_id("ruling"), "name": "ruling", "type": 1,
            "options": [{"name": "card", "type": 3, "value": query}]}
    started, cpu = time.perf_counter(), time.process_time()
    callback = await fake.send(fake.interaction(2, data, locale=locale), timeout=timeout)
    first = time.perf_counter() - started
    await answer_seen(fake, callback)
    return RulingTrip(time.perf_counter() - started, time.process_time() - cpu, first, callback.type == 5)


async def floor_trip(fake) -> Trip:
    """One ``/floor`` command, sent through the harness and answered."""
    trip, _ = await timed(fake.slash(FLOOR, [{"name": "text", "type": 3, "value": "x"}]))
    return trip


async def floor_choices_trip(fake) -> Trip:
    """One ``/floor`` autocomplete, sent through the harness and answered."""
    trip, _ = await timed(fake.autocomplete(FLOOR, [{"name": "text", "type": 3, "value": "x", "focused": True}]))
    return trip


def least(trips: list[Trip]) -> Trip:
    """The least of several round trips of the same request, as timeit reports: the least disturbed
    (the CPU time and the wall clock each their least)."""
    return Trip(min(t.seconds for t in trips), min(t.cpu for t in trips))


def median_trip(trips: list[Trip]) -> Trip:
    import statistics
    return Trip(statistics.median(t.seconds for t in trips), statistics.median(t.cpu for t in trips))


def harness_env(catalog: Path) -> None:
    """The environment of a bot started in this process: the full catalog, a settings database of
    its own, quiet logs."""
    import os
    import tempfile
    os.environ["WAYFINDER_CATALOG"] = str(catalog)
    os.environ["WAYFINDER_SETTINGS_DB"] = str(Path(tempfile.mkdtemp()) / "settings.sqlite3")
    os.environ["WAYFINDER_LOG_LEVEL"] = "WARNING"


@asynccontextmanager
async def started_bot(**options):
    """The real bot (``create_bot``, its cogs, settings and translator) started in this process
    against the offline Discord harness, with ``/floor`` beside its commands; the harness."""
    if str(PROJECT) not in sys.path:
        sys.path.insert(0, str(PROJECT))
    from bot import create_bot
    from tests.e2e.helpers import TOKEN, stop_bot
    from tests.fake_discord import FakeDiscord
    fake = FakeDiscord()
    await fake.start()
    bot = create_bot(connector=fake.connector(), guild_ready_timeout=0.05, **options)
    add_floor(bot)
    task = asyncio.create_task(bot.start(TOKEN))
    try:
        ready = asyncio.create_task(bot.wait_until_ready())
        await asyncio.wait({task, ready}, timeout=300, return_when=asyncio.FIRST_COMPLETED)
        if not ready.done():
            ready.cancel()
            if task.done():
                task.result()   # raises what stopped the bot
            raise TimeoutError("the bot did not become ready")
        # what the bot reads in the background after READY (the rules, the /ask index) is read
        # before anything is measured: the figures are the steady state's
        while bot.warming is None:
            await asyncio.sleep(0.05)
        await asyncio.wait_for(asyncio.shield(bot.warming), 600)
        yield fake
    finally:
        await stop_bot(bot, task)
        await fake.close()
