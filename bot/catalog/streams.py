"""Open data files the way they come: plain or gzip, JSON array or JSON lines, streamed."""
from __future__ import annotations

import gzip
import io
import json
import zlib
from pathlib import Path
from typing import IO, Iterator

import ijson

from bot.catalog.errors import DataImportError


class CountingReader(io.RawIOBase):
    """Wraps a binary stream and remembers how many bytes were read, for error positions."""

    def __init__(self, raw: IO[bytes]):
        self._raw = raw
        self.offset = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self._raw.read(len(buffer))
        n = len(data)
        buffer[:n] = data
        self.offset += n
        return n


def open_binary(path: Path) -> IO[bytes]:
    raw = open(path, "rb")
    magic = raw.read(2)
    raw.seek(0)
    if magic == b"\x1f\x8b":
        return gzip.GzipFile(fileobj=raw)
    return raw


def _first_significant_byte(stream: io.BufferedReader) -> bytes:
    head = stream.peek(4096)[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head[:1]


def iter_json_records(path: Path | str, prefix: str = "item") -> Iterator[tuple[int, dict]]:
    """Yield (record number, object) from a JSON array or a JSON-lines file, one at a time.

    Errors name the file and the byte offset (of the uncompressed text) where reading stopped.
    """
    path = Path(path)
    if not path.exists():
        raise DataImportError(str(path), "no such file")
    counter = CountingReader(open_binary(path))
    stream = io.BufferedReader(counter, buffer_size=1 << 16)
    number = 0
    try:
        first = _first_significant_byte(stream)
        if first == b"{" and prefix == "item":
            for number, line in enumerate(stream, start=1):
                line = line.strip()
                if line:
                    yield number, json.loads(line)
            return
        if first not in (b"[", b"{"):
            raise DataImportError(str(path), "not a JSON file (expected an array or JSON lines)",
                                  "byte 0")
        for number, obj in enumerate(ijson.items(stream, prefix, use_float=True), start=1):
            yield number, obj
    except DataImportError:
        raise
    except (ijson.JSONError, json.JSONDecodeError, EOFError, OSError, zlib.error,
            UnicodeDecodeError) as exc:
        kind = "truncated or corrupt file" if not isinstance(exc, json.JSONDecodeError) else "bad JSON line"
        raise DataImportError(
            str(path), f"{kind}: {exc}",
            f"after record {number:,}, near byte {counter.offset:,}") from exc
    finally:
        stream.close()
