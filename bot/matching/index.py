"""The index of every printed name: exact keys, sorted keys for prefixes, words, typo buckets.

The importer writes it beside the catalog as one file of flat arrays and UTF-8 string tables,
and records the file's content digest in the catalog (``meta.name_index``). Opening it maps the
file into memory: nothing is parsed or copied, and no Python object is made per name until a
look-up reads that name. Entries are the printed names in the order of their folded form, so an
entry id is also its position for prefix search.

File layout: ``MAGIC``, a little-endian u32 header length, a JSON header (format version, the
languages, each section's offset, length and item type), then the sections, 8-byte aligned.
"""
from __future__ import annotations

import gc
import json
import logging
import mmap
import os
import sqlite3
import struct
import time
from array import array
from contextlib import suppress
from itertools import accumulate
from pathlib import Path

log = logging.getLogger(__name__)

KIND_RANK = {"card": 0, "token": 1, "playtest": 2, "art": 3}
FORMAT = 2
MAGIC = b"WAYFINDER-NAMES\n"
META_KEY = "name_index"
_TOP = b"\xf4\x8f\xbf\xbf"  # the UTF-8 encoding of U+10FFFF: above every name
_SHAPE_LAST = 1 << 21       # shapes keyed by a name's last letter rather than its first


def _shape(length: int, letter: str, last: bool = False) -> int:
    return (length << 22) | (_SHAPE_LAST if last else 0) | (ord(letter) if letter else 0)


class _Strings:
    """A table of strings in one buffer: ``offsets`` holds n + 1 absolute positions."""

    __slots__ = ("buffer", "offsets")

    def __init__(self, buffer, offsets):
        self.buffer, self.offsets = buffer, offsets

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def __getitem__(self, i: int) -> str:
        return self.buffer[self.offsets[i]:self.offsets[i + 1]].decode("utf-8")

    def raw(self, i: int) -> bytes:
        return self.buffer[self.offsets[i]:self.offsets[i + 1]]

    def bisect(self, key: bytes, lo: int = 0) -> int:
        """The first position whose string is not below ``key`` (the table is sorted)."""
        buffer, offsets = self.buffer, self.offsets
        hi = len(offsets) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if buffer[offsets[mid]:offsets[mid + 1]] < key:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def __eq__(self, other) -> bool:
        return isinstance(other, _Strings) and list(self) == list(other)

    def __iter__(self):
        return (self[i] for i in range(len(self)))


class _Column:
    """``entries → card → value``: a per-card column read through an entry's card."""

    __slots__ = ("cards", "values")

    def __init__(self, cards, values):
        self.cards, self.values = cards, values

    def __len__(self) -> int:
        return len(self.cards)

    def __getitem__(self, entry: int):
        return self.values[self.cards[entry]]


class _ByOracleId:
    """oracle id → English name, by binary search over the sorted oracle ids."""

    __slots__ = ("index",)

    def __init__(self, index: "NameIndex"):
        self.index = index

    def __contains__(self, oracle_id) -> bool:
        return isinstance(oracle_id, str) and self.index.card_number(oracle_id) is not None

    def __getitem__(self, oracle_id: str) -> str:
        number = self.index.card_number(oracle_id)
        if number is None:
            raise KeyError(oracle_id)
        return self.index.card_names[number]

    def get(self, oracle_id: str, default=None):
        return self[oracle_id] if oracle_id in self else default


