"""Download Scryfall's bulk data, then import it.

Asks ``<base>/bulk-data`` for the index, downloads the files of the wanted types whose
``updated_at`` changed since the last sync (resuming a broken download with an HTTP Range
request), shows a progress bar, and imports what it fetched.

``sync-state.json`` beside the downloads says, for each file, which version was downloaded whole
and whether it was imported. A file downloaded and checked whole but not imported (another import
held the catalog, or the import failed) is imported at the next sync without being downloaded again,
as long as it is still the file that was checked (its size and time of change); a file the import
found unusable is downloaded again.
"""
from __future__ import annotations

import gzip
import http.client
import json
import urllib.error
import urllib.request
import zlib
from pathlib import Path
from typing import Callable
from urllib.parse import urlparse

from tqdm import tqdm

from bot.config import BULK_TYPES, Config
from bot.catalog.errors import CatalogBusy, DataImportError
from bot.catalog.importer import import_files
from bot.i18n import Note

CHUNK = 1 << 16
TIMEOUT = 60.0   # seconds without a byte before a download counts as stalled
USER_AGENT = "Wayfinder/0.1 (Magic: The Gathering rules bot)"
STATE_FILE = "sync-state.json"


def _request(url: str, headers: dict | None = None) -> urllib.request.Request:
    return urllib.request.Request(url, headers={"User-Agent": USER_AGENT, "Accept": "application/json",
                                                **(headers or {})})


def fetch_index(base_url: str) -> list[dict]:
    url = f"{base_url.rstrip('/')}/bulk-data"
    try:
        with urllib.request.urlopen(_request(url), timeout=60) as response:
            data = json.load(response)
    except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException) as exc:
        raise DataImportError(url, Note("cannot read Scryfall's bulk-data index: {error}", error=exc)) from exc
    if not isinstance(data, dict) or data.get("object") != "list" or not isinstance(data.get("data"), list):
        raise DataImportError(url, "not a bulk-data list")
    return [entry for entry in data["data"] if isinstance(entry, dict) and isinstance(entry.get("type"), str)
            and isinstance(entry.get("download_uri"), str)]


def download(url: str, target: Path, size: int | None = None, progress: bool = True,
             timeout: float = TIMEOUT) -> Path:
    """Download ``url`` to ``target``. What arrives is written at once to a ``.part`` file, kept when
    the transfer breaks or stalls (no byte for ``timeout`` seconds), so that the next call resumes it
    with an HTTP Range request. It becomes ``target`` only when whole: as long as its Content-Length
    said, and of the ``size`` the bulk-data index announced (uncompressed); else it is "incomplete"."""
    part = target.with_name(target.name + ".part")
    offset = part.stat().st_size if part.exists() else 0
    headers = {"Accept-Encoding": "gzip"}
    if offset:
        headers["Range"] = f"bytes={offset}-"
    try:
        response = urllib.request.urlopen(_request(url, headers), timeout=timeout)
    except urllib.error.HTTPError as exc:
        if exc.code == 416 and offset:  # the part is already whole
            return _whole(url, part, target, size)
        raise DataImportError(url, Note("download failed: HTTP {code}", code=str(exc.code))) from exc
    except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
        raise DataImportError(url, Note("download failed: {error}", error=exc)) from exc
    with response:
        resumed = response.status == 206
        if not resumed:
            offset = 0
        length = response.headers.get("Content-Length")
        expected = int(length) + offset if length and length.isdigit() else None
        with open(part, "ab" if resumed else "wb") as out, tqdm(
                total=expected, initial=offset, unit="B", unit_scale=True, desc=target.name,
                disable=not progress, leave=False) as bar:
            try:
                # read1: the bytes that arrived, without waiting for a whole chunk
                while chunk := response.read1(CHUNK):
                    out.write(chunk)
                    bar.update(len(chunk))
            except (OSError, urllib.error.URLError, http.client.HTTPException) as exc:
                why = Note("no data for {seconds} s", seconds=f"{timeout:g}") if isinstance(exc, TimeoutError) \
                    else str(exc) or type(exc).__name__
                raise DataImportError(url, Note("download broken after {size} bytes ({why}): the bytes that arrived"
                                                " are kept, run sync again to resume", size=out.tell(), why=why)) from exc
    got = part.stat().st_size
    if expected is not None and got > expected:   # not what was announced: start again
        part.unlink()
        raise DataImportError(url, Note("download bigger than announced: {got} of {expected} bytes (Content-Length):"
                                        " run sync again", got=got, expected=expected))
    if expected is not None and got < expected:
        raise DataImportError(url, Note("download incomplete: {got} of {expected} bytes (Content-Length): the bytes"
                                        " that arrived are kept, run sync again to resume", got=got, expected=expected))
    return _whole(url, part, target, size)


