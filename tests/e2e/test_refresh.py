"""A running bot keeps its data current: it answers from the old catalog while the new one is
fetched and built, then from the new one, without a restart; one process refreshes at a time."""
import asyncio
import contextlib
import gzip
import json
import os
import shutil
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from bot.catalog import Catalog
from bot.catalog import refresh as refresh_module
from bot.catalog.build import import_lock
from bot.catalog.refresh import RefreshLock, refresh
from bot.config import Config
from tests.e2e.helpers import answer_of, embed_text, option
from tests.helpers import held

NEW_RULING = "A ruling published after the bot started: the zebrafish clause."


@pytest.fixture
def upstream_gets() -> list[str]:
    """The paths the upstream server was asked for, in order."""
    return []


@pytest.fixture
def upstream(tmp_path, bundled_catalog_path, upstream_gets):
    """A local server answering like Scryfall's /bulk-data, with a rulings file holding one new
    ruling for Jadelight Ranger."""
    catalog = Catalog(bundled_catalog_path)
    oracle_id = catalog.card_by_english_name("Jadelight Ranger").oracle_id
    catalog.close()
    body = gzip.compress(json.dumps([{"object": "ruling", "oracle_id": oracle_id, "source": "wotc",
                                      "published_at": "2026-11-01", "comment": NEW_RULING}]).encode())

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            upstream_gets.append(self.path)
            if self.path == "/bulk-data":
                data = json.dumps({"object": "list", "has_more": False, "data": [{
                    "object": "bulk_data", "type": "rulings", "updated_at": "2026-11-02T10:00:00.000+00:00",
                    "download_uri": f"http://127.0.0.1:{server.server_port}/rulings.json",
                    "size": len(body), "content_encoding": "gzip"}]}).encode()
                headers = {"Content-Type": "application/json"}
            elif self.path == "/rulings.json":
                data, headers = body, {"Content-Type": "application/json", "Content-Encoding": "gzip"}
            else:
                self.send_error(404)
                return
            self.send_response(200)
            for key, value in {**headers, "Content-Length": str(len(data))}.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    live = tmp_path / "catalog.sqlite3"
    shutil.copy(bundled_catalog_path, live)
    env = {"WAYFINDER_CATALOG": str(live), "WAYFINDER_SCRYFALL_URL": f"http://127.0.0.1:{server.server_port}",
           "WAYFINDER_DOWNLOADS": str(tmp_path / "downloads"), "WAYFINDER_REFRESH_TYPES": "rulings",
           "WAYFINDER_REFRESH_HOURS": "0", "WAYFINDER_SETTINGS_DB": str(tmp_path / "settings.sqlite3")}
    yield env
    server.shutdown()
    server.server_close()


def test_one_process_refreshes_at_a_time(upstream):
    config = Config.from_env(upstream)
    lock = RefreshLock(config.catalog_path)
    assert lock.acquire()
    said = []
    try:
        assert refresh(config, say=said.append) is None      # held by another: skipped
    finally:
        lock.release()
    assert said == [f"another process (pid {os.getpid()}) is refreshing {config.catalog_path}: skipped"]
    assert refresh(config, say=lambda line: None)                # the new rulings file, imported
    assert refresh(config, say=lambda line: None) == []          # nothing changed since


def test_with_settings_on_postgresql_one_process_of_the_deployment_refreshes_at_a_time(upstream, settings_db):
    from bot.catalog.refresh import DatabaseRefreshLock
    config = Config.from_env({**upstream, "WAYFINDER_SETTINGS_DB": settings_db})
    if not isinstance(config.settings_path, str):
        pytest.skip("the advisory lock is PostgreSQL's")
    elsewhere = DatabaseRefreshLock(config.settings_path)    # another host's process, refreshing
    assert elsewhere.acquire()
    said = []
    try:
        assert refresh(config, say=said.append) is None
    finally:
        elsewhere.release()
    assert said == [f"another process of the deployment is refreshing {config.catalog_path}: skipped"]
    assert refresh(config, say=lambda line: None)



