"""Open data files the way they come: plain or gzip, JSON array or JSON lines, streamed.

Records can be read as a given type (a ``msgspec.Struct`` naming only the fields an importer reads:
the others are skipped without being built). A JSON array written one record per line, as Scryfall
writes its bulk files, is then read line by line with a typed decoder; any other layout, or a file
that stops being written so, goes through the general streaming parser, with the same records.
"""
from __future__ import annotations

import gzip
import io
import json
import re
import zlib
from pathlib import Path
from typing import IO, Iterator, NamedTuple

import ijson
import msgspec

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


BOM = b"\xef\xbb\xbf"


def _first_significant_byte(stream: io.BufferedReader) -> bytes:
    head = stream.peek(4096)[:4096].lstrip(BOM + b" \t\r\n")
    return head[:1]


def _skip_bom(stream: io.BufferedReader) -> None:
    """Past a UTF-8 byte order mark at the start, which the general parser would take for text."""
    if stream.peek(3)[:3] == BOM:
        stream.read(3)


class Misfit(NamedTuple):
    """A record that is not of the type asked for (an object with a field of another type, a list…):
    its ``value`` as JSON gives it, for the importer to say what is wrong with it."""
    value: object


class _NotFramed(Exception):
    """The file is not (or no longer) one record per line: the general parser reads it."""


MAX_LINE = 1 << 20   # a longer line is not one record of a file written one record per line
_OPENING_LINE = re.compile(rb"(?:" + BOM + rb")?[ \t]*\[[ \t\r]*\n")


def iter_json_records(path: Path | str, prefix: str = "item", *, pairs: bool = False,
                      as_type: type | None = None) -> Iterator[tuple[int, object]]:
    """Yield (record number, object) from a JSON array or a JSON-lines file, one at a time; with
    ``pairs``, (record number, (key, value)) of the object at ``prefix``. With ``as_type`` (records
    of the top-level array or JSON lines), each record is an instance of that type, or a Misfit.

    Errors name the file and the byte offset (of the uncompressed text) where reading stopped.
    """
    path = Path(path)
    if not path.exists():
        raise DataImportError(str(path), "no such file")
    skip = 0
    if as_type is not None and prefix == "item" and not pairs:
        try:
            for skip, record in _read(path, lambda stream: _typed_records(stream, as_type)):
                yield skip, record
            return
        except _NotFramed:
            pass   # read again from the start with the general parser; the records given are not repeated
    typed = _converter(as_type) if as_type is not None else None
    for exact in (False, True):
        try:
            for number, obj in _read(path, lambda stream: _records(path, stream, prefix, pairs, exact)):
                if number > skip:
                    skip = number
                    yield number, typed(obj) if typed else obj
            return
        except _NumberOverflow:
            pass   # read again, numbers exact; the records given are not repeated


def _converter(as_type: type):
    def typed(obj: object) -> object:
        try:
            return msgspec.convert(obj, as_type)
        except msgspec.ValidationError:
            return Misfit(obj)
    return typed


class _NumberOverflow(Exception):
    """A number too large for the general parser's fast form (an integer beyond 64 bits, 1e400):
    the file is read again with numbers kept exact."""


def _records(path: Path, stream: io.BufferedReader, prefix: str, pairs: bool,
             exact: bool = False) -> Iterator[tuple[int, object]]:
    first = _first_significant_byte(stream)
    _skip_bom(stream)
    if first == b"{" and prefix == "item":
        for number, line in enumerate(stream, start=1):
            line = line.strip()
            if line:
                yield number, _line_value(line)
        return
    if first not in (b"[", b"{"):
        raise DataImportError(str(path), "not a JSON file (expected an array or JSON lines)",
                              Note("byte {offset}", offset=0))
    parse = ijson.kvitems if pairs else ijson.items
    if exact:   # integers of any size; other numbers as Decimal, then as float, as json.loads gives them
        for number, obj in enumerate(parse(_AsAvailable(stream), prefix), start=1):
            yield number, ((obj[0], _as_floats(obj[1])) if pairs else _as_floats(obj))
        return
    try:
        yield from enumerate(parse(_AsAvailable(stream), prefix, use_float=True), start=1)
    except ijson.JSONError as exc:
        if "overflow" in str(exc).split("\n", 1)[0]:
            raise _NumberOverflow from exc
        raise


def _as_floats(value: object) -> object:
    return json.loads(json.dumps(value, default=float))


def _line_value(line: bytes) -> object:
    """The value of one JSON line; one nested deeper than json.loads goes is read by the general parser."""
    try:
        return json.loads(line)
    except RecursionError:
        return _one_value(line)


