"""Shared fixtures: the bundled catalog, and the full catalog built from ../shared/data."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import PROJECT, SEEDS, SHARED, SHARED_DATA, needs_shared  # noqa: F401


@pytest.fixture(scope="session")
def bundled_catalog_path(tmp_path_factory) -> Path:
    from bot.catalog.bundled import build_bundled
    path = tmp_path_factory.mktemp("bundled") / "catalog.sqlite3"
    build_bundled(path)
    with_ask_index(path)
    return path


def with_ask_index(path: Path) -> None:
    """The /ask index beside a catalog the tests share, built once: a bot started on it reads it
    instead of building it in the background while a test times its answers."""
    from bot.ask.index import AskIndex
    from bot.catalog import Catalog
    from bot.rules.book import RulesBook
    catalog = Catalog(path)
    try:
        AskIndex.open(catalog, RulesBook.lazy(catalog)).close()
    finally:
        catalog.close()


@pytest.fixture(scope="session")
def bundled_catalog(bundled_catalog_path):
    from bot.catalog import Catalog
    catalog = Catalog(bundled_catalog_path)
    yield catalog
    catalog.close()


@pytest.fixture(scope="session")
def bundled_services(bundled_catalog_path, tmp_path_factory):
    from bot.config import Config
    from bot.services import Services
    settings = tmp_path_factory.mktemp("settings") / "settings.sqlite3"
    config = Config.from_env({"WAYFINDER_CATALOG": str(bundled_catalog_path),
                              "WAYFINDER_SETTINGS_DB": str(settings)})
    return Services(config)


@pytest.fixture(scope="session")
def full_catalog_path(tmp_path_factory) -> Path:
    """Every card, ruling and rule of ../shared/data plus the bundled data, imported once."""
    if not SHARED_DATA.exists():
        pytest.skip("the real data is not at ../shared/data (CI always has it)")
    from bot.catalog.bundled import bundled_files
    from bot.catalog.importer import import_files
    path = tmp_path_factory.mktemp("full") / "catalog.sqlite3"
    scryfall = SHARED_DATA / "scryfall"
    import_files(path, [scryfall / "all-cards-derived-2022.json.gz", scryfall / "rulings-derived-2022.json.gz",
                        SHARED_DATA / "cr" / "MagicCompRules-20260116.txt", *bundled_files()])
    return path


@pytest.fixture(scope="session")
def rules_catalog_path(tmp_path_factory) -> Path:
    """The bundled data plus the four real editions of the Comprehensive Rules."""
    if not SHARED_DATA.exists():
        pytest.skip("the real data is not at ../shared/data (CI always has it)")
    from bot.catalog.bundled import bundled_files
    from bot.catalog.importer import import_files
    path = tmp_path_factory.mktemp("rules") / "catalog.sqlite3"
    import_files(path, [*sorted((SHARED_DATA / "cr").glob("MagicCompRules-*.txt")), *bundled_files()])
    with_ask_index(path)
    return path


@pytest.fixture(scope="session")
def rules_book(rules_catalog_path):
    from bot.catalog import Catalog
    from bot.rules.book import RulesBook
    return RulesBook.from_catalog(Catalog(rules_catalog_path))


@pytest.fixture(scope="session")
def full_catalog(full_catalog_path):
    from bot.catalog import Catalog
    catalog = Catalog(full_catalog_path)
    yield catalog
    catalog.close()


@pytest.fixture(scope="session")
def full_matcher(full_catalog):
    from bot.matching import Matcher
    return Matcher.from_catalog(full_catalog)


@pytest.fixture(scope="session")
def bundled_matcher(bundled_catalog):
    from bot.matching import Matcher
    return Matcher.from_catalog(bundled_catalog)


@pytest.fixture(scope="session")
def postgres_cluster():
    """A throw-away PostgreSQL server for the whole run (see tests/pg_server.py)."""
    from tests.pg_server import PostgresCluster, server_binaries
    bindir = server_binaries()
    if bindir is None:
        pytest.skip("the PostgreSQL server (initdb, pg_ctl) is not installed; .ci/run installs it")
    cluster = PostgresCluster(bindir)
    try:
        yield cluster.start()
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def settings_db(request, tmp_path) -> str:
    """A fresh settings database of each kind, as WAYFINDER_SETTINGS_DB names it."""
    if request.param == "sqlite":
        return str(tmp_path / "settings.sqlite3")
    return request.getfixturevalue("postgres_cluster").new_database()


def pytest_addoption(parser):
    parser.addoption("--answer-budget", type=float, default=None,
                     help="seconds the bot answers directly within before it defers (0: it always defers)")


def pytest_report_header(config):
    return f"real data: {SHARED_DATA if SHARED_DATA.exists() else 'absent (tests that need it skip)'}"


os.environ.setdefault("WAYFINDER_LOG_LEVEL", "WARNING")
