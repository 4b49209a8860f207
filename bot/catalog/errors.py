"""Errors raised while importing data: they name the file and the position."""
from __future__ import annotations


class DataImportError(Exception):
    """A file could not be imported; the catalog was left untouched."""

    def __init__(self, path: str, message: str, position: str | None = None):
        self.path = str(path)
        self.position = position
        self.message = message
        where = f"{self.path} ({position})" if position else self.path
        super().__init__(f"{where}: {message}")


class SkippedFile(DataImportError):
    """A file that cannot be used as a whole (a ruling document for no known card, or in no language
    Wayfinder can tell; a Comprehensive Rules file of no known edition): none of it is imported, it is
    said and counted, and the other files import."""
