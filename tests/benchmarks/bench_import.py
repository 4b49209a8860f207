"""Import benchmark: the whole ``wayfinder data import`` command as a user runs it (the bundled
data a new catalog starts with, every file, the rulings' links, the name index), its time and its peak
memory summed over its process tree; the same for an all_cards file ten times larger generated
from the real one (memory must stay flat); beside ``json.load`` of all_cards measured in the same run
(the import and json.load in turns, the best of two runs of each).

    python tests/benchmarks/bench_import.py [--scale 10] [--skip-large]
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from _shared import ALL_CARDS, Report, full_catalog_files, json_load_baseline, least_cpu, require_shared, run_measured, user_env  # noqa: E402

WAYFINDER = str(Path(sys.executable).parent / "wayfinder")
MAX_PEAK_MB = 300
MAX_RATIO = 6.0
RUNS = 2


def make_larger(source: Path, target: Path, scale: int) -> int:
    """A file ``scale`` times larger: the real objects repeated, each copy a distinct set of cards."""
    import ijson
    count = 0
    with gzip.open(target, "wt", encoding="utf-8", compresslevel=1) as out:
        out.write("[\n")
        for copy in range(scale):
            with gzip.open(source, "rb") as fh:
                for obj in ijson.items(fh, "item", use_float=True):
                    if copy:  # another card: its own ids and names
                        obj["oracle_id"] = f"{obj['oracle_id'][:-4]}{copy:04d}"
                        obj["id"] = f"{obj['id'][:-4]}{copy:04d}"
                        for holder in [obj, *(obj.get("card_faces") or [])]:
                            for key in ("name", "printed_name"):
                                if holder.get(key):
                                    holder[key] = f"{holder[key]} {copy}"
                    out.write(("," if count else "") + json.dumps(obj, ensure_ascii=False) + "\n")
                    count += 1
        out.write("]\n")
    return count


def import_command(catalog: Path, files: list[Path]):
    env = user_env(WAYFINDER_CATALOG=str(catalog), WAYFINDER_LOG_LEVEL="WARNING")
    measured = run_measured([WAYFINDER, "data", "import", "--no-progress", *map(str, files)], env=env)
    if measured.done.returncode:
        raise SystemExit(f"the import failed:\n{measured.done.stderr[-2000:]}")
    return measured


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=int, default=10)
    parser.add_argument("--skip-large", action="store_true")
    args = parser.parse_args()
    require_shared()
    report = Report("import: `wayfinder data import` as a user runs it (bundled data, all_cards 206,674"
                    " objects, 45,047 rulings, 4 CR editions, the name index); time judged on CPU time")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        # the import and json.load taken in turns, the order alternating, the best of RUNS of each:
        # both sides measured alike
        bases, reals = [], []
        for run in range(RUNS):
            for side in (("json", "import") if run % 2 == 0 else ("import", "json")):
                if side == "json":
                    bases.append(json_load_baseline(runs=1))
                else:
                    reals.append(import_command(tmp / f"real-{run}.sqlite3", full_catalog_files()))
        base, real = least_cpu(bases), least_cpu(reals)
        real.peak_mb = max(m.peak_mb for m in reals)   # memory: the most any run took
        report.ratio(f"import time (cpu, best of {RUNS})", real.cpu, base.cpu, MAX_RATIO)
        report.info("  the same, wall clock", f"{real.seconds:.2f} s", f"{base.seconds:.2f} s",
                    f"{real.seconds / base.seconds:.3f}x")
        report.limit("import peak memory (process tree)", real.peak_mb, MAX_PEAK_MB, "MB", baseline=base.peak_mb,
                     digits=0)
        if not args.skip_large:
            large = tmp / f"all-cards-x{args.scale}.json.gz"
            started = time.perf_counter()
            count = make_larger(ALL_CARDS, large, args.scale)
            report.info(f"generated {args.scale}x all_cards", f"{count:,} objects",
                        f"{time.perf_counter() - started:.0f} s")
            big = import_command(tmp / "large.sqlite3", [large])
            report.info(f"import time, {args.scale}x file (cpu)", f"{big.cpu:.1f} s", f"{base.cpu:.2f} s",
                        f"{big.cpu / base.cpu:.1f}x")
            report.limit(f"import peak memory, {args.scale}x file (flat: <= 1.5x the real import's)",
                         big.peak_mb, min(MAX_PEAK_MB, 1.5 * real.peak_mb), "MB", baseline=real.peak_mb, digits=0)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