class NameIndex:
    """Read-only views over the index buffer (a memory map, or bytes built in memory)."""

    def __init__(self, buffer, digest: str = ""):
        if buffer[:len(MAGIC)] != MAGIC:
            raise ValueError("not a name index")
        (size,) = struct.unpack_from("<I", buffer, len(MAGIC))
        start = len(MAGIC) + 4
        header = json.loads(bytes(buffer[start:start + size]))
        if header.get("format") != FORMAT:
            raise ValueError("a name index of another format")
        self.buffer = buffer
        self.digest = digest
        view = memoryview(buffer)
        sections = {}
        for name, (offset, length, typecode) in header["sections"].items():
            part = view[offset:offset + length]
            sections[name] = part.cast(typecode) if typecode != "B" else part
        self.lang_codes: list[str] = header["langs"]
        self.card_ids = _Strings(buffer, sections["card_id_offsets"])      # sorted oracle ids
        self.card_names = _Strings(buffer, sections["card_name_offsets"])  # English names
        self.cards = sections["cards"]            # entry → card number
        self.lang_ids = sections["langs"]         # entry → position in lang_codes
        self.kinds = sections["kinds"]            # entry → KIND_RANK of its card
        self.prints = sections["prints"]
        self.faces = sections["faces"]
        self.names = _Strings(buffer, sections["name_offsets"])
        self.keys = _Strings(buffer, sections["key_offsets"])            # folded, sorted
        self.spaceless_keys = _Strings(buffer, sections["spaceless_offsets"])  # sorted
        self.spaceless_ids = sections["spaceless_ids"]
        self.words = _Strings(buffer, sections["word_offsets"])          # sorted vocabulary
        self.posting_ids = sections["posting_ids"]
        self.posting_starts = sections["posting_starts"]
        self._word_shapes = (sections["word_shapes"], sections["word_shape_starts"],
                             sections["word_shape_ids"], sections["word_shape_text_offsets"])
        self._key_shapes = (sections["key_shapes"], sections["key_shape_starts"],
                            sections["key_shape_ids"], sections["key_shape_text_offsets"])
        self.oracle_ids = _Column(self.cards, self.card_ids)
        self.english_name = _ByOracleId(self)
        self.build_seconds = 0.0

    def __len__(self) -> int:
        return len(self.cards)

    # -- building ----------------------------------------------------------------------------

    @classmethod
    def from_rows(cls, rows, cards: dict[str, tuple[str, str]]) -> "NameIndex":
        """rows: (oracle_id, lang, name, face, folded, prints); cards: oracle_id → (name, kind)."""
        con = sqlite3.connect(":memory:")
        con.execute("CREATE TABLE cards(oracle_id TEXT PRIMARY KEY, name TEXT, kind TEXT)")
        con.execute("CREATE TABLE names(oracle_id TEXT, lang TEXT, name TEXT, face INTEGER, folded TEXT,"
                    " prints INTEGER)")
        con.executemany("INSERT INTO cards VALUES (?,?,?)", [(o, name, kind) for o, (name, kind) in cards.items()])
        con.executemany("INSERT INTO names VALUES (?,?,?,?,?,?)", rows)
        try:
            return cls._built(con)
        finally:
            con.close()

    @classmethod
    def from_catalog(cls, catalog) -> "NameIndex":
        with catalog._lock:
            return cls._built(catalog.con)

    @classmethod
    def _built(cls, con: sqlite3.Connection) -> "NameIndex":
        """Built into an anonymous temporary file, mapped like the importer's."""
        import tempfile
        fh = tempfile.TemporaryFile()
        digest = build(con, fh)
        fh.flush()
        return cls(mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ), digest)

    # -- beside the catalog ------------------------------------------------------------------

    @staticmethod
    def file_path(catalog_path: Path, digest: str) -> Path:
        return Path(f"{catalog_path}.names-{digest[:16]}")

    @classmethod
    def open(cls, catalog_path: Path, digest: str) -> "NameIndex | None":
        """The index file the catalog names, mapped into memory; None when it is missing."""
        path = cls.file_path(catalog_path, digest)
        try:
            with open(path, "rb") as fh:
                mapped = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
            return cls(mapped, digest)
        except (OSError, ValueError, KeyError, struct.error):
            return None

    @classmethod
    def load(cls, catalog) -> "NameIndex":
        """The index the importer left for this catalog's contents; built in memory when absent."""
        started = time.perf_counter()
        digest = recorded_digest(catalog)
        index = cls.open(catalog.path, digest) if digest else None
        if index is None:
            log.warning("no name index for %s: building one (run 'wayfinder data import' to keep one)",
                        catalog.path)
            index = cls.from_catalog(catalog)
        index.build_seconds = time.perf_counter() - started
        return index

    # -- look-ups ----------------------------------------------------------------------------

    def card_number(self, oracle_id: str) -> int | None:
        raw = oracle_id.encode("utf-8")
        pos = self.card_ids.bisect(raw)
        return pos if pos < len(self.card_ids) and self.card_ids.raw(pos) == raw else None

    def exact_ids(self, key: str) -> list[int]:
        """Entries whose folded name is ``key``, or is ``key`` once spaces are ignored."""
        out = []
        raw = key.encode("utf-8")
        pos = self.keys.bisect(raw)
        while pos < len(self.keys) and self.keys.raw(pos) == raw:
            out.append(pos)
            pos += 1
        raw = raw.replace(b" ", b"")
        pos = self.spaceless_keys.bisect(raw)
        while pos < len(self.spaceless_keys) and self.spaceless_keys.raw(pos) == raw:
            if self.spaceless_ids[pos] not in out:
                out.append(self.spaceless_ids[pos])
            pos += 1
        return out

    def postings(self, word_id: int):
        return self.posting_ids[self.posting_starts[word_id]:self.posting_starts[word_id + 1]]

    def postings_size(self, word_id: int) -> int:
        return self.posting_starts[word_id + 1] - self.posting_starts[word_id]

    def prefix_ids(self, prefix: str, limit: int) -> list[int]:
        """Entries whose folded name starts with ``prefix`` (at most ``limit``), in key order."""
        return list(_starting_with(self.keys, prefix.encode("utf-8"), limit))

    def spaceless_prefix_ids(self, prefix: str, limit: int) -> list[int]:
        """The same, with the spaces of the names ignored."""
        return [self.spaceless_ids[p] for p in _starting_with(self.spaceless_keys, prefix.encode("utf-8"), limit)]

    def word_range(self, prefix: str) -> range:
        """Vocabulary word ids starting with ``prefix``."""
        raw = prefix.encode("utf-8")
        start = self.words.bisect(raw)
        return range(start, self.words.bisect(raw + _TOP, lo=start))

    def word_id(self, word: str) -> int | None:
        raw = word.encode("utf-8")
        pos = self.words.bisect(raw)
        return pos if pos < len(self.words) and self.words.raw(pos) == raw else None

    def similar_shape_words(self, word: str, spread: int = 2):
        """(word ids, words) buckets: about the same length, sharing the first or second letter."""
        for length in range(max(1, len(word) - spread), len(word) + spread + 1):
            for letter in {word[0], word[1:2]}:
                bucket = self._bucket(self._word_shapes, _shape(length, letter))
                if bucket:
                    yield bucket

    def similar_shape_keys(self, spaceless: str, spread: int = 2):
        """(entry ids, spaceless names) buckets: about the same length, same first or last letter."""
        for length in range(max(1, len(spaceless) - spread), len(spaceless) + spread + 1):
            for shape in (_shape(length, spaceless[0]), _shape(length, spaceless[-1], last=True)):
                bucket = self._bucket(self._key_shapes, shape)
                if bucket:
                    yield bucket

    def _bucket(self, table, shape: int):
        shapes, starts, ids, text = table
        lo, hi = 0, len(shapes)
        while lo < hi:
            mid = (lo + hi) // 2
            if shapes[mid] < shape:
                lo = mid + 1
            else:
                hi = mid
        if lo == len(shapes) or shapes[lo] != shape:
            return None
        begin, end = starts[lo], starts[lo + 1]
        # the bucket's strings are stored together, one per line: one decode, one split
        offsets = text[lo], text[lo + 1]
        return ids[begin:end], self.buffer[offsets[0]:offsets[1]].decode("utf-8").split("\n")


