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

import json
import logging
import mmap
import os
import sqlite3
import struct
import time
from array import array
from pathlib import Path

log = logging.getLogger(__name__)

KIND_RANK = {"card": 0, "token": 1, "playtest": 2, "art": 3}
FORMAT = 1
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
                             sections["word_shape_ids"], sections["word_shape_text"])
        self._key_shapes = (sections["key_shapes"], sections["key_shape_starts"],
                            sections["key_shape_ids"], sections["key_shape_text"])
        self.oracle_ids = _Column(self.cards, self.card_ids)
        self.langs = _Column(self.lang_ids, self.lang_codes)
        self.english_name = _ByOracleId(self)
        self.build_seconds = 0.0

    def __len__(self) -> int:
        return len(self.cards)

    # -- building ----------------------------------------------------------------------------

    @classmethod
    def from_rows(cls, rows, cards: dict[str, tuple[str, str]]) -> "NameIndex":
        """rows: (oracle_id, lang, name, face, folded, prints); cards: oracle_id → (name, kind)."""
        data = build(sorted((r for r in rows if r[4] and r[0] in cards), key=lambda r: r[4]),
                     sorted((o, name, kind) for o, (name, kind) in cards.items()))
        return cls(data, digest_of(data))

    @classmethod
    def from_catalog(cls, catalog) -> "NameIndex":
        with catalog._lock:
            data = build_from_connection(catalog.con)
        return cls(data, digest_of(data))

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

def digest_of(data) -> str:
    import hashlib   # when building only
    return hashlib.blake2b(data, digest_size=20).hexdigest()


def recorded_digest(catalog) -> str | None:
    """The digest of the index built from this catalog's names, as the importer recorded it."""
    try:
        rows = catalog.query("SELECT value FROM meta WHERE key = ?", (META_KEY,))
    except sqlite3.DatabaseError:
        return None
    return rows[0][0] if rows else None


def build_from_connection(con: sqlite3.Connection) -> bytes:
    cards = con.execute("SELECT oracle_id, name, kind FROM cards ORDER BY oracle_id").fetchall()
    rows = con.execute(
        "SELECT n.oracle_id, n.lang, n.name, n.face, n.folded, n.prints FROM names n"
        " JOIN cards c USING (oracle_id) WHERE n.folded != ''"
        " ORDER BY n.folded, n.oracle_id, n.lang, n.name")
    return build(rows, cards)


def write_index(con: sqlite3.Connection, catalog_path: Path) -> str:
    """Build the index of ``con``'s names into the file named by its digest, beside
    ``catalog_path``, and record the digest in ``con`` (the catalog being written)."""
    data = build_from_connection(con)
    digest = digest_of(data)
    path = NameIndex.file_path(catalog_path, digest)
    if not path.exists():
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    con.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (META_KEY, digest))
    return digest


def remove_other_indexes(catalog_path: Path, keep: str | None) -> None:
    """Index files of earlier contents go once the catalog no longer names them (a process that
    still has one mapped keeps reading it until it closes)."""
    catalog_path = Path(catalog_path)
    wanted = NameIndex.file_path(catalog_path, keep).name if keep else None
    for path in catalog_path.parent.glob(catalog_path.name + ".names*"):
        if path.name != wanted:
            path.unlink(missing_ok=True)