def _content_size(path: Path, announced: int) -> int | None:
    """The size of the content, uncompressed for a gzip file; None if it is cut or corrupt. A gzip
    file ends with its size (modulo 2**32): when that is the announced size, it is taken as it is.
    A file of exactly the announced size is whole too (a server that announces what it stores)."""
    with open(path, "rb") as fh:
        if fh.read(2) != b"\x1f\x8b" or path.stat().st_size == announced:
            return path.stat().st_size
        fh.seek(-4, 2)
        if int.from_bytes(fh.read(4), "little") == announced % (1 << 32):
            return announced
    total = 0   # several gzip members, or not whole: count
    try:
        with gzip.open(path) as stream:
            while chunk := stream.read(1 << 20):
                total += len(chunk)
    except (EOFError, OSError, zlib.error):
        return None
    return total


def _whole(url: str, part: Path, target: Path, size: int | None) -> Path:
    """The downloaded ``part`` becomes ``target`` if its content has the announced ``size``."""
    if size is not None:
        found = _content_size(part, size)
        if found != size:
            part.unlink()   # cannot be completed: the next sync downloads it again
            got = Note("cut or corrupt") if found is None else Note("{size} bytes", size=found)
            raise DataImportError(url, Note("download incomplete: {got}, the bulk-data index announced {size} bytes;"
                                            " nothing was imported: run sync again", got=got, size=size))
    part.replace(target)
    return target


def _local_name(entry: dict) -> str:
    name = Path(urlparse(entry["download_uri"]).path).name or f"{entry['type']}.json"
    if entry.get("content_encoding") == "gzip" and not name.endswith(".gz"):
        name += ".gz"
    return name


def _fingerprint(path: Path) -> dict:
    """What tells that a downloaded file is still the one that was checked whole."""
    stat = path.stat()
    return {"bytes": stat.st_size, "mtime_ns": stat.st_mtime_ns}


def _downloaded(target: Path, known: dict, size: int | None) -> bool:
    """Whether ``target`` is a download checked whole, not imported yet, and untouched since."""
    if known.get("imported", True) or not target.exists() or known.get("checked") != _fingerprint(target):
        return False
    return size is None or _content_size(target, size) == size


def _load_state(path: Path, warn: Callable[[str], None]) -> dict:
    """What the state file records; a file that cannot be read as one (cut or corrupt) records
    nothing, said once: every file is then downloaded and checked again."""
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except ValueError:   # not JSON, or not UTF-8
        state = None
    if isinstance(state, dict) and all(isinstance(entry, dict) for entry in state.values()):
        return state
    warn(Note("{file} cannot be read: every file is downloaded and checked again", file=str(path)))
    return {}


def _save_state(path: Path, state: dict) -> None:
    """Written whole or not at all: a sync that dies midway leaves the state as it was."""
    written = path.with_name(path.name + ".tmp")
    written.write_text(json.dumps(state, indent=2))
    written.replace(path)