def _starting_with(table: _Strings, prefix: bytes, limit: int):
    start = table.bisect(prefix)
    for pos in range(start, min(start + limit, len(table))):
        if not table.raw(pos).startswith(prefix):
            break
        yield pos


# -- building and keeping the file --------------------------------------------------------------

def recorded_digest(catalog) -> str | None:
    """The digest of the index built from this catalog's names, as the importer recorded it."""
    try:
        rows = catalog.query("SELECT value FROM meta WHERE key = ?", (META_KEY,))
    except sqlite3.DatabaseError:
        return None
    return rows[0][0] if rows else None


def _umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


def write_index(con: sqlite3.Connection, catalog_path: Path) -> str:
    """Build the index of ``con``'s names into the file named by its digest, beside
    ``catalog_path``, and record the digest in ``con`` (the catalog being written)."""
    import tempfile
    catalog_path = Path(catalog_path)
    fd, tmp_name = tempfile.mkstemp(prefix=catalog_path.name + ".names.", suffix=".tmp", dir=catalog_path.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "w+b") as fh:
            digest = build(con, fh)
        # whoever may read the catalog may read its index (mkstemp made the file its owner's only)
        mode = catalog_path.stat().st_mode & 0o666 if catalog_path.exists() else 0o666 & ~_umask()
        os.chmod(tmp, mode)
        os.replace(tmp, NameIndex.file_path(catalog_path, digest))
    finally:
        tmp.unlink(missing_ok=True)
    con.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (META_KEY, digest))
    return digest


