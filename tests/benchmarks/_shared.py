"""Where benchmarks find the real data, and the full catalog built from it (cached in var/)."""
from __future__ import annotations

import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
SHARED_DATA = PROJECT.parent / "shared" / "data"
FULL_CATALOG = PROJECT / "var" / "bench-full-catalog.sqlite3"


def require_shared() -> None:
    if not SHARED_DATA.exists():
        sys.exit(f"the real data is not at {SHARED_DATA}: benchmarks need ../shared/data")


def full_catalog() -> Path:
    """The catalog of every card, ruling and rule in ../shared/data, built once."""
    require_shared()
    if not FULL_CATALOG.exists():
        from bot.catalog.bundled import bundled_files
        from bot.catalog.importer import import_files
        scryfall = SHARED_DATA / "scryfall"
        import_files(FULL_CATALOG, [scryfall / "all-cards-derived-2022.json.gz",
                                    scryfall / "rulings-derived-2022.json.gz",
                                    SHARED_DATA / "cr" / "MagicCompRules-20260116.txt",
                                    *bundled_files()], log=print)
    return FULL_CATALOG
