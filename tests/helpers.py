"""Paths and markers the test modules share."""
from __future__ import annotations

from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent.parent
SHARED = PROJECT.parent / "shared"
SHARED_DATA = SHARED / "data"
SEEDS = PROJECT / "data" / "seeds"

needs_shared = pytest.mark.skipif(not SHARED_DATA.exists(),
                                  reason="the real data is not at ../shared/data (CI always has it)")
