"""`data sync` when the server misbehaves: a stall keeps what arrived and the next sync resumes it;
a file shorter than the bulk-data index announced is "incomplete", never imported."""
import gzip
import hashlib
import json

import pytest

from bot.catalog import Catalog, DataImportError
from bot.catalog.bundled import build_bundled
from bot.catalog.refresh import refresh
from bot.catalog.sync import STATE_FILE, sync
from tests.catalog.test_sync import FakeScryfall, _config
from tests.helpers import needs_shared

pytestmark = needs_shared


@pytest.fixture
def cards(tmp_path):
    path = tmp_path / "cards.json.gz"
    path.write_bytes(gzip.compress(json.dumps([
        {"object": "card", "oracle_id": f"00000000-0000-4000-8000-{i:012d}", "name": f"Synced Card {i}",
         "lang": "en", "layout": "normal", "type_line": "Creature — Scout", "oracle_text": f"{i} explores.",
         "mana_cost": "{G}"} for i in range(3000)]).encode()))
    return path


@pytest.fixture
def server(cards):
    fake = FakeScryfall({"all_cards": cards})
    yield fake
    fake.close()


@pytest.fixture
def config(tmp_path, server):
    config = _config(tmp_path, server.url)
    build_bundled(config.catalog_path)
    return config


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def synced_cards(config) -> int:
    catalog = Catalog(config.catalog_path)
    try:
        return catalog.query("SELECT count(*) FROM cards WHERE name LIKE 'Synced Card %'")[0][0]
    finally:
        catalog.close()


def test_a_stalled_download_keeps_what_arrived_and_the_next_sync_resumes(config, server):
    before = digest(config.catalog_path)
    server.stall_once["/all_cards"] = 20_000
    with pytest.raises(DataImportError) as info:
        sync(config, types=["all_cards"], progress=False, log=lambda m: None, timeout=0.5)
    assert "run sync again to resume" in str(info.value)
    part = config.downloads_dir / "all_cards.gz.part"
    assert part.stat().st_size == 20_000, "every byte that arrived is kept"
    assert digest(config.catalog_path) == before
    sync(config, types=["all_cards"], progress=False, log=lambda m: None, timeout=5)
    assert server.requests[-1] == ("/all_cards", "bytes=20000-")
    assert synced_cards(config) == 3000


def test_a_file_shorter_than_announced_is_never_imported(config, server, cards):
    before = digest(config.catalog_path)
    server.short["/all_cards"] = cards.stat().st_size // 2   # whole as far as Content-Length goes
    messages = []
    with pytest.raises(DataImportError) as info:
        sync(config, types=["all_cards"], progress=False, log=messages.append, timeout=5)
    assert "incomplete" in str(info.value) and "run sync again" in str(info.value)
    assert "nothing was imported" in str(info.value)
    assert digest(config.catalog_path) == before
    assert not (config.downloads_dir / "all_cards.gz").exists()
    assert not any("card objects" in m for m in messages), messages
    del server.short["/all_cards"]
    sync(config, types=["all_cards"], progress=False, log=messages.append, timeout=5)
    assert synced_cards(config) == 3000


@pytest.mark.parametrize("damage", [b'{"all_cards": {"file": "all_c', b"\xff\xfe not text", b"[1, 2]"])
def test_a_corrupt_state_file_is_one_warning_and_every_file_is_downloaded_again(tmp_path, server, damage):
    """A cut or corrupt state file once made every refresh turn fail; now it records nothing."""
    config = _config(tmp_path, server.url, {"WAYFINDER_REFRESH_TYPES": "all_cards"})
    build_bundled(config.catalog_path)
    assert refresh(config, say=lambda m: None, warn=pytest.fail)
    state = config.downloads_dir / STATE_FILE
    state.write_bytes(damage)
    warnings = []
    assert refresh(config, say=lambda m: None, warn=warnings.append) is not None   # the turn is not skipped
    assert len(warnings) == 1 and STATE_FILE in str(warnings[0])
    assert server.requests[-1][0] == "/all_cards", "downloaded and checked again"
    assert json.loads(state.read_text())["all_cards"]["imported"] is True
    assert synced_cards(config) == 3000
    refresh(config, say=lambda m: None, warn=pytest.fail)   # the state file is whole again
