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


def held(monkeypatch, module, name: str):
    """Replace ``module.name`` by a version that, once called, waits for the test's word before it
    runs the real one: returns (called, release), two threading.Event."""
    import threading

    called, release = threading.Event(), threading.Event()
    real = getattr(module, name)

    def waiting(*args, **kwargs):
        called.set()
        assert release.wait(60)
        return real(*args, **kwargs)
    monkeypatch.setattr(module, name, waiting)
    return called, release
