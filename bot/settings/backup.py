"""Where `wayfinder db backup PATH` may write: the checks run before any byte is copied."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from bot.i18n import Note
from bot.settings.store import SettingsError


def check_backup_target(target: Path | str, live: Path | str | None = None, *, force: bool = False) -> Path:
    """The target, if a backup may be written there; else SettingsError with one clear line.

    Refused: the live database itself (even with ``force``), a folder, a folder that does not
    exist, a place that cannot be written, and an existing file unless ``force``.
    """
    target = Path(target)
    if live is not None and _same_file(target, Path(live)):
        raise SettingsError(Note("{target} is the live settings database: name another file for the backup", target=target))
    if target.is_dir():
        raise SettingsError(Note("{target} is a folder: name a file inside it for the backup", target=target))
    folder = target.parent
    if not folder.is_dir():
        raise SettingsError(Note("{target}: the folder {folder} does not exist", target=target, folder=folder))
    if target.exists() or target.is_symlink():
        if not force:
            raise SettingsError(Note("{target} already exists: add --force to replace it", target=target))
        if not os.access(target, os.W_OK):
            raise SettingsError(Note("{target} cannot be written (permission denied)", target=target))
    try:   # what the backup will do first: create a file beside the target
        probe = tempfile.NamedTemporaryFile(dir=folder, prefix=f".{target.name}.", suffix=".probe")
    except OSError as exc:
        raise SettingsError(Note("{target} cannot be written: {error}", target=target, error=exc.strerror or exc)) from exc
    probe.close()
    return target


def _same_file(a: Path, b: Path) -> bool:
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
    except OSError:
        pass
    return a.resolve(strict=False) == b.resolve(strict=False)
