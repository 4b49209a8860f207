"""/ruling through the offline Discord harness, on the full catalog: the handler's median cost beside
the harness's own floor (an autocomplete answered with nothing), and the core call alone.

    python tests/benchmarks/bench_ruling.py [--n 300]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from _shared import Report, full_catalog  # noqa: E402

QUERIES = ["defossilizare", "agente da rainha", "lanterne calotte", "Jadelight Ranger", "Île", "Llanowar Elves",
           "serv of the cond", "Lightning Bolt", "ティシャーナの道探し", "Проводница Тишаны"]
MAX_HANDLER_MS = 5.0
LOCALES = ["it", "pt-BR", "fr", "en-US", "fr", "de", "en-US", "es-ES", "ja", "ru"]


async def measure(n: int, report: Report) -> None:
    from bot import create_bot
    from tests.fake_discord import FakeDiscord
    fake = FakeDiscord()
    await fake.start()
    bot = create_bot(connector=fake.connector(), guild_ready_timeout=0.05)
    task = asyncio.create_task(bot.start("benchmark-token"))
    await asyncio.wait_for(bot.wait_until_ready(), 60)
    try:
        option = lambda q: [{"name": "card", "type": 3, "value": q}]  # noqa: E731
        for q, loc in zip(QUERIES, LOCALES):   # warm up
            await fake.slash("ruling", option(q), locale=loc)
        floor, ruling = [], []
        for i in range(n):
            q, loc = QUERIES[i % len(QUERIES)], LOCALES[i % len(LOCALES)]
            started = time.perf_counter()
            await fake.autocomplete("ruling", [{"name": "card", "type": 3, "value": "", "focused": True}])
            floor.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            await fake.slash("ruling", option(q), locale=loc)
            ruling.append((time.perf_counter() - started) * 1000)
        f, r = statistics.median(floor), statistics.median(ruling)
        report.info(f"harness floor (autocomplete answered with nothing), median of {n}", f"{f:.2f} ms")
        report.info("/ruling round trip through the harness, median", f"{r:.2f} ms")
        report.info("/ruling round trip, p99", f"{sorted(ruling)[int(0.99 * (n - 1))]:.2f} ms")
        report.limit("/ruling handler (round trip minus floor), median", r - f, MAX_HANDLER_MS, "ms", baseline=f)
    finally:
        await bot.close()
        await fake.close()
        task.cancel()


def core(n: int, report: Report) -> None:
    from bot.rulings.command import ruling
    from bot.config import Config
    from bot.services import Services
    services = Services(Config.from_env())
    services.matcher  # noqa: B018 - load the index before timing
    times = []
    for i in range(n):
        started = time.perf_counter()
        ruling(services, QUERIES[i % len(QUERIES)], ["it", "pt", "fr", "en"][i % 4])
        times.append((time.perf_counter() - started) * 1000)
    report.info("core ruling() alone (resolve + rulings + pages), median", f"{statistics.median(times):.2f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=300)
    args = parser.parse_args()
    catalog = full_catalog()
    os.environ["WAYFINDER_CATALOG"] = str(catalog)
    os.environ["WAYFINDER_SETTINGS_DB"] = str(Path(tempfile.mkdtemp()) / "settings.sqlite3")
    os.environ["WAYFINDER_LOG_LEVEL"] = "WARNING"
    report = Report("/ruling on the full catalog, through the offline Discord harness")
    core(args.n, report)
    asyncio.run(measure(args.n, report))
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
