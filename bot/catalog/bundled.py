"""The catalog the bot ships: hand-written card facts and the seed ruling documents in data/."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from bot.config import DATA_DIR
from bot.catalog.build import ImportReport
from bot.catalog.importer import import_files


def bundled_files(data_dir: Path = DATA_DIR) -> list[Path]:
    return sorted((data_dir / "cards").glob("*.jsonl")) + sorted((data_dir / "seeds").glob("*.txt"))


def build_bundled(catalog: Path, log: Callable[[str], None] | None = None) -> list[ImportReport]:
    """Import the bundled data into ``catalog`` (created if missing, refreshed otherwise)."""
    return import_files(catalog, bundled_files(), log=log)


def ensure_catalog(catalog: Path, log: Callable[[str], None] | None = None) -> Path:
    """Build the bundled catalog on first start."""
    if not catalog.exists():
        build_bundled(catalog, log)
    return catalog
