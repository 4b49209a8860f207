"""``make bench``'s runner refuses a benchmark name it does not know, rather than running none and
saying every goal was met."""
import subprocess
import sys
from pathlib import Path

RUNNER = Path(__file__).resolve().parent / "benchmarks" / "run.py"


def test_an_unknown_benchmark_name_is_refused_in_one_line():
    done = subprocess.run([sys.executable, str(RUNNER), "start", "nosuchbench"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode != 0
    assert "all goals met" not in done.stdout
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert "nosuchbench" in done.stderr and "start" not in done.stderr.split("(")[0]
