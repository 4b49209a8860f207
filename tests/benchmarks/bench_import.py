"""Import benchmark: time and peak memory of importing the real Scryfall files, the seeds and the
Comprehensive Rules; the same for a file ten times larger generated from the real one (memory must
not grow with the file); and a naive baseline measured in the same run (json.load of the whole
all_cards file).

    python tests/benchmarks/bench_import.py [--scale 10] [--skip-large]

Each measurement runs in a child process, so its peak memory (max RSS) is its own.
"""
from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from _shared import PROJECT, SHARED_DATA, require_shared  # noqa: E402

ALL_CARDS = SHARED_DATA / "scryfall" / "all-cards-derived-2022.json.gz"
RULINGS = SHARED_DATA / "scryfall" / "rulings-derived-2022.json.gz"
CR = SHARED_DATA / "cr" / "MagicCompRules-20260116.txt"

CHILD_IMPORT = """
import sys, time
sys.path.insert(0, {project!r})
from bot.catalog.importer import import_files
from bot.catalog.bundled import bundled_files
started = time.perf_counter()
import_files({catalog!r}, {files!r} + [str(p) for p in bundled_files()], name_index=False)
import resource
print(time.perf_counter() - started, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""

CHILD_NAIVE = """
import gzip, json, sys, time
started = time.perf_counter()
cards = json.load(gzip.open({path!r}))
import resource
print(time.perf_counter() - started, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, len(cards))
"""


def run_child(code: str) -> tuple[list[str], float]:
    """Run ``code`` in a fresh interpreter; it prints its figures, the second being its own max RSS (KB)."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"the measured process failed:\n{out.stderr[-2000:]}")
    fields = out.stdout.split()
    return fields, int(fields[1]) / 1024


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=int, default=10)
    parser.add_argument("--skip-large", action="store_true")
    args = parser.parse_args()
    require_shared()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        out, peak = run_child(CHILD_IMPORT.format(project=str(PROJECT), catalog=str(tmp / "real.sqlite3"),
                                                  files=[str(ALL_CARDS), str(RULINGS), str(CR)]))
        print(f"import of the real files (206,674 card objects, 45,047 rulings, seeds, CR):"
              f" {float(out[0]):.1f} s, peak {peak:.0f} MB")
        out, naive_peak = run_child(CHILD_NAIVE.format(path=str(ALL_CARDS)))
        print(f"naive baseline, json.load of all_cards alone ({int(out[2]):,} objects, no database):"
              f" {float(out[0]):.1f} s, peak {naive_peak:.0f} MB")
        if args.skip_large:
            return
        large = tmp / f"all-cards-x{args.scale}.json.gz"
        started = time.perf_counter()
        count = make_larger(ALL_CARDS, large, args.scale)
        print(f"generated {large.name}: {count:,} card objects, {large.stat().st_size / 2**20:.0f} MB gzip,"
              f" in {time.perf_counter() - started:.0f} s")
        out, large_peak = run_child(CHILD_IMPORT.format(project=str(PROJECT), catalog=str(tmp / "large.sqlite3"),
                                                        files=[str(large)]))
        print(f"import of the {args.scale}x file: {float(out[0]):.1f} s, peak {large_peak:.0f} MB"
              f" (memory bounded: {'yes' if large_peak < peak * 1.5 else 'NO'})")


if __name__ == "__main__":
    main()
