"""Start-up benchmark on the full catalog, measured as users run things, beside ``json.load`` of
the all_cards file measured in the same run (the naive bot's start-up):

- ready: the ``wayfinder`` command a user runs (DISCORD_TOKEN set: its settings check, the bot's
  start, everything the entry point does) reaching the offline Discord harness (tests/fake_discord,
  in this process) instead of Discord; the CPU time of its process tree from its start until the
  first /ruling's answer is seen, after gateway READY. Of 3 starts, the one with the least CPU time
  is reported, with its own wall clock and memory; the baseline is, of the json.load runs made right
  before each start, the one with the least CPU time, with its own wall clock (every start's own
  ratio is printed beside). Every start is of the same application, as a user's restarts are: the
  first (not measured; it compiles the modules) puts the commands on Discord, the others find them
  unchanged (here and on the harness, which keeps them from one start to the next) and do not put
  them again;
- memory at rest: that start's process tree RSS after 100 more /ruling, a /rule search by words and
  an /ask question, past the background warm-up (the harness is not in it);
- one-shot commands: ``wayfinder card|resolve|ruling NAME`` and ``explore --scenario F`` with exact
  names, each the whole command from the shell; of 10 runs, the one with the least CPU time (a
  one-shot command is short enough for other work on the machine to disturb several runs in a
  row), with its own wall clock, beside the json.load run with the least CPU time of as many, run
  in turns with the command's (the order alternating: json.load first, then the command first).

    python tests/benchmarks/bench_start.py
"""
from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot.discord_app.bot import WARM_UP_AFTER  # noqa: E402
from _shared import (Report, answer_seen, full_catalog, json_load_baseline, least_cpu, run_measured,  # noqa: E402
                     user_env)

WAYFINDER = str(Path(sys.executable).parent / "wayfinder")
READY_RATIO = 0.3
ONE_SHOT_RATIO = 0.1
MAX_RSS_MB = 250
ONE_SHOT_RUNS = 10
STARTS = 3

QUERIES = ["Jadelight Ranger", "defossilizare", "agente da rainha", "lanterne calotte", "Île", "Llanowar Elves",
           "serv of the cond", "Lightning Bolt", "ティシャーナの道探し", "Проводница Тишаны"]
AT_REST_AFTER = 100


@dataclass
class Start:
    cpu: float            # CPU time of the command's process tree, from its start to the first answer seen
    seconds: float        # wall clock, the same
    to_ready: float       # wall clock until the harness sent READY
    rss_mb: float         # RSS of the process tree after AT_REST_AFTER more /ruling


def tree(proc) -> list:
    import psutil
    try:
        return [proc, *proc.children(recursive=True)]
    except psutil.Error:
        return [proc]


def tree_cpu(proc) -> float:
    """CPU time (user + system) of the process tree so far, children that ended included."""
    import psutil
    total = 0.0
    for p in tree(proc):
        try:
            total += sum(p.cpu_times()[:4])
        except psutil.Error:   # a child that ended meanwhile: counted in its parent's children's times
            pass
    return total


