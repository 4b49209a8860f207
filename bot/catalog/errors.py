"""Errors raised while importing data: they name the file and the position."""
from __future__ import annotations

from bot.i18n import Note, said


def byte_position(raw: bytes, offset: int) -> str:
    """Where ``offset`` is in ``raw``, as a person looks for it: the byte and the line."""
    return Note("byte {offset}, line {line}", offset=offset, line=raw.count(b"\n", 0, offset) + 1)


def not_utf8(path, raw: bytes, offset: int) -> "DataImportError":
    return DataImportError(str(path), Note("byte 0x{byte} is not UTF-8 text", byte=f"{raw[offset]:02x}"),
                           byte_position(raw, offset))


def utf8_text(path, raw: bytes) -> str:
    """``raw`` as UTF-8 text (a byte-order mark dropped); a bad byte is an error naming its place."""
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise not_utf8(path, raw, exc.start) from None


class DataImportError(Exception):
    """A file could not be imported; the catalog was left untouched."""

    def __init__(self, path: str, message: str, position: str | None = None):
        self.path = str(path)
        self.position = position
        self.message = message
        where = f"{self.path} ({position})" if position else self.path
        super().__init__(f"{where}: {message}")

    def localized(self, msg) -> str:
        """The error in ``msg``'s language (a message given as plain text is looked up as it is)."""
        where = f"{self.path} ({said(self.position, msg)})" if self.position else self.path
        return f"{where}: {said(self.message, msg)}"


class CatalogBusy(DataImportError):
    """Another import into the catalog still held it when the wait ended: nothing was imported."""

    def __init__(self, catalog, holder: str, waited: float):
        self.holder = holder    # " (pid N)", or ""
        super().__init__(str(catalog), Note("another import{holder} is still running after {waited} s of waiting;"
                                            " nothing was imported (WAYFINDER_IMPORT_WAIT sets the wait)",
                                            holder=holder, waited=f"{waited:g}"))


class SkippedFile(DataImportError):
    """A file that cannot be used as a whole (a ruling document for no known card, or in no language
    Wayfinder can tell; a Comprehensive Rules file of no known edition): none of it is imported, it is
    said and counted, and the other files import."""
