"""Open data files the way they come: plain or gzip, JSON array or JSON lines, streamed."""
from __future__ import annotations

import gzip
import io
import json
import zlib
from pathlib import Path
from typing import IO, Iterator

import ijson

from bot.i18n import Note
from bot.catalog.errors import DataImportError


class CountingReader(io.RawIOBase):
    """Wraps a binary stream and remembers how many bytes were read, for error positions."""

    def __init__(self, raw: IO[bytes]):
        self._raw = raw
        self.offset = 0

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        self._raw.close()
        super().close()

    def readinto(self, buffer) -> int:
        # read1: what is there, without waiting for a whole buffer, so that the bytes before a
        # cut in a compressed file are counted before the error comes
        read = getattr(self._raw, "read1", self._raw.read)
        data = read(len(buffer))
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


STREAM_ERRORS = (EOFError, OSError, zlib.error, gzip.BadGzipFile)


def read_head(path: Path, size: int = 4096) -> bytes:
    """The first ``size`` bytes of the (uncompressed) text, or fewer at its end; a file cut or
    corrupt within them is a DataImportError naming the position."""
    counter = CountingReader(open_binary(path))
    head = b""
    try:
        while len(head) < size:
            chunk = counter.read(size - len(head))
            if not chunk:
                break
            head += chunk
    except STREAM_ERRORS as exc:
        raise DataImportError(str(path), Note("truncated or corrupt file: {error}", error=exc),
                              Note("near byte {offset}", offset=counter.offset)) from exc
    finally:
        counter.close()
    return head


class _AsAvailable:
    """A stream whose read() returns what is buffered (read1): the parser gets the records before
    a cut, and the error its true position."""

    def __init__(self, stream: io.BufferedReader):
        self.read = stream.read1


def _first_significant_byte(stream: io.BufferedReader) -> bytes:
    head = stream.peek(4096)[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head[:1]


def iter_json_records(path: Path | str, prefix: str = "item", *, pairs: bool = False) -> Iterator[tuple[int, object]]:
    """Yield (record number, object) from a JSON array or a JSON-lines file, one at a time; with
    ``pairs``, (record number, (key, value)) of the object at ``prefix``.

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
                                  Note("byte {offset}", offset=0))
        parse = ijson.kvitems if pairs else ijson.items
        for number, obj in enumerate(parse(_AsAvailable(stream), prefix, use_float=True), start=1):
            yield number, obj
    except DataImportError:
        raise
    except (ijson.JSONError, json.JSONDecodeError, UnicodeDecodeError, RecursionError, *STREAM_ERRORS) as exc:
        kind = ("bad JSON line: {error}" if isinstance(exc, json.JSONDecodeError) else
                "nested too deeply: {error}" if isinstance(exc, RecursionError) else "truncated or corrupt file: {error}")
        raise DataImportError(
            str(path), Note(kind, error=str(exc).splitlines()[0] if str(exc) else type(exc).__name__),
            Note("after record {number}, near byte {offset}", number=number, offset=counter.offset)) from exc
    finally:
        stream.close()


def first_key(path: Path, prefix: str) -> str | None:
    """The first key of the object at ``prefix`` (None if there is none), reading no further."""
    counter = CountingReader(open_binary(path))
    try:
        for found, event, value in ijson.parse(_AsAvailable(io.BufferedReader(counter))):
            if found == prefix and event == "map_key":
                return value
        return None
    except (ijson.JSONError, UnicodeDecodeError, *STREAM_ERRORS) as exc:
        raise DataImportError(str(path), Note("not a JSON file, or cut or corrupt: {error}", error=exc),
                              Note("near byte {offset}", offset=counter.offset)) from exc
    finally:
        counter.close()
