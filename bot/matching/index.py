"""The in-memory index of every printed name: exact keys, sorted keys for prefixes, words.

Built from the catalog (names are stored there already folded) and cached beside it in a
pickle, so that start-up loads it instead of building it. Entries live in parallel columns;
an entry id is a position in them.
"""
from __future__ import annotations

import os
import pickle
import sys
import time
from array import array
from bisect import bisect_left
from dataclasses import dataclass, field
from pathlib import Path

KIND_RANK = {"card": 0, "token": 1, "playtest": 2, "art": 3}
CACHE_VERSION = 5


@dataclass
class NameIndex:
    oracle_ids: list[str] = field(default_factory=list)
    langs: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)       # folded names
    kinds: array = field(default_factory=lambda: array("b"))
    prints: array = field(default_factory=lambda: array("i"))
    faces: array = field(default_factory=lambda: array("b"))
    sorted_keys: list[str] = field(default_factory=list)      # folded names, sorted
    sorted_ids: array = field(default_factory=lambda: array("i"))
    spaceless_keys: list[str] = field(default_factory=list)   # the same without spaces, sorted
    spaceless_ids: array = field(default_factory=lambda: array("i"))
    words: list[str] = field(default_factory=list)            # sorted vocabulary
    posting_ids: array = field(default_factory=lambda: array("i"))     # entry ids, word by word
    posting_starts: array = field(default_factory=lambda: array("i"))  # word id → offset
    # (length, letter) → (ids, strings): the candidates for typo search, ready for rapidfuzz
    words_by_shape: dict[tuple, tuple[array, list[str]]] = field(default_factory=dict)
    keys_by_shape: dict[tuple, tuple[array, list[str]]] = field(default_factory=dict)
    english_name: dict[str, str] = field(default_factory=dict)
    build_seconds: float = 0.0

    # -- building ----------------------------------------------------------------------------

    @classmethod
    def from_rows(cls, rows, cards: dict[str, tuple[str, str]]) -> "NameIndex":
        """rows: (oracle_id, lang, name, face, folded, prints); cards: oracle_id → (name, kind)."""
        started = time.perf_counter()
        index = cls()
        rows = [r for r in rows if r[4] and r[0] in cards]
        if rows:
            oracle_ids, langs, names, faces, keys, prints = (list(col) for col in zip(*rows))
        else:
            oracle_ids, langs, names, faces, keys, prints = [], [], [], [], [], []
        index.oracle_ids = [sys.intern(o) for o in oracle_ids]
        index.langs = [sys.intern(lang) for lang in langs]
        index.names, index.keys = names, keys
        index.faces = array("b", faces)
        index.prints = array("i", prints)
        index.kinds = array("b", (KIND_RANK.get(cards[o][1], 3) for o in index.oracle_ids))
        index.english_name = {o: cards[o][0] for o in set(index.oracle_ids)}

        word_entries: dict[str, list[int]] = {}
        key_shapes: dict[tuple, list[int]] = {}
        spaceless_keys = [key.replace(" ", "") for key in keys]
        for entry, key in enumerate(keys):
            spaceless = spaceless_keys[entry]
            for word in key.split():
                bucket = word_entries.get(word)
                if bucket is None:
                    word_entries[word] = [entry]
                elif bucket[-1] != entry:
                    bucket.append(entry)
            n = len(spaceless)
            key_shapes.setdefault((n, spaceless[0]), []).append(entry)
            key_shapes.setdefault((n, "$" + spaceless[-1]), []).append(entry)
        order = sorted(range(len(keys)), key=keys.__getitem__)
        index.sorted_keys = [keys[i] for i in order]
        index.sorted_ids = array("i", order)
        order = sorted(range(len(keys)), key=spaceless_keys.__getitem__)
        index.spaceless_keys = [spaceless_keys[i] for i in order]
        index.spaceless_ids = array("i", order)
        index.words = sorted(word_entries)
        starts = array("i", [0])
        flat = array("i")
        for word in index.words:
            flat.extend(word_entries[word])
            starts.append(len(flat))
        index.posting_ids, index.posting_starts = flat, starts
        word_shapes: dict[tuple, list[int]] = {}
        for word_id, word in enumerate(index.words):
            for letter in {word[0], word[1:2]}:
                word_shapes.setdefault((len(word), letter), []).append(word_id)
        index.words_by_shape = {k: (array("i", v), [index.words[i] for i in v])
                                for k, v in word_shapes.items()}
        index.keys_by_shape = {k: (array("i", v), [spaceless_keys[i] for i in v])
                               for k, v in key_shapes.items()}
        index.build_seconds = time.perf_counter() - started
        return index

    @classmethod
    def from_catalog(cls, catalog) -> "NameIndex":
        cards = {o: (name, kind) for o, name, kind in catalog.query("SELECT oracle_id, name, kind FROM cards")}
        rows = catalog.query("SELECT oracle_id, lang, name, face, folded, prints FROM names")
        return cls.from_rows(rows, cards)

    # -- the cache beside the catalog --------------------------------------------------------

    @staticmethod
    def cache_path(catalog_path: Path) -> Path:
        return Path(str(catalog_path) + ".names.pickle")

    @staticmethod
    def _stamp(catalog_path: Path) -> tuple:
        st = os.stat(catalog_path)
        return (CACHE_VERSION, st.st_size, st.st_mtime_ns)

    @classmethod
    def load(cls, catalog) -> "NameIndex":
        """The cached index if it matches the catalog file, else a fresh build (then cached)."""
        path = cls.cache_path(catalog.path)
        started = time.perf_counter()
        try:
            with open(path, "rb") as fh:
                stamp, index = pickle.load(fh)
            if stamp == cls._stamp(catalog.path) and isinstance(index, cls):
                index.build_seconds = time.perf_counter() - started
                return index
        except (OSError, pickle.UnpicklingError, EOFError, ValueError, AttributeError, TypeError):
            pass
        index = cls.from_catalog(catalog)
        index.save(catalog.path)
        return index

    def save(self, catalog_path: Path) -> None:
        path = self.cache_path(catalog_path)
        tmp = path.with_suffix(".tmp")
        try:
            with open(tmp, "wb") as fh:
                pickle.dump((self._stamp(catalog_path), self), fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except OSError:
            tmp.unlink(missing_ok=True)  # a read-only place: the index is rebuilt next time

    # -- look-ups ----------------------------------------------------------------------------

    def exact_ids(self, key: str) -> list[int]:
        """Entries whose folded name is ``key``, or is ``key`` once spaces are ignored."""
        out = []
        for keys, ids in ((self.sorted_keys, self.sorted_ids), (self.spaceless_keys, self.spaceless_ids)):
            pos = bisect_left(keys, key)
            while pos < len(keys) and keys[pos] == key:
                if ids[pos] not in out:
                    out.append(ids[pos])
                pos += 1
            key = key.replace(" ", "")
        return out

    def postings(self, word_id: int) -> array:
        return self.posting_ids[self.posting_starts[word_id]:self.posting_starts[word_id + 1]]

    def postings_size(self, word_id: int) -> int:
        return self.posting_starts[word_id + 1] - self.posting_starts[word_id]

    def prefix_ids(self, prefix: str, limit: int) -> list[int]:
        """Entries whose folded name starts with ``prefix`` (at most ``limit``), in key order."""
        return _starting_with(self.sorted_keys, self.sorted_ids, prefix, limit)

    def spaceless_prefix_ids(self, prefix: str, limit: int) -> list[int]:
        """The same, with the spaces of the names ignored."""
        return _starting_with(self.spaceless_keys, self.spaceless_ids, prefix, limit)

    def word_range(self, prefix: str) -> range:
        """Vocabulary word ids starting with ``prefix``."""
        start = bisect_left(self.words, prefix)
        end = bisect_left(self.words, prefix + "\U0010ffff", lo=start)
        return range(start, end)

    def word_id(self, word: str) -> int | None:
        pos = bisect_left(self.words, word)
        return pos if pos < len(self.words) and self.words[pos] == word else None

    def similar_shape_words(self, word: str, spread: int = 2):
        """(word ids, words) buckets: about the same length, sharing the first or second letter."""
        for length in range(max(1, len(word) - spread), len(word) + spread + 1):
            for letter in {word[0], word[1:2]}:
                bucket = self.words_by_shape.get((length, letter))
                if bucket:
                    yield bucket

    def similar_shape_keys(self, spaceless: str, spread: int = 2):
        """(entry ids, spaceless names) buckets: about the same length, same first or last letter."""
        for length in range(max(1, len(spaceless) - spread), len(spaceless) + spread + 1):
            for shape in ((length, spaceless[0]), (length, "$" + spaceless[-1])):
                bucket = self.keys_by_shape.get(shape)
                if bucket:
                    yield bucket


def _starting_with(keys: list[str], ids: array, prefix: str, limit: int) -> list[int]:
    start = bisect_left(keys, prefix)
    out = []
    for pos in range(start, min(start + limit, len(keys))):
        if not keys[pos].startswith(prefix):
            break
        out.append(ids[pos])
    return out
