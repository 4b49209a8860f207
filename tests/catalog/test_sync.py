"""`wayfinder data sync` against a local HTTP server that answers like Scryfall, serving the real
bulk files of ../shared/data/scryfall."""
import functools
import gzip
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from bot.catalog import Catalog, DataImportError
from bot.catalog.sync import download, sync
from bot.config import Config
from tests.helpers import SHARED_DATA, needs_shared

SCRYFALL = SHARED_DATA / "scryfall"


@functools.lru_cache(maxsize=None)
def uncompressed_size(path: Path) -> int:
    with gzip.open(path) as stream:
        return sum(len(chunk) for chunk in iter(lambda: stream.read(1 << 20), b""))


class FakeScryfall:
    """/bulk-data in the real index format (download_uri pointing here), files with Range support."""

    def __init__(self, files: dict[str, Path], updated_at: str = "2025-01-16T22:05:35.071+00:00"):
        self.files = files
        self.updated_at = updated_at
        self.requests: list[tuple[str, str | None]] = []
        self.break_once: dict[str, int] = {}   # path → cut the connection after this many bytes, once
        self.stall_once: dict[str, int] = {}   # path → send this many bytes, then nothing for a while, once
        self.short: dict[str, int] = {}        # path → serve only this many bytes (Content-Length says so)
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                fake.requests.append((self.path, self.headers.get("Range")))
                if self.path == "/bulk-data":
                    return self._json(fake.index())
                name = self.path.lstrip("/")
                if name not in fake.files:
                    self.send_error(404)
                    return
                data = fake.files[name].read_bytes()
                data = data[:fake.short[self.path]] if self.path in fake.short else data
                start = 0
                if self.headers.get("Range"):
                    start = int(self.headers["Range"].split("=")[1].split("-")[0])
                    self.send_response(206)
                    self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
                else:
                    self.send_response(200)
                self.send_header("Content-Length", str(len(data) - start))
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Encoding", "gzip")
                self.end_headers()
                cut = fake.break_once.pop(self.path, None)
                body = data[start:]
                stall = fake.stall_once.pop(self.path, None)
                if stall is not None:
                    self.wfile.write(body[:stall])
                    self.wfile.flush()
                    time.sleep(3)   # longer than the client waits
                    return
                if cut is not None:
                    self.wfile.write(body[:cut])
                    self.wfile.flush()
                    self.connection.shutdown(2)
                    return
                self.wfile.write(body)

            def _json(self, data):
                raw = json.dumps(data).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def index(self) -> dict:
        real = json.loads((SCRYFALL / "bulk-data-index-2025-01-16.json").read_text())
        for entry in real["data"]:
            if entry["type"] in self.files:
                entry["download_uri"] = f"{self.url}/{entry['type']}"
                entry["size"] = uncompressed_size(self.files[entry["type"]])   # as Scryfall announces it
                entry["updated_at"] = self.updated_at
        return real

    def close(self):
        self.server.shutdown()


@pytest.fixture
def scryfall():
    server = FakeScryfall({"all_cards": SCRYFALL / "all-cards-derived-2022.json.gz",
                           "rulings": SCRYFALL / "rulings-derived-2022.json.gz"})
    yield server
    server.close()


def _config(tmp_path, url, env: dict | None = None) -> Config:
    return Config.from_env({"WAYFINDER_CATALOG": str(tmp_path / "catalog.sqlite3"),
                            "WAYFINDER_DOWNLOADS": str(tmp_path / "downloads"),
                            "WAYFINDER_SCRYFALL_URL": url, **(env or {})})


@needs_shared
def test_sync_downloads_imports_and_then_skips_what_did_not_change(tmp_path, scryfall):
    config = _config(tmp_path, scryfall.url)
    messages = []
    fetched = sync(config, progress=False, log=messages.append)
    assert [p.name for p in fetched] == ["all_cards.gz", "rulings.gz"]
    catalog = Catalog(config.catalog_path)
    assert catalog.query("SELECT count(*) FROM cards")[0][0] == 23_738
    assert catalog.query("SELECT count(*) FROM rulings")[0][0] == 45_047 - 3  # 3 republished, same text
    catalog.close()
    scryfall.requests.clear()
    assert sync(config, progress=False, log=messages.append) == []
    assert [path for path, _ in scryfall.requests] == ["/bulk-data"]
    assert any("unchanged" in m for m in messages)


@needs_shared
def test_a_broken_download_is_resumed(tmp_path, scryfall):
    target = tmp_path / "rulings.json.gz"
    scryfall.break_once["/rulings"] = 1_000_000
    with pytest.raises(DataImportError) as info:
        download(f"{scryfall.url}/rulings", target, progress=False)
    assert "resume" in str(info.value)
    part = target.with_name(target.name + ".part")
    assert part.stat().st_size == 1_000_000
    download(f"{scryfall.url}/rulings", target, progress=False)
    assert target.read_bytes() == (SCRYFALL / "rulings-derived-2022.json.gz").read_bytes()
    assert scryfall.requests[-1] == ("/rulings", "bytes=1000000-")


def test_no_network_is_a_clear_error(tmp_path):
    config = _config(tmp_path, "http://127.0.0.1:9")
    with pytest.raises(DataImportError) as info:
        sync(config, progress=False, log=lambda m: None)
    assert "bulk-data" in str(info.value)


@needs_shared
def test_sync_also_fetches_the_comprehensive_rules_when_asked(tmp_path):
    server = FakeScryfall({"rulings": SCRYFALL / "rulings-derived-2022.json.gz",
                           "MagicCompRules-20260116.txt": SHARED_DATA / "cr" / "MagicCompRules-20260116.txt"})
    try:
        config = _config(tmp_path, server.url)
        from bot.catalog.bundled import build_bundled
        build_bundled(config.catalog_path)
        sync(config, types=["rulings"], progress=False, log=lambda m: None,
             rules_url=f"{server.url}/MagicCompRules-20260116.txt")
        catalog = Catalog(config.catalog_path)
        assert catalog.info()["rules_editions"] == ["2026-01-16"]
    finally:
        server.close()
