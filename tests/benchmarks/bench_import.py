"""Import benchmark: the whole ``wayfinder data import`` command as a user runs it (the bundled
catalog it starts from, every file, the rulings' links, the name index), its time and its peak
memory summed over its process tree; the same for an all_cards file ten times larger generated
from the real one (memory must stay flat); beside ``json.load`` of all_cards measured in the same run.

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

from _shared import ALL_CARDS, Report, full_catalog_files, json_load_baseline, require_shared, run_measured, user_env  # noqa: E402

WAYFINDER = str(Path(sys.executable).parent / "wayfinder")
MAX_PEAK_MB = 300
MAX_RATIO = 6.0


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


def import_command(catalog: Path, files: list[Path]) -> tuple[float, float]:
    env = user_env(WAYFINDER_CATALOG=str(catalog), WAYFINDER_LOG_LEVEL="WARNING")
    seconds, peak, done = run_measured([WAYFINDER, "data", "import", "--no-progress", *map(str, files)], env=env)
    if done.returncode:
        raise SystemExit(f"the import failed:\n{done.stderr[-2000:]}")
    return seconds, peak


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=int, default=10)
    parser.add_argument("--skip-large", action="store_true")
    args = parser.parse_args()
    require_shared()
    report = Report("import: `wayfinder data import` as a user runs it (bundled catalog, all_cards 206,674"
                    " objects, 45,047 rulings, 4 CR editions, the name index)")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        base_seconds, base_peak = json_load_baseline()
        seconds, peak = import_command(tmp / "real.sqlite3", full_catalog_files())
        report.ratio("import time", seconds, base_seconds, MAX_RATIO)
        report.limit("import peak memory (process tree)", peak, MAX_PEAK_MB, "MB", baseline=base_peak, digits=0)
        if not args.skip_large:
            large = tmp / f"all-cards-x{args.scale}.json.gz"
            started = time.perf_counter()
            count = make_larger(ALL_CARDS, large, args.scale)
            report.info(f"generated {args.scale}x all_cards", f"{count:,} objects",
                        f"{time.perf_counter() - started:.0f} s")
            large_seconds, large_peak = import_command(tmp / "large.sqlite3", [large])
            report.info(f"import time, {args.scale}x file", f"{large_seconds:.1f} s", f"{base_seconds:.2f} s",
                        f"{large_seconds / base_seconds:.1f}x")
            report.limit(f"import peak memory, {args.scale}x file", large_peak, MAX_PEAK_MB, "MB",
                         baseline=peak, digits=0)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
