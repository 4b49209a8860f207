"""Run every benchmark (tests/benchmarks/bench_*.py), each in its own interpreter; exit non-zero
when any of them missed a goal.

    python tests/benchmarks/run.py [NAME …]      e.g. run.py import names
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    scripts = sorted(HERE.glob("bench_*.py"))
    if argv:
        known = {s.stem.removeprefix("bench_"): s for s in scripts}
        unknown = [name for name in argv if name not in known]
        if unknown:
            print(f"no such benchmark: {', '.join(unknown)} (there are: {', '.join(known)})", file=sys.stderr)
            return 2
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in argv]
    sys.path.insert(0, str(HERE))
    from _shared import full_catalog
    full_catalog()   # built once, before anything is timed
    failed = []
    for script in scripts:
        print(f"\n### {script.name}", flush=True)
        if subprocess.run([sys.executable, str(script)]).returncode:
            failed.append(script.stem)
    print("\nall goals met" if not failed else f"\ngoals missed in: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
