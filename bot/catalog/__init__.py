"""The card catalog: a SQLite file of cards, printed names, rulings and the Comprehensive Rules.

``build`` writes it (through the importers), ``store`` reads it.
"""
from bot.catalog.errors import DataImportError
from bot.catalog.store import Card, Catalog, Ruling

__all__ = ["Card", "Catalog", "DataImportError", "Ruling"]