def sync(config: Config, types: list[str] | None = None, base_url: str | None = None, progress: bool = True,
         log: Callable[[str], None] = print, rules_url: str | None = None, timeout: float = TIMEOUT,
         lock_wait: float | None = None, warn: Callable[[str], None] | None = None) -> list[Path]:
    """Fetch what changed and import it; return the files imported.

    ``rules_url`` (or WAYFINDER_RULES_URL): the Comprehensive Rules text file as Wizards publishes it,
    fetched too when its name (which carries the edition's date) is new. Another import into the
    catalog is waited for ``lock_wait`` seconds at most (WAYFINDER_IMPORT_WAIT). A state file that
    cannot be read is said to ``warn`` (``log`` by default) and treated as none."""
    types = types or ["all_cards", "rulings"]
    base_url = base_url or config.scryfall_base_url
    folder = config.downloads_dir
    folder.mkdir(parents=True, exist_ok=True)
    state_path = folder / STATE_FILE
    state = _load_state(state_path, warn or log)
    index = {entry["type"]: entry for entry in fetch_index(base_url)}
    missing = [t for t in types if t not in index]
    if missing:
        raise DataImportError(f"{base_url}/bulk-data", Note("no bulk file of type {types}", types=", ".join(missing)))
    fetched: list[tuple[str, Path]] = []

    def fetch(key: str, url: str, target: Path, size: int | None, version: dict) -> None:
        """Download ``url`` (unless a download of this version waits, whole and not imported) and
        record it, before any import, as downloaded whole and not imported."""
        known = state.get(key, {})
        if known.get("file") == target.name and all(known.get(k) == v for k, v in version.items()) \
                and _downloaded(target, known, size):
            log(Note("rules: {file} already downloaded, not imported yet: importing it", file=target.name)
                if key == "rules" else
                Note("{kind}: {file} already downloaded, not imported yet: importing it", kind=key, file=target.name))
        else:
            log(Note("rules: downloading {url}", url=url) if key == "rules"
                else Note("{kind}: downloading {url}", kind=key, url=url))
            download(url, target, size, progress, timeout)
            state[key] = {**version, "file": target.name, "imported": False, "checked": _fingerprint(target)}
            _save_state(state_path, state)
        fetched.append((key, target))

    for kind in sorted(types, key=lambda t: BULK_TYPES.index(t) if t in BULK_TYPES else len(BULK_TYPES)):
        entry = index[kind]
        target = folder / _local_name(entry)
        known = state.get(kind, {})
        if known.get("updated_at") == entry.get("updated_at") and known.get("imported", True) and target.exists():
            log(Note("{kind}: unchanged since {date}, skipped", kind=kind, date=entry.get("updated_at")))
            continue
        size = entry.get("size") if isinstance(entry.get("size"), int) else None
        fetch(kind, entry["download_uri"], target, size, {"updated_at": entry.get("updated_at")})
    rules_url = rules_url or config.rules_url
    if rules_url:
        target = folder / (Path(urlparse(rules_url).path).name or "MagicCompRules.txt")
        known = state.get("rules", {})
        if target.exists() and known.get("url") == rules_url and known.get("imported", True):
            log(Note("rules: {file} already imported, skipped", file=target.name))
        else:
            fetch("rules", rules_url, target, None, {"url": rules_url})
    if fetched:
        try:
            import_files(config.catalog_path, [target for _, target in fetched], progress=progress, log=log,
                         lock_wait=config.import_wait if lock_wait is None else lock_wait)
        except DataImportError as exc:
            unusable = [key for key, target in fetched if str(target) == exc.path]
            if unusable and not isinstance(exc, CatalogBusy):   # whole, but not what it should be
                for key in unusable:
                    del state[key]
                _save_state(state_path, state)
            raise
        for key, _ in fetched:
            state[key]["imported"] = True
        _save_state(state_path, state)
    else:
        log(Note("nothing new to import"))
    return [target for _, target in fetched]


__all__ = ["download", "fetch_index", "sync"]
