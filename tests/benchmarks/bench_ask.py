"""/ask on the full catalog: recall@5 over judge questions in several languages (each with the
rules or rulings that decide it, tests/benchmarks/ask_questions.jsonl) and the latency of the
whole command, beside a baseline measured in the same run (a SQL LIKE scan of the rulings for
the question's longest word, the naive search).

    python tests/benchmarks/bench_ask.py [--questions FILE]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _shared import Report, full_catalog  # noqa: E402

QUESTIONS = Path(__file__).with_name("ask_questions.jsonl")
RECALL_GOAL = 0.90
RATIO_GOAL = 1.5        # the whole /ask command against one LIKE scan of the rulings, same run
# (on a quiet 2-core machine the scan takes about 10 ms and /ask's median 15–20 ms)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    from bot.ask.command import ask
    from bot.ask.evaluation import load_questions, recall_at
    from bot.config import Config
    from bot.services import Services
    services = Services(Config.from_env({"WAYFINDER_CATALOG": str(full_catalog())}))
    started = time.perf_counter()
    services.ask_index
    print(f"index ready in {time.perf_counter() - started:.2f} s")
    questions = load_questions(args.questions)
    recalls, times, baseline = [], [], []
    for q in questions:
        ask(services, q.text, q.lang)       # warm: the first call loads the language's tools
        t0 = time.perf_counter()
        reply = ask(services, q.text, q.lang)
        times.append((time.perf_counter() - t0) * 1000)
        recall = recall_at(reply.data, q.expect, services.catalog)
        recalls.append(recall)
        longest = max(q.text.split(), key=len)
        t0 = time.perf_counter()
        services.catalog.query("SELECT id FROM rulings WHERE text LIKE ? LIMIT 5", (f"%{longest}%",))
        baseline.append((time.perf_counter() - t0) * 1000)
        if args.verbose or recall < 1:
            print(f"{recall:4.2f}  [{q.lang}] {q.text}")
            for r in reply.data["results"]:
                ref = r.get("number") or r.get("term") or r.get("card")
                print(f"        {r['kind']:8} {ref[:30]:30} {r['text'][:80]!r}")
    recall = statistics.mean(recalls)
    median, base = statistics.median(times), statistics.median(baseline)
    languages = sorted({q.lang for q in questions})
    report = Report(f"/ask: {len(questions)} judge questions in {len(languages)} languages ({', '.join(languages)})")
    report.limit("recall@5", recall * 100, RECALL_GOAL * 100, "%", at_least=True, digits=1)
    report.ratio("median latency, whole /ask command", median, base, RATIO_GOAL, unit="ms")
    report.info("p99 latency", f"{sorted(times)[max(0, int(len(times) * 0.99) - 1)]:.2f} ms")
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