def build(rows, cards) -> bytes:
    """rows: (oracle_id, lang, name, face, folded, prints), sorted by folded;
    cards: (oracle_id, English name, kind), sorted by oracle id."""
    card_number = {}
    card_ids, card_names, card_kinds = _Table(), _Table(), array("b")
    for number, (oracle_id, name, kind) in enumerate(cards):
        card_number[oracle_id] = number
        card_ids.add(oracle_id)
        card_names.add(name)
        card_kinds.append(KIND_RANK.get(kind, 3))
    lang_codes: dict[str, int] = {}
    entry_cards, entry_langs, kinds, prints, faces = array("i"), array("b"), array("b"), array("i"), array("b")
    names, keys = _Table(), _Table()
    spaceless: list[str] = []
    word_entries: dict[str, array] = {}
    key_shapes: dict[int, array] = {}
    for entry, (oracle_id, lang, name, face, key, printed) in enumerate(rows):
        number = card_number[oracle_id]
        entry_cards.append(number)
        entry_langs.append(lang_codes.setdefault(lang, len(lang_codes)))
        kinds.append(card_kinds[number])
        prints.append(printed or 1)
        faces.append(face)
        names.add(name)
        keys.add(key)
        bare = key.replace(" ", "")
        spaceless.append(bare)
        for word in key.split():
            bucket = word_entries.get(word)
            if bucket is None:
                word_entries[word] = array("i", [entry])
            elif bucket[-1] != entry:
                bucket.append(entry)
        for shape in (_shape(len(bare), bare[0]), _shape(len(bare), bare[-1], last=True)):
            bucket = key_shapes.get(shape)
            if bucket is None:
                key_shapes[shape] = array("i", [entry])
            else:
                bucket.append(entry)
    order = sorted(range(len(spaceless)), key=spaceless.__getitem__)
    spaceless_table = _Table()
    for entry in order:
        spaceless_table.add(spaceless[entry])
    words = sorted(word_entries)
    word_table, posting_ids, posting_starts = _Table(), array("i"), array("i", [0])
    word_shapes: dict[int, array] = {}
    for word_id, word in enumerate(words):
        word_table.add(word)
        posting_ids.extend(word_entries.pop(word))
        posting_starts.append(len(posting_ids))
        for letter in {word[0], word[1:2]}:
            word_shapes.setdefault(_shape(len(word), letter), array("i")).append(word_id)
    out = _Writer()
    out.section("cards", entry_cards)
    out.section("langs", entry_langs)
    out.section("kinds", kinds)
    out.section("prints", prints)
    out.section("faces", faces)
    out.strings("card_id", card_ids)
    out.strings("card_name", card_names)
    out.strings("name", names)
    out.strings("key", keys)
    out.strings("spaceless", spaceless_table)
    out.section("spaceless_ids", array("i", order))
    out.strings("word", word_table)
    out.section("posting_ids", posting_ids)
    out.section("posting_starts", posting_starts)
    out.buckets("word_shape", word_shapes, words)
    out.buckets("key_shape", key_shapes, spaceless)
    return out.finish({"langs": list(lang_codes)})


class _Table:
    """Strings appended as UTF-8 into one buffer, with their end positions."""

    def __init__(self):
        self.data = bytearray()
        self.ends = array("q")

    def add(self, text: str) -> None:
        self.data += text.encode("utf-8")
        self.ends.append(len(self.data))


class _Writer:
    def __init__(self):
        self.parts: list[tuple[str, str, bytes]] = []
        self.size = 0
        self.pending_offsets: list[tuple[str, str, object]] = []

    def section(self, name: str, values, typecode: str | None = None) -> None:
        typecode = typecode or getattr(values, "typecode", "B")
        self.parts.append((name, typecode, values))

    def strings(self, name: str, table: _Table) -> None:
        """A string table: its text, then its offsets (absolute once the layout is known)."""
        self.parts.append((name + "_text", "B", table.data))
        self.parts.append((name + "_offsets", "rel:" + name + "_text", table.ends))

    def buckets(self, name: str, groups: dict[int, array], strings) -> None:
        """Shape → ids, and the ids' strings one per line, each group's text stored together."""
        shapes = array("q", sorted(groups))
        starts, ids, text, ends = array("i", [0]), array("i"), bytearray(), array("q")
        for shape in shapes:
            members = groups[shape]
            ids.extend(members)
            starts.append(len(ids))
            text += "\n".join(strings[i] for i in members).encode("utf-8")
            ends.append(len(text))
        self.section(name + "s", shapes)
        self.section(name + "_starts", starts)
        self.section(name + "_ids", ids)
        self.parts.append((name + "_body", "B", text))
        self.parts.append((name + "_text", "rel:" + name + "_body", ends))

    def finish(self, extra: dict) -> bytes:
        # lay the sections out after a header of fixed size, then fill in the offsets
        sizes = {}
        for name, typecode, values in self.parts:
            itemsize = 8 if typecode.startswith("rel:") else array(typecode).itemsize if typecode != "B" else 1
            count = len(values) + (1 if typecode.startswith("rel:") else 0)
            sizes[name] = count * itemsize
        sections = {}
        header_room = 4096 + 64 * len(self.parts)
        position = len(MAGIC) + 4 + header_room
        for name, typecode, _ in self.parts:
            position = (position + 7) & ~7
            sections[name] = [position, sizes[name], "q" if typecode.startswith("rel:") else typecode]
            position += sizes[name]
        header = json.dumps({"format": FORMAT, "sections": sections, **extra}).encode("utf-8")
        if len(header) > header_room:
            raise ValueError("name index header too large")
        out = bytearray(MAGIC + struct.pack("<I", len(header)) + header)
        for name, typecode, values in self.parts:
            out += b"\0" * (sections[name][0] - len(out))
            if typecode.startswith("rel:"):
                base = sections[typecode[4:]][0]
                absolute = array("q", [base])
                absolute.extend(base + end for end in values)
                out += absolute.tobytes()
            elif isinstance(values, (bytes, bytearray)):
                out += values
            else:
                out += values.tobytes()
        return bytes(out)