def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_refresh_that_cannot_reach_the_database_skips_its_turn_and_holds_nothing(upstream):
    url = f"postgresql://wayfinder:secret@127.0.0.1:{_closed_port()}/settings"
    config = Config.from_env({**upstream, "WAYFINDER_SETTINGS_DB": url})
    threads, said, warned = threading.active_count(), [], []
    assert refresh(config, say=said.append, warn=warned.append) is None
    assert said == [] and len(warned) == 1
    assert warned[0].startswith("cannot take the refresh lock on postgresql://wayfinder:***@127.0.0.1:")
    assert warned[0].endswith("refresh skipped") and "secret" not in warned[0]
    assert threading.active_count() == threads
    lock = RefreshLock(config.catalog_path)          # the host's lock was let go
    assert lock.acquire()
    lock.release()


def test_a_database_that_never_answers_is_given_up_and_its_connection_closed():
    from bot.catalog.refresh import DatabaseRefreshLock, LockUnavailable
    with socket.create_server(("127.0.0.1", 0)) as server:    # accepts, then says nothing
        threads = threading.active_count()
        lock = DatabaseRefreshLock(f"postgresql://wayfinder@127.0.0.1:{server.getsockname()[1]}/settings",
                                   timeout=0.5)
        with pytest.raises(LockUnavailable, match=r"no answer within 0\.5 s"):
            lock.acquire()
        assert threading.active_count() == threads
        server.settimeout(10)
        peer, _ = server.accept()
        with peer:
            while peer.recv(4096):      # the start-up message, then the end of the connection
                pass


def test_a_lock_query_answered_too_late_leaves_no_lock_held(postgres_cluster):
    """The server is reached, but the lock comes back after the timeout: the query is cancelled
    and the connection closed, so the lock is not left held by a session nobody releases."""
    from bot.catalog.refresh import DatabaseRefreshLock, LockUnavailable
    url = postgres_cluster.new_database()
    schema = url.rsplit("%3D", 1)[1]        # the URL's search path: this function comes first
    postgres_cluster.sql(url.split("?")[0], f"CREATE FUNCTION {schema}.pg_try_advisory_lock(key bigint) "
                         "RETURNS boolean LANGUAGE sql AS "
                         "'SELECT pg_sleep(2); SELECT pg_catalog.pg_try_advisory_lock(key)'")
    url = url.replace("%3D" + schema, f"%3D{schema},pg_catalog")
    threads = threading.active_count()
    with pytest.raises(LockUnavailable, match="no answer within"):
        DatabaseRefreshLock(url, timeout=0.5).acquire()
    assert threading.active_count() == threads
    time.sleep(2.5)                          # past the moment the slow query would have taken it
    held = postgres_cluster.sql(url.split("?")[0], "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'")
    assert held == "0"


def test_a_database_stopped_mid_refresh_ends_the_refresh_cleanly(upstream, monkeypatch):
    """The server goes away while the refresh runs: the refresh finishes, and letting the lock go
    (it went with the server) neither fails nor leaves anything behind."""
    from tests.pg_server import PostgresCluster, server_binaries
    if server_binaries() is None:
        pytest.skip("the PostgreSQL server (initdb, pg_ctl) is not installed; .ci/run installs it")
    cluster = PostgresCluster(server_binaries()).start()
    real_sync = refresh_module.sync

    def sync_while_the_server_stops(*args, **kwargs):
        cluster.stop()
        return real_sync(*args, **kwargs)

    monkeypatch.setattr(refresh_module, "sync", sync_while_the_server_stops)
    try:
        config = Config.from_env({**upstream, "WAYFINDER_SETTINGS_DB": f"{cluster.url}/postgres"})
        threads = threading.active_count()
        assert refresh(config, say=lambda line: None)              # the new rulings file, imported
        assert threading.active_count() == threads
        lock = RefreshLock(config.catalog_path)
        assert lock.acquire()
        lock.release()
    finally:
        if cluster.dir.exists():        # stopped before the refresh could
            cluster.stop()