def remove_other_indexes(catalog_path: Path, keep: str | None) -> None:
    """Index files of earlier contents go once the catalog no longer names them (a process that
    still has one mapped keeps reading it until it closes)."""
    catalog_path = Path(catalog_path)
    wanted = NameIndex.file_path(catalog_path, keep).name if keep else None
    for path in catalog_path.parent.glob(catalog_path.name + ".names*"):
        if path.name != wanted and not path.name.endswith(".tmp"):
            path.unlink(missing_ok=True)


# -- building: streamed in chunks, the numbers and texts of each name written to temporary files
# as they come; what must be sorted or grouped is sorted in memory while it is small, and left to
# SQLite beyond, so that memory does not grow with the number of names (only the words' lists of
# entries are held)

CHUNK = 20_000
SORT_IN_MEMORY = 400_000       # names sorted (without their spaces) in memory, at most; beyond, SQLite sorts them
BUCKETS_IN_MEMORY = 32 << 20   # bytes of names grouped by shape in memory; beyond, SQLite groups them
SQLITE_MEMORY = 8 << 20        # SQLite's page cache, and each of its sorts, once SQLite sorts
# in the order of the catalog's index names_by_key: read in order, nothing to sort
_ORDER = "n.folded, n.face, n.prints, n.oracle_id, n.lang, n.name"
# (the names of no card are left out; CROSS JOIN: the names are read first, in that index's order)
_ENTRIES = ("SELECT c.number, c.kind, n.lang, n.name, n.face, n.folded, n.prints FROM names n"
            " CROSS JOIN temp.name_index_cards c ON c.oracle_id = n.oracle_id"
            f" WHERE n.folded != '' ORDER BY {_ORDER}")
# the same when the cards' numbers are held in memory
_NAMES = f"SELECT n.oracle_id, n.lang, n.name, n.face, n.folded, n.prints FROM names n WHERE n.folded != '' ORDER BY {_ORDER}"


_TEMPORARY = ("name_index_cards", "name_index_spaceless")


def build(con: sqlite3.Connection, fh) -> str:
    """Write the index of the names in ``con`` into the binary file ``fh``; return its digest."""
    in_transaction = con.in_transaction
    (cache_size,) = con.execute("PRAGMA cache_size").fetchone()   # (lowered once SQLite sorts: see _SpacelessKeys)
    # the cards in the order of their oracle ids, numbered in a temporary table the names are
    # joined with; names without their spaces, to be sorted by SQLite when too many for memory
    for table in _TEMPORARY:
        con.execute(f"DROP TABLE IF EXISTS temp.{table}")
    con.execute("CREATE TEMP TABLE name_index_cards(oracle_id TEXT PRIMARY KEY, number INTEGER NOT NULL,"
                " kind INTEGER NOT NULL) WITHOUT ROWID")
    collecting = gc.isenabled()
    gc.disable()   # (the build makes no reference cycles: the collector would only walk what it reads, often)
    try:
        return _build(con, _Writer(fh))
    finally:
        if collecting:
            gc.enable()
        # (after a failure in the middle of a read, its open cursor keeps the table locked: the
        # table then goes with the connection, and the failure is what the caller sees)
        with suppress(sqlite3.OperationalError):
            for table in _TEMPORARY:
                con.execute(f"DROP TABLE IF EXISTS temp.{table}")
        if not in_transaction and con.in_transaction:
            con.commit()   # only temporary tables were written: a reader's connection stays as it was
        con.execute(f"PRAGMA cache_size = {cache_size}")


