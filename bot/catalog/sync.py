"""Download Scryfall's bulk data, then import it.

Asks ``<base>/bulk-data`` for the index, downloads the files of the wanted types whose
``updated_at`` changed since the last sync (resuming a broken download with an HTTP Range
request), shows a progress bar, and imports what it fetched.
"""
from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Callable
from urllib.parse import urlparse

from tqdm import tqdm

from bot.config import Config
from bot.catalog.errors import DataImportError
from bot.catalog.importer import import_files

CHUNK = 1 << 16
USER_AGENT = "Wayfinder/0.1 (Magic: The Gathering rules bot)"
STATE_FILE = "sync-state.json"
ORDER = ("oracle_cards", "default_cards", "all_cards", "rulings")


def _request(url: str, headers: dict | None = None) -> urllib.request.Request:
    return urllib.request.Request(url, headers={"User-Agent": USER_AGENT, "Accept": "application/json",
                                                **(headers or {})})


def fetch_index(base_url: str) -> list[dict]:
    url = f"{base_url.rstrip('/')}/bulk-data"
    try:
        with urllib.request.urlopen(_request(url), timeout=60) as response:
            data = json.load(response)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise DataImportError(url, f"cannot read Scryfall's bulk-data index: {exc}") from exc
    if not isinstance(data, dict) or data.get("object") != "list":
        raise DataImportError(url, "not a bulk-data list")
    return data["data"]


def download(url: str, target: Path, size: int | None = None, progress: bool = True) -> Path:
    """Download ``url`` to ``target``; a ``.part`` file left by a broken download is resumed."""
    part = target.with_name(target.name + ".part")
    offset = part.stat().st_size if part.exists() else 0
    headers = {"Accept-Encoding": "gzip"}
    if offset:
        headers["Range"] = f"bytes={offset}-"
    try:
        response = urllib.request.urlopen(_request(url, headers), timeout=60)
    except urllib.error.HTTPError as exc:
        if exc.code == 416 and offset:  # the part is already whole
            part.replace(target)
            return target
        raise DataImportError(url, f"download failed: HTTP {exc.code}") from exc
    except (urllib.error.URLError, OSError) as exc:
        raise DataImportError(url, f"download failed: {exc}") from exc
    with response:
        resumed = response.status == 206
        if not resumed:
            offset = 0
        total = response.headers.get("Content-Length")
        total = int(total) + offset if total and total.isdigit() else size
        with open(part, "ab" if resumed else "wb") as out, tqdm(
                total=total, initial=offset, unit="B", unit_scale=True, desc=target.name,
                disable=not progress, leave=False) as bar:
            try:
                while chunk := response.read(CHUNK):
                    out.write(chunk)
                    bar.update(len(chunk))
            except (OSError, urllib.error.URLError) as exc:
                raise DataImportError(url, f"download broken after {out.tell():,} bytes (run sync again"
                                           f" to resume): {exc}") from exc
    if total and part.stat().st_size < total:
        raise DataImportError(url, f"download incomplete: {part.stat().st_size:,} of {total:,} bytes"
                                   " (run sync again to resume)")
    part.replace(target)
    return target


def _local_name(entry: dict) -> str:
    name = Path(urlparse(entry["download_uri"]).path).name or f"{entry['type']}.json"
    if entry.get("content_encoding") == "gzip" and not name.endswith(".gz"):
        name += ".gz"
    return name


def sync(config: Config, types: list[str] | None = None, base_url: str | None = None, progress: bool = True,
         log: Callable[[str], None] = print, rules_url: str | None = None) -> list[Path]:
    """Fetch what changed and import it; return the files imported.

    ``rules_url`` (or WAYFINDER_RULES_URL): the Comprehensive Rules text file as Wizards publishes it,
    fetched too when its name (which carries the edition's date) is new."""
    types = types or ["all_cards", "rulings"]
    base_url = base_url or config.scryfall_base_url
    folder = config.downloads_dir
    folder.mkdir(parents=True, exist_ok=True)
    state_path = folder / STATE_FILE
    state = json.loads(state_path.read_text()) if state_path.exists() else {}
    index = {entry["type"]: entry for entry in fetch_index(base_url)}
    missing = [t for t in types if t not in index]
    if missing:
        raise DataImportError(f"{base_url}/bulk-data", f"no bulk file of type {', '.join(missing)}")
    fetched: list[Path] = []
    for kind in sorted(types, key=lambda t: ORDER.index(t) if t in ORDER else len(ORDER)):
        entry = index[kind]
        target = folder / _local_name(entry)
        known = state.get(kind, {})
        if known.get("updated_at") == entry.get("updated_at") and target.exists():
            log(f"{kind}: unchanged since {entry.get('updated_at')}, skipped")
            continue
        log(f"{kind}: downloading {entry['download_uri']}")
        download(entry["download_uri"], target, entry.get("size"), progress)
        fetched.append(target)
        state[kind] = {"updated_at": entry.get("updated_at"), "file": target.name}
    rules_url = rules_url or config.rules_url
    if rules_url:
        target = folder / (Path(urlparse(rules_url).path).name or "MagicCompRules.txt")
        if target.exists() and state.get("rules", {}).get("url") == rules_url:
            log(f"rules: {target.name} already imported, skipped")
        else:
            log(f"rules: downloading {rules_url}")
            download(rules_url, target, None, progress)
            fetched.append(target)
            state["rules"] = {"url": rules_url, "file": target.name}
    if fetched:
        import_files(config.catalog_path, fetched, progress=progress, log=log)
        state_path.write_text(json.dumps(state, indent=2))
    else:
        log("nothing new to import")
    return fetched


__all__ = ["download", "fetch_index", "sync"]
