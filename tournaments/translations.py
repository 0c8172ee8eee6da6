"""Compiling the translation catalogues (locale/<language>/LC_MESSAGES/django.po) into the
.mo files Django reads, in pure Python, so that a fresh clone needs no gettext tools to run
or test the app (`make messages`, which extracts new strings, does need them).

A .mo is rebuilt only when its .po is newer; it is written under a temporary name and then
renamed, so processes compiling at the same moment (parallel test workers) never read a
half-written file.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import polib


class CatalogueError(Exception):
    """A .po file that cannot be read."""


def catalogues(locale_dir: Path) -> list[Path]:
    """Every django.po under `locale_dir` (the parts folder is not a catalogue)."""
    return sorted(locale_dir.glob("*/LC_MESSAGES/*.po"))


def compile_catalogue(po_path: Path, *, force: bool = False) -> bool:
    """Writes the .mo beside `po_path`; returns False when it was up to date already."""
    mo_path = po_path.with_suffix(".mo")
    if not force and mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
        return False
    try:
        catalogue = polib.pofile(str(po_path), encoding="utf-8")
    except (OSError, ValueError) as error:
        raise CatalogueError(f"{po_path}: {error}") from error
    # Fuzzy entries are guesses waiting for a translator: like msgfmt, leave them out.
    for entry in catalogue:
        if entry.fuzzy:
            entry.msgstr = ""
            entry.msgstr_plural = {k: "" for k in entry.msgstr_plural}
    descriptor, temporary = tempfile.mkstemp(dir=mo_path.parent, suffix=".mo.tmp")
    os.close(descriptor)
    try:
        catalogue.save_as_mofile(temporary)
        os.replace(temporary, mo_path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return True


def compile_all(locale_dir: Path, *, force: bool = False) -> list[Path]:
    """Compiles every catalogue under `locale_dir`; returns the .po files compiled."""
    return [po for po in catalogues(locale_dir) if compile_catalogue(po, force=force)]