def _build(con: sqlite3.Connection, out: "_Writer") -> str:
    (count,) = con.execute("SELECT count(*) FROM names").fetchone()
    in_memory = count <= SORT_IN_MEMORY
    card_ids, card_names = out.table("card_id"), out.table("card_name")
    numbered: dict[str, tuple[int, int]] | None = {} if in_memory else None   # oracle id → number, kind
    cursor = con.execute("SELECT oracle_id, name, kind FROM cards ORDER BY oracle_id")
    number = 0
    while chunk := cursor.fetchmany(CHUNK):
        oracle_ids, english, kinds = zip(*chunk)
        card_ids.add(oracle_ids)
        card_names.add(english)
        numbering = zip(range(number, number + len(chunk)), [KIND_RANK.get(k, 3) for k in kinds])
        if numbered is not None:
            numbered.update(zip(oracle_ids, numbering))
        else:
            con.executemany("INSERT INTO temp.name_index_cards VALUES (?, ?, ?)",
                            [(oracle_id, *numbers) for oracle_id, numbers in zip(oracle_ids, numbering)])
        number += len(chunk)
    lang_codes = _Numbering()
    cards, langs, kinds, prints, faces = _Spool("i"), _Spool("b"), _Spool("b"), _Spool("i"), _Spool("b")
    names, keys = out.table("name"), out.table("key")
    spaceless_keys = _SpacelessKeys(con, in_memory)
    word_entries: dict[str, array] = {}
    entry = 0
    for numbers, chunk_kinds, chunk_langs, chunk_names, chunk_faces, chunk_keys, chunk_prints in \
            _entry_chunks(con, numbered):
        cards.extend(numbers)
        kinds.extend(chunk_kinds)
        langs.extend(map(lang_codes.__getitem__, chunk_langs))
        prints.extend(chunk_prints if 0 not in chunk_prints else [p or 1 for p in chunk_prints])
        faces.extend(chunk_faces)
        names.add(chunk_names)
        keys.add(chunk_keys)
        spaceless_keys.add(entry, chunk_keys)
        get = word_entries.get
        for entry, key in enumerate(chunk_keys, entry):
            for word in key.split():
                postings = get(word)
                if postings is None:
                    word_entries[word] = array("i", (entry,))
                elif postings[-1] != entry:
                    postings.append(entry)
        entry += 1
    for name, values in (("cards", cards), ("langs", langs), ("kinds", kinds), ("prints", prints),
                         ("faces", faces)):
        out.spool(name, values)
    for table in (card_ids, card_names, names, keys):
        out.finish_table(table)

    # the words, each with the entries it is in (written first: then its memory is free)
    words = sorted(word_entries)
    word_table, posting_ids, posting_starts = out.table("word"), _Spool("i"), array("i", [0])
    pop = word_entries.pop
    for first in range(0, len(words), CHUNK):
        postings = list(map(pop, words[first:first + CHUNK]))
        lengths = list(map(len, postings))
        posting_starts.pop()   # the running end: given again as the start of what follows
        posting_starts.extend(accumulate(lengths, initial=posting_ids.count))
        posting_ids.write(b"".join(postings), sum(lengths))
    word_shapes: dict[int, list[int]] = {}
    shaped = word_shapes.setdefault
    for word_id, word in enumerate(words):
        length = len(word) << 22
        shaped(length | ord(word[0]), []).append(word_id)   # _shape(len(word), first letter)
        second = ord(word[1]) if len(word) > 1 else 0         # _shape(len(word), second letter or "")
        if second != ord(word[0]):
            shaped(length | second, []).append(word_id)
    word_table.add(words)
    out.finish_table(word_table)
    out.spool("posting_ids", posting_ids)
    out.array("posting_starts", posting_starts)
    out.buckets("word_shape", ((shape, ids, "\n".join(map(words.__getitem__, ids)))
                               for shape, ids in sorted(word_shapes.items())))
    del words, word_shapes

    # names without their spaces, sorted, and grouped by shape for typo search: in memory while
    # the groups are small, else by SQLite
    spaceless, spaceless_ids = out.table("spaceless"), _Spool("i")
    shape_ids: dict[int, array] | None = {}         # shape → entries
    shape_texts: dict[int, list[str]] | None = {}   # shape → their names
    held = 0
    for ids, texts in spaceless_keys.in_order():
        spaceless_ids.extend(ids)
        spaceless.add(texts)
        if shape_ids is None:
            continue
        held += sum(map(len, texts)) + 80 * len(texts)   # about what Python holds for each
        if held > BUCKETS_IN_MEMORY:
            shape_ids = shape_texts = None
            continue
        for entry, text in zip(ids, texts):
            length = len(text) << 22
            for shape in (length | ord(text[0]), length | _SHAPE_LAST | ord(text[-1])):
                members = shape_ids.get(shape)
                if members is None:
                    shape_ids[shape] = array("i", (entry,))
                    shape_texts[shape] = [text]
                else:
                    members.append(entry)
                    shape_texts[shape].append(text)
    out.finish_table(spaceless)
    out.spool("spaceless_ids", spaceless_ids)
    if shape_ids is not None:
        groups = ((shape, shape_ids.pop(shape), "\n".join(shape_texts.pop(shape))) for shape in sorted(shape_ids))
    else:
        spaceless_keys.to_sqlite()
        groups = ((shape, array("i", map(int, members.split(","))), texts) for shape, members, texts in con.execute(
            # both lists of a group are concatenated in the same row order: ids and texts match
            "SELECT shape, group_concat(entry), group_concat(s, char(10)) FROM ("
            " SELECT entry, s, (length(s) << 22) | unicode(s) AS shape FROM temp.name_index_spaceless"
            " UNION ALL SELECT entry, s, (length(s) << 22) | ? | unicode(substr(s, -1))"
            " FROM temp.name_index_spaceless) GROUP BY shape ORDER BY shape",
            (_SHAPE_LAST,)))
    out.buckets("key_shape", groups)
    return out.close({"langs": list(lang_codes)})