def _typed_records(stream: io.BufferedReader, as_type: type) -> Iterator[tuple[int, object]]:
    """The records of a file written one record per line (an array or JSON lines), decoded as
    ``as_type``; _NotFramed at the first line that is not one whole record."""
    decode = msgspec.json.Decoder(as_type).decode
    if _first_significant_byte(stream) == b"{":
        lines, parse = _json_lines(stream), _line_value   # as the general reader parses JSON lines
    else:
        lines, parse = _array_lines(stream), _one_value
    for number, line in lines:
        if not line.isascii():
            try:   # the decoder does not check the text of the fields it skips
                line.decode()
            except UnicodeDecodeError:
                raise _NotFramed from None   # corrupt: the general parser says where
        try:
            record = decode(line)
        except msgspec.ValidationError:   # a whole record, of another type: as the general parser reads it
            try:
                record = Misfit(parse(line))
            except (ValueError, ijson.JSONError, RecursionError):
                raise _NotFramed from None   # not one whole record either
        except (msgspec.DecodeError, RecursionError):   # not JSON, or nested deeper than the decoder goes
            raise _NotFramed from None
        yield number, record


def _one_value(line: bytes) -> object:
    """The one JSON value of ``line``, read by the general parser."""
    [value] = ijson.items(io.BytesIO(line), "", use_float=True)
    return value


def _json_lines(stream: io.BufferedReader) -> Iterator[tuple[int, bytes]]:
    """(line number, line) of the lines that are not blank."""
    for number, line in enumerate(iter(lambda: stream.readline(MAX_LINE), b""), start=1):
        if len(line) == MAX_LINE and not line.endswith(b"\n"):
            raise _NotFramed
        line = line.strip()
        if line:
            yield number, line


def _array_lines(stream: io.BufferedReader) -> Iterator[tuple[int, bytes]]:
    """(record number, item) of a JSON array written "[", one item a line with a comma between
    items (at the end of a line or the start of the next), then "]"; _NotFramed where it is not."""
    if not _OPENING_LINE.match(stream.peek(4096)[:4096]):
        raise _NotFramed   # known before anything is read
    stream.readline()
    number = 0
    after_item = comma = False   # an item read and no comma since; a comma read since the last item
    readline = stream.readline
    while True:
        line = readline(MAX_LINE)
        if not line:
            raise _NotFramed   # cut before the end of the array: the general parser says where
        if len(line) == MAX_LINE and not line.endswith(b"\n"):
            raise _NotFramed
        item = line.strip()
        if not item:
            continue
        if item[0] == 0x2C:   # a comma opens the line
            if not after_item:
                raise _NotFramed
            item = item[1:].lstrip()
            after_item, comma = False, True
            if not item:
                continue
        if item == b"]":
            if comma or any(chunk.strip() for chunk in iter(lambda: stream.read(1 << 16), b"")):
                raise _NotFramed
            return
        if after_item:
            raise _NotFramed
        if item[-1] == 0x2C:   # a comma closes the line
            item = item[:-1]
            after_item, comma = False, True
        else:
            after_item, comma = True, False
        number += 1
        yield number, item


def _read(path: Path, records) -> Iterator[tuple[int, object]]:
    """Run ``records(stream)`` over the file; a file cut or corrupt is a DataImportError naming where."""
    counter = CountingReader(open_binary(path))
    stream = io.BufferedReader(counter, buffer_size=1 << 16)
    number = 0
    try:
        for number, obj in records(stream):
            yield number, obj
    except (DataImportError, _NotFramed, _NumberOverflow):
        raise
    except (ijson.JSONError, json.JSONDecodeError, UnicodeDecodeError, RecursionError, *STREAM_ERRORS) as exc:
        kind = ("bad JSON line: {error}" if isinstance(exc, json.JSONDecodeError) else
                "nested too deeply: {error}" if isinstance(exc, RecursionError) else "truncated or corrupt file: {error}")
        raise DataImportError(
            str(path), Note(kind, error=_first_line(exc)),
            Note("after record {number}, near byte {offset}", number=number, offset=counter.offset)) from exc
    finally:
        stream.close()


def _first_line(exc: BaseException) -> str:
    """The first line of what ``exc`` says (the general parser says it in bytes, with the text around)."""
    message = exc.args[0] if len(exc.args) == 1 and isinstance(exc.args[0], bytes) else str(exc)
    if isinstance(message, bytes):
        message = message.decode("utf-8", "replace")
    return message.splitlines()[0] if message.strip() else type(exc).__name__


def first_key(path: Path, prefix: str) -> str | None:
    """The first key of the object at ``prefix`` (None if there is none), reading no further."""
    counter = CountingReader(open_binary(path))
    try:
        stream = io.BufferedReader(counter)
        _skip_bom(stream)
        for found, event, value in ijson.parse(_AsAvailable(stream)):
            if found == prefix and event == "map_key":
                return value
        return None
    except (ijson.JSONError, UnicodeDecodeError, *STREAM_ERRORS) as exc:
        raise DataImportError(str(path), Note("not a JSON file, or cut or corrupt: {error}", error=exc),
                              Note("near byte {offset}", offset=counter.offset)) from exc
    finally:
        counter.close()
