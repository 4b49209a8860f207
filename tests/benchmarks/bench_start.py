"""Start-up benchmark on the full catalog, measured as users run things, beside ``json.load`` of
the all_cards file measured in the same run (the naive bot's start-up):

- ready: a fresh process starts the bot against the offline Discord harness (tests/fake_discord);
  the time from the bot's start to gateway READY and the first /ruling answered (best of 3 starts,
  beside the best of the json.load runs made right before each);
- memory at rest: the process's RSS after 100 /ruling commands (the harness included);
- one-shot commands: ``wayfinder card|resolve|ruling NAME`` and ``explore --scenario F`` with exact
  names, each the whole command from the shell (best of 10: a one-shot command is short enough
  for other work on the machine to disturb several runs in a row), each beside json.load measured
  right before it.

    python tests/benchmarks/bench_start.py
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from _shared import PROJECT, Baseline, Report, full_catalog, json_load_baseline, run_measured, user_env  # noqa: E402

WAYFINDER = str(Path(sys.executable).parent / "wayfinder")
READY_RATIO = 0.3
ONE_SHOT_RATIO = 0.1
MAX_RSS_MB = 250
ONE_SHOT_RUNS = 10

CHILD = r"""
import time
process_started, process_cpu = time.perf_counter(), time.process_time()
import asyncio, json, sys
sys.path.insert(0, sys.argv[1])
harness_started = time.perf_counter()
from tests.fake_discord import FakeDiscord
import psutil

QUERIES = ["Jadelight Ranger", "defossilizare", "agente da rainha", "lanterne calotte", "Île", "Llanowar Elves",
           "serv of the cond", "Lightning Bolt", "ティシャーナの道探し", "Проводница Тишаны"]


async def main():
    fake = FakeDiscord()
    await fake.start()
    harness = time.perf_counter() - harness_started
    harness_cpu = time.process_time() - process_cpu
    # the harness's TLS client context (trusting its own CA) stands in for the one aiohttp makes when
    # it is imported, before the bot starts: it is made before the clock starts
    connector = fake.connector()
    started, started_cpu = time.perf_counter(), time.process_time()
    from bot import create_bot
    bot = create_bot(connector=connector, guild_ready_timeout=0.05)
    task = asyncio.create_task(bot.start("benchmark-token"))
    await asyncio.wait_for(bot.wait_until_ready(), 120)
    option = lambda q: [{"name": "card", "type": 3, "value": q}]
    answer = await fake.slash("ruling", option(QUERIES[0]))
    ready, ready_cpu = time.perf_counter(), time.process_time()
    assert "Jadelight Ranger" in json.dumps(answer.body, ensure_ascii=False), answer.body
    for i in range(100):
        await fake.slash("ruling", option(QUERIES[i % len(QUERIES)]), locale=["fr", "it", "ja", "en-US"][i % 4])
    rss = psutil.Process().memory_info().rss / 2**20
    print(json.dumps({"ready": ready - started, "ready_cpu": ready_cpu - started_cpu,
                      "from_process_start": ready - process_started - harness,
                      "from_process_start_cpu": ready_cpu - harness_cpu, "rss": rss}))
    await bot.close()
    await fake.close()
    task.cancel()

asyncio.run(main())
"""

ONE_SHOT = [
    ("wayfinder card NAME", ["card", "Jadelight Ranger"]),
    ("wayfinder resolve NAME", ["resolve", "Jadelight Ranger"]),
    ("wayfinder ruling NAME", ["ruling", "Jadelight Ranger"]),
    ("wayfinder explore --scenario F", ["explore", "--scenario", "{scenario}"]),
]
SCENARIO = {"library": ["Opt", "Forest", "Island"], "hand": ["Swamp"], "battlefield": [],
            "action": {"enter": "Jadelight Ranger", "id": "j"}, "choices": ["graveyard"]}


def main() -> int:
    catalog = full_catalog()
    tmp = Path(tempfile.mkdtemp())
    settings = tmp / "settings.sqlite3"
    scenario = tmp / "scenario.json"
    scenario.write_text(json.dumps(SCENARIO), encoding="utf-8")
    env = user_env(WAYFINDER_CATALOG=str(catalog), WAYFINDER_SETTINGS_DB=str(settings),
                   WAYFINDER_LOG_LEVEL="WARNING")
    env.pop("DISCORD_TOKEN", None)
    report = Report("start-up on the full catalog (23,746 cards, 212,360 names, 45,047 rulings, 4 CR editions);"
                    " timings judged on CPU time, wall clock beside")
    runs, baselines = [], []
    for start in range(4):   # best of 3; the first start compiles the modules, as a first start after installing does
        if start:   # json.load right before each start: the machine's load changes within a run
            baselines.append(json_load_baseline(runs=1))
        out = subprocess.run([sys.executable, "-c", CHILD, str(PROJECT)], env=env, capture_output=True, text=True)
        if out.returncode:
            raise SystemExit(f"the bot did not start:\n{out.stderr[-3000:]}")
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    figures = {key: min(r[key] for r in runs[1:]) for key in runs[0]}
    base = Baseline(*(min(getattr(b, f) for b in baselines) for f in ("seconds", "cpu", "peak_mb")))
    report.ratio("ready: bot started -> READY + first /ruling answered (cpu)", figures["ready_cpu"], base.cpu,
                 READY_RATIO)
    report.info("  the same, wall clock", f"{figures['ready']:.2f} s", f"{base.seconds:.2f} s",
                f"{figures['ready'] / base.seconds:.3f}x")
    report.info("  from the process start, harness left out (cpu)", f"{figures['from_process_start_cpu']:.2f} s",
                f"{base.cpu:.2f} s", f"{figures['from_process_start_cpu'] / base.cpu:.3f}x")
    report.limit("memory at rest: bot RSS after 100 /ruling", figures["rss"], MAX_RSS_MB, "MB", digits=0)

    for figure, argv in ONE_SHOT:
        # the machine's load changes within a run: each command is judged against json.load measured
        # right before it (the baseline column of its row), not seconds earlier
        base = json_load_baseline()
        runs = []
        for _ in range(ONE_SHOT_RUNS):
            measured = run_measured([WAYFINDER, *(a.format(scenario=scenario) for a in argv)], env=env)
            if measured.done.returncode:
                raise SystemExit(f"{figure} failed:\n{measured.done.stderr[-2000:]}")
            runs.append(measured)
        cpu = min(m.cpu for m in runs)
        wall = min(m.seconds for m in runs)
        report.ratio(f"one-shot: {figure} (cpu, best of {ONE_SHOT_RUNS})", cpu, base.cpu, ONE_SHOT_RATIO, digits=3)
        report.info("  the same, wall clock", f"{wall:.3f} s", f"{base.seconds:.3f} s", f"{wall / base.seconds:.3f}x")
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