def _entry_chunks(con: sqlite3.Connection, numbered: dict[str, tuple[int, int]] | None):
    """(card numbers, kinds, languages, names, faces, keys, prints) of the names in key order, in
    chunks; the cards numbered by ``numbered``, or else by the temporary table of cards."""
    if numbered is None:
        cursor = con.execute(_ENTRIES)
        while chunk := cursor.fetchmany(CHUNK):
            yield zip(*chunk)
        return
    cursor = con.execute(_NAMES)
    while chunk := cursor.fetchmany(CHUNK):
        found = list(map(numbered.get, [row[0] for row in chunk]))
        if None in found:   # the names of no card are left out
            chunk = [row for row, card in zip(chunk, found) if card is not None]
            found = [card for card in found if card is not None]
            if not chunk:
                continue
        _, chunk_langs, chunk_names, chunk_faces, chunk_keys, chunk_prints = zip(*chunk)
        yield (*zip(*found), chunk_langs, chunk_names, chunk_faces, chunk_keys, chunk_prints)


class _SpacelessKeys:
    """The folded names without their spaces, by entry: held in memory and sorted there when they
    are few (about 100 bytes each), else in a temporary table SQLite sorts."""

    def __init__(self, con: sqlite3.Connection, in_memory: bool):
        self.con = con
        self.held: list[str] | None = []
        if not in_memory:
            self.to_sqlite()

    def add(self, first: int, keys) -> None:
        texts = [key.replace(" ", "") for key in keys]
        if self.held is not None:
            self.held += texts
        else:
            self.con.executemany("INSERT INTO temp.name_index_spaceless(entry, s) VALUES (?, ?)",
                                 zip(range(first, first + len(texts)), texts))

    def to_sqlite(self) -> None:
        """Move what is held into the temporary table (SQLite sorts and groups from then on)."""
        if self.held is None:
            return
        # SQLite's page cache, and each of its sorts, hold no more than this from now on (while the
        # names are sorted in memory, the cache stays as it is: an importer's holds the names it
        # has just written, which the build reads)
        self.con.execute(f"PRAGMA cache_size = {-(SQLITE_MEMORY >> 10)}")
        self.con.execute("CREATE TEMP TABLE name_index_spaceless(entry INTEGER PRIMARY KEY, s TEXT NOT NULL)")
        self.con.executemany("INSERT INTO temp.name_index_spaceless(entry, s) VALUES (?, ?)", enumerate(self.held))
        self.held = None

    def in_order(self):
        """(entries, texts) in chunks, in the order of the texts (then of the entries)."""
        held = self.held
        if held is not None:
            order = sorted(range(len(held)), key=held.__getitem__)   # stable: equal texts by entry
            for first in range(0, len(order), CHUNK):
                ids = order[first:first + CHUNK]
                yield ids, list(map(held.__getitem__, ids))
            return
        # (Python compares code points, SQLite UTF-8 bytes: the same order)
        cursor = self.con.execute("SELECT entry, s FROM temp.name_index_spaceless ORDER BY s, entry")
        while chunk := cursor.fetchmany(CHUNK):
            yield zip(*chunk)


class _Numbering(dict):
    """value → its number, in the order values are first met."""

    def __missing__(self, value) -> int:
        number = self[value] = len(self)
        return number


