"""The importer's reports as the command line writes them, in the operator's language: the kind
of file, its counts (numbers as the language writes them) and what was skipped."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from bot.i18n import Messages, Note, said

if TYPE_CHECKING:
    from bot.catalog.build import ImportReport

# everything an import report counts (ImportReport.counts keys, kept in the catalog's imports
# table) → its message, singular and plural: the one list of them (a report refuses any other)
COUNTS = {
    "card objects": ("{count} card object", "{count} card objects"),
    "cards": ("{count} card", "{count} cards"),
    "duplicates folded": ("{count} duplicate folded", "{count} duplicates folded"),
    "examples": ("{count} example", "{count} examples"),
    "files skipped": ("{count} file skipped", "{count} files skipped"),
    "glossary entries": ("{count} glossary entry", "{count} glossary entries"),
    "names": ("{count} name", "{count} names"),
    "objects in other languages": ("{count} object in other languages", "{count} objects in other languages"),
    "oracle cards": ("{count} oracle card", "{count} oracle cards"),
    "printed names": ("{count} printed name", "{count} printed names"),
    "rules": ("{count} rule", "{count} rules"),
    "rules quoted": ("{count} rule quoted", "{count} rules quoted"),
    "rulings": ("{count} ruling", "{count} rulings"),
}


def counts_text(counts: dict[str, int], msg: Messages) -> str:
    """"1,234 rulings, 2 duplicates folded", in ``msg``'s language (a count no longer made, read
    from a catalog an older version wrote, is written with its name as it was kept)."""
    parts = []
    for what, count in sorted(counts.items()):
        forms = COUNTS.get(what)
        parts.append(Note(*forms, count=count).localized(msg) if forms else f"{msg.number(count)} {what}")
    return ", ".join(parts)


def summary_text(report: ImportReport, msg: Messages) -> str:
    """One file's line: what it brought in, or why none of it was imported."""
    kind, name = msg._(report.kind), Path(report.path).name
    if report.skipped:
        return msg._("{kind} {file}: skipped, nothing imported — {reason}", kind=kind, file=name,
                     reason=said(report.skipped, msg))
    if report.counts:
        line = msg._("{kind} {file}: {counts}", kind=kind, file=name, counts=counts_text(report.counts, msg))
    else:
        line = msg._("{kind} {file}: nothing", kind=kind, file=name)
    if not report.warnings:
        return line
    skipped = Note("{count} skipped (the first: {warning})", "{count} skipped (the first: {warning})",
                   count=len(report.warnings), warning=report.warnings[0])
    return msg._("{summary}; {skipped}", summary=line, skipped=skipped.localized(msg))