def finished(call, seconds=120):
    """What ``call`` returns, run in a thread: it must not wait for a lock this test holds."""
    result = []
    thread = threading.Thread(target=lambda: result.append(call()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert result, "it waited for the lock"
    return result[0]


def test_a_refresh_skips_its_turn_while_an_import_runs_and_downloads_nothing(upstream):
    config = Config.from_env(upstream)
    said = []
    with import_lock(config.catalog_path, 0):                  # `data import` under way
        assert finished(lambda: refresh(config, say=said.append)) is None
    assert said == [f"an import (pid {os.getpid()}) into {config.catalog_path} is under way: refresh skipped"]
    assert not list(config.downloads_dir.glob("rulings*"))
    assert refresh(config, say=lambda line: None)              # the next turn imports


def turn_as_an_import_starts(config: Config, monkeypatch) -> list[str]:
    """A refresh turn during which `data import` starts, once the refresh has begun downloading:
    the turn is skipped (what it said returned), not waiting for the import."""
    real_sync = refresh_module.sync
    said = []
    with contextlib.ExitStack() as imports:
        def sync_as_an_import_starts(*args, **kwargs):
            imports.enter_context(import_lock(config.catalog_path, 0))
            return real_sync(*args, **kwargs)

        monkeypatch.setattr(refresh_module, "sync", sync_as_an_import_starts)
        assert finished(lambda: refresh(config, say=said.append)) is None
    monkeypatch.setattr(refresh_module, "sync", real_sync)
    return said


def test_an_import_that_starts_while_the_refresh_downloads_is_not_waited_for(upstream, monkeypatch):
    config = Config.from_env(upstream)
    before = config.catalog_path.read_bytes()
    said = turn_as_an_import_starts(config, monkeypatch)
    assert said[-1] == f"an import (pid {os.getpid()}) into {config.catalog_path} is under way: refresh skipped"
    assert config.catalog_path.read_bytes() == before


def test_what_a_refused_import_leaves_downloaded_is_imported_next_turn_without_downloading_it_again(
        upstream, upstream_gets, monkeypatch, bundled_catalog_path):
    """An import that starts while the refresh downloads makes the refresh skip its import; the file
    it downloaded and checked whole stays, and the next turn imports it as it is. A kept file that
    changed on disk since it was checked is never imported: it is downloaded again."""
    config = Config.from_env(upstream)

    def has_new_ruling() -> bool:
        catalog = Catalog(config.catalog_path)
        try:
            oracle_id = catalog.card_by_english_name("Jadelight Ranger").oracle_id
            return NEW_RULING in [r.text for r in catalog.rulings(oracle_id)]
        finally:
            catalog.close()

    turn_as_an_import_starts(config, monkeypatch)
    assert upstream_gets.count("/rulings.json") == 1 and not has_new_ruling()
    said = []
    assert [p.name for p in refresh(config, say=said.append)] == ["rulings.json.gz"]
    assert upstream_gets.count("/rulings.json") == 1          # not downloaded again
    assert "rulings: rulings.json.gz already downloaded, not imported yet: importing it" in said
    assert has_new_ruling()
    assert refresh(config, say=lambda line: None) == []      # imported: nothing new next turn
    assert upstream_gets.count("/rulings.json") == 1

    shutil.copy(bundled_catalog_path, config.catalog_path)   # as on the first turn
    (config.downloads_dir / "sync-state.json").unlink()
    turn_as_an_import_starts(config, monkeypatch)
    assert upstream_gets.count("/rulings.json") == 2
    kept = config.downloads_dir / "rulings.json.gz"
    kept.write_bytes(kept.read_bytes()[:-10])                # cut short since it was checked
    assert [p.name for p in refresh(config, say=lambda line: None)] == ["rulings.json.gz"]
    assert upstream_gets.count("/rulings.json") == 3          # downloaded again, not imported cut
    assert has_new_ruling()


def test_a_kept_download_the_import_cannot_use_is_downloaded_again(upstream, upstream_gets, monkeypatch):
    config = Config.from_env(upstream)
    turn_as_an_import_starts(config, monkeypatch)
    kept = config.downloads_dir / "rulings.json.gz"
    checked = kept.stat()
    kept.write_bytes(b"x" * checked.st_size)   # the same size and time: spoilt all the same
    os.utime(kept, ns=(checked.st_atime_ns, checked.st_mtime_ns))
    warned = []
    assert refresh(config, say=lambda line: None, warn=warned.append) is None
    assert "rulings.json.gz" in warned[0] and upstream_gets.count("/rulings.json") == 1
    assert [p.name for p in refresh(config, say=lambda line: None)] == ["rulings.json.gz"]
    assert upstream_gets.count("/rulings.json") == 2


def test_every_process_sharing_the_catalog_answers_from_the_new_one(upstream):
    """The process that imported, and another one that found nothing new upstream (the first had
    already fetched it) or found the refresh lock held: both answer from the new catalog, and the
    file they left is closed at their next refresh."""
    from bot.rulings.select import rulings_for
    from bot.services import Services
    importer, other = Services(Config.from_env(upstream)), Services(Config.from_env(upstream))
    jadelight = other.catalog.card_by_english_name("Jadelight Ranger").oracle_id
    old = other.catalog
    try:
        assert importer.refresh() is True
        assert other.refresh() is True        # nothing new upstream for it, but a new catalog file
        for services in (importer, other):
            texts = [e.text for e in rulings_for(services.catalog, jadelight, "en").entries]
            assert NEW_RULING in texts
        assert other.refresh() is False
        with pytest.raises(Exception, match="closed"):
            old.card_by_english_name("Opt")      # the replaced file's handle was let go
    finally:
        importer.close()
        other.close()


@pytest.fixture
def e2e_env(upstream, monkeypatch):
    for key, value in upstream.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    return upstream


async def test_the_bot_answers_from_the_old_catalog_while_the_new_one_builds(discord_bot, monkeypatch):
    fake, bot = discord_bot.fake, discord_bot.bot
    started, release = held(monkeypatch, refresh_module, "sync")
    refreshing = asyncio.create_task(bot.refresh_data())
    while not started.is_set():
        await asyncio.sleep(0.05)
    during = await fake.slash("ruling", [option("card", "Jadelight Ranger")])
    text = embed_text(await answer_of(fake, during))
    assert "Jadelight Ranger" in text and "zebrafish" not in text
    release.set()
    assert await asyncio.wait_for(refreshing, 120) is True
    after = await fake.slash("ruling", [option("card", "Jadelight Ranger")])
    assert "zebrafish" in embed_text(await answer_of(fake, after))


def _skipped_turn_warning(config, caplog) -> str:
    """One refresh turn that fails: it returns False, the bot still answers, the catalog file is the
    same bytes, and the log holds exactly one warning, without a traceback; that warning's line."""
    from bot.services import Services

    before = config.catalog_path.read_bytes()
    services = Services(config)
    try:
        with caplog.at_level("INFO"):
            assert services.refresh() is False
        assert services.catalog.card_by_english_name("Jadelight Ranger")
    finally:
        services.close()
    problems = [r for r in caplog.records if r.levelname in ("WARNING", "ERROR", "CRITICAL")]
    assert len(problems) == 1 and problems[0].levelname == "WARNING" and not problems[0].exc_info
    assert config.catalog_path.read_bytes() == before
    return problems[0].getMessage()


class _Failing(BaseHTTPRequestHandler):
    """Scryfall answering every request with an HTTP error."""

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.send_error(503)


@pytest.mark.parametrize("upstream_is", ["unreachable", "failing", "rules failing"])
def test_an_upstream_failure_is_one_warning_and_the_turn_is_skipped(upstream, upstream_is, caplog):
    """Scryfall down or answering errors is expected now and then: the log says in one line what
    failed, without a traceback, and the bot goes on answering from the catalog it has."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Failing)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = _closed_port() if upstream_is == "unreachable" else server.server_port
    failing = f"http://127.0.0.1:{port}/MagicCompRules-20270101.txt" if upstream_is == "rules failing" \
        else f"http://127.0.0.1:{port}/bulk-data"
    config = Config.from_env({**upstream, "WAYFINDER_RULES_URL": failing} if upstream_is == "rules failing"
                             else {**upstream, "WAYFINDER_SCRYFALL_URL": f"http://127.0.0.1:{port}"})
    try:
        line = _skipped_turn_warning(config, caplog)
    finally:
        server.shutdown()
        server.server_close()
    assert line.startswith(failing) and "\n" not in line
    assert ("503" in line) == (upstream_is != "unreachable")
    assert line.endswith(f"refresh skipped, still answering from {config.catalog_path}")


def test_a_full_disk_during_the_import_is_one_warning_and_the_turn_is_skipped(upstream, monkeypatch, caplog):
    """SQLite says a full disk with its own error, not an OSError: still one line, the catalog kept."""
    import sqlite3

    import bot.catalog.refresh as refresh

    def full(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(refresh, "sync", full)
    config = Config.from_env(upstream)
    assert _skipped_turn_warning(config, caplog) == (f"database or disk is full; refresh skipped, still answering "
                                                     f"from {config.catalog_path}")