class _Spool:
    """Numbers written to a temporary file as they come, copied into the index at the end: memory
    does not grow with the number of names."""

    def __init__(self, typecode: str):
        import tempfile
        self.typecode = typecode
        self.file = tempfile.TemporaryFile()
        self.count = 0

    def extend(self, values) -> None:
        if not (isinstance(values, array) and values.typecode == self.typecode):
            values = array(self.typecode, values)
        values.tofile(self.file)
        self.count += len(values)

    def write(self, raw: bytes, count: int) -> None:
        """Append ``count`` numbers already laid out as this spool's bytes."""
        self.file.write(raw)
        self.count += count

    def blocks(self, size: int = 1 << 20):
        """The bytes written, in blocks of ``size`` (a multiple of 8), closing the file at the end."""
        self.file.seek(0)
        while block := self.file.read(size):
            yield block
        self.file.close()


class _Table:
    """A string table being written: UTF-8 text and end offsets, each into a spool file."""

    def __init__(self, name: str):
        self.name = name
        self.text = _Spool("B")
        self.ends = _Spool("q")
        self.size = 0

    def add(self, strings) -> None:
        """Append ``strings`` (text)."""
        encoded = list(map(str.encode, strings))   # (UTF-8)
        if encoded:
            ends = array("q", accumulate(map(len, encoded), initial=self.size))
            del ends[0]   # the running start, already there
            self.size = ends[-1]
            self.ends.extend(ends)
            self.text.file.write(b"".join(encoded))


class _Writer:
    """Sections appended to the file after room for the header, which is written last."""

    HEADER_ROOM = 8192

    def __init__(self, fh):
        self.fh = fh
        import hashlib
        self.sections: dict[str, list] = {}
        self.hash = hashlib.blake2b(digest_size=20)
        fh.write(b"\0" * self.HEADER_ROOM)
        self.position = self.HEADER_ROOM

    def _section(self, name: str, typecode: str, blocks) -> int:
        """Write a section from its blocks of bytes, 8-byte aligned; return where it starts."""
        pad = -self.position % 8
        self.fh.write(b"\0" * pad)
        self.position += pad
        start = self.position
        for block in blocks:
            self.fh.write(block)
            self.hash.update(block)
            self.position += len(block)
        self.sections[name] = [start, self.position - start, typecode]
        return start

    def array(self, name: str, values: array) -> None:
        self._section(name, values.typecode, [memoryview(values).cast("B")])

    def spool(self, name: str, values: _Spool) -> None:
        self._section(name, values.typecode, values.blocks())

    def table(self, name: str) -> _Table:
        return _Table(name)

    def finish_table(self, table: _Table) -> None:
        """The text, then the absolute offsets of its strings (n + 1 of them)."""
        start = self._section(table.name + "_text", "B", table.text.blocks())

        def offsets():
            yield array("q", [start]).tobytes()
            for block in table.ends.blocks():
                ends = array("q")
                ends.frombytes(block)
                yield array("q", [start + end for end in ends]).tobytes()

        self._section(table.name + "_offsets", "q", offsets())

    def buckets(self, name: str, groups) -> None:
        """(shape, ids, the ids' strings one per line), in shape order."""
        shapes, starts, ids, held = array("q"), array("i", [0]), _Spool("i"), array("i")
        text = _Table(name + "_text")
        lines = []
        for shape, members, strings in groups:
            shapes.append(shape)
            held.extend(members)
            starts.append(ids.count + len(held))
            lines.append(strings)
            if len(lines) >= 1024 or len(held) >= CHUNK:   # (what is held stays small, however large the groups)
                text.add(lines)
                lines.clear()
                ids.extend(held)
                held = array("i")
        text.add(lines)
        ids.extend(held)
        self.array(name + "s", shapes)
        self.array(name + "_starts", starts)
        self.spool(name + "_ids", ids)
        self.finish_table(text)

    def close(self, extra: dict) -> str:
        header = json.dumps({"format": FORMAT, "sections": self.sections, **extra}).encode("utf-8")
        if len(MAGIC) + 4 + len(header) > self.HEADER_ROOM:
            raise ValueError("name index header too large")
        self.hash.update(header)
        self.fh.seek(0)
        self.fh.write(MAGIC + struct.pack("<I", len(header)) + header)
        self.fh.seek(0, os.SEEK_END)
        return self.hash.hexdigest()