async def start_once(env: dict, tmp: Path, held: dict) -> Start:
    """`wayfinder` started as a user starts it (DISCORD_TOKEN set), reaching the offline harness;
    timed from its start until the first /ruling's answer is seen. ``held``: the commands Discord
    holds for the application, from one start to the next."""
    import psutil
    from tests.e2e.helpers import TOKEN
    from tests.fake_discord import FakeDiscord
    from tests.fake_discord.network import command_network, system_authorities
    # every start reaches the same application (the one the token names), as a user's bot does:
    # the commands its earlier start put on Discord are the ones Discord has
    fake = FakeDiscord(token=TOKEN, commands=held)
    await fake.start()
    # Discord's host names resolve to the harness; the certificate authorities are the system's and
    # the harness's: what the command loads at start is what it loads on a user's machine, one
    # certificate more. Nothing else of the command changes.
    env = {**env, "DISCORD_TOKEN": TOKEN,
           **command_network(fake.port, system_authorities() + fake.certs.ca.cert_pem.bytes(), tmp, env.get("PYTHONPATH"))}

    async def command(name: str, option: str, value: str, locale: str = "en-US") -> dict:
        data = {"id": fake.command_id(name), "name": name, "type": 1,
                "options": [{"name": option, "type": 3, "value": value}]}
        return await answer_seen(fake, await fake.send(fake.interaction(2, data, locale=locale), timeout=120))

    async def ruling(query: str, locale: str = "en-US") -> dict:
        return await command("ruling", "card", query, locale)

    with open(tmp / "wayfinder.log", "wb") as log:
        started = time.perf_counter()
        proc = psutil.Popen([WAYFINDER], env=env, cwd=tmp, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        try:
            while True:
                try:
                    await fake.wait_ready(0.02)
                    break
                except asyncio.TimeoutError:
                    if proc.poll() is not None or time.perf_counter() - started > 300:
                        raise SystemExit("`wayfinder` did not reach READY:\n"
                                         + (tmp / "wayfinder.log").read_text(errors="replace")[-3000:])
            to_ready = time.perf_counter() - started
            answer = await ruling(QUERIES[0])
            seconds, cpu = time.perf_counter() - started, tree_cpu(proc)
            assert "Jadelight Ranger" in json.dumps(answer, ensure_ascii=False), answer
            for i in range(AT_REST_AFTER):
                await ruling(QUERIES[i % len(QUERIES)], ["fr", "it", "ja", "en-US"][i % 4])
            # at rest: with what the running bot keeps once its other commands have been used and
            # its background warm-up has run (the rules, their word index, the /ask index)
            await command("rule", "query", "what happens when my library is empty")
            await command("ask", "question", "Can Lurking Chupacabra destroy a hexproof creature?")
            await asyncio.sleep(max(0.0, to_ready + WARM_UP_AFTER + 4.0 - (time.perf_counter() - started)))
            rss = sum(p.memory_info().rss for p in tree(proc)) / 2**20
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)   # Ctrl-C: the bot closes, talking to the harness meanwhile
                for _ in range(300):
                    if proc.poll() is not None:
                        break
                    await asyncio.sleep(0.1)
                else:
                    proc.kill()
                    proc.wait(10)
            await fake.close()
    return Start(cpu, seconds, to_ready, rss)


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
    starts, baselines, held = [], [], {}
    for start in range(STARTS + 1):   # the first start compiles the modules, as a first start after installing does
        if start:   # json.load right before each start: the machine's load changes within a run
            baselines.append(json_load_baseline(runs=1))
        starts.append(asyncio.run(start_once(env, tmp, held)))
    starts = starts[1:]
    best = min(range(STARTS), key=lambda i: starts[i].cpu)
    run, base = starts[best], least_cpu(baselines)
    report.ratio(f"ready: `wayfinder` started -> READY + first /ruling answer seen (cpu; start {best + 1}, the least"
                 f" cpu of {STARTS})", run.cpu, base.cpu, READY_RATIO)
    report.info("  the same start, wall clock", f"{run.seconds:.2f} s", f"{base.seconds:.2f} s",
                f"{run.seconds / base.seconds:.3f}x")
    report.info("  the same start, wall clock until READY", f"{run.to_ready:.2f} s")
    report.info("  every start (cpu), each beside its json.load",
                ", ".join(f"{s.cpu:.2f} s" for s in starts), ", ".join(f"{b.cpu:.2f} s" for b in baselines),
                ", ".join(f"{s.cpu / b.cpu:.3f}x" for s, b in zip(starts, baselines)))
    report.limit(f"memory at rest: the same start's process tree RSS after {AT_REST_AFTER} more /ruling, /rule, /ask, the warm-up", run.rss_mb,
                 MAX_RSS_MB, "MB", digits=0)
    report.info("  every start", ", ".join(f"{s.rss_mb:.0f} MB" for s in starts))

    for figure, argv in ONE_SHOT:
        # the command and json.load in turns, as many runs of each, the order alternating (one
        # first, then the other): the machine's load changes within a run, and neither side is
        # always measured first
        runs, bases = [], []
        for n in range(ONE_SHOT_RUNS):
            for side in ("json.load", "command") if n % 2 == 0 else ("command", "json.load"):
                if side == "json.load":
                    bases.append(json_load_baseline(runs=1))
                    continue
                measured = run_measured([WAYFINDER, *(a.format(scenario=scenario) for a in argv)], env=env)
                if measured.done.returncode:
                    raise SystemExit(f"{figure} failed:\n{measured.done.stderr[-2000:]}")
                runs.append(measured)
        best, base = least_cpu(runs), least_cpu(bases)   # each side's run with the least CPU; its wall clock beside
        report.ratio(f"one-shot: {figure} (cpu, the least of {ONE_SHOT_RUNS} runs; json.load the least of"
                     f" {ONE_SHOT_RUNS} in turns with them)", best.cpu, base.cpu, ONE_SHOT_RATIO, digits=3)
        report.info("  the same runs, wall clock", f"{best.seconds:.3f} s", f"{base.seconds:.3f} s",
                    f"{best.seconds / base.seconds:.3f}x")
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
