"""Which format a log is in, and the one entry point that reads either."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scoring.errors import ScoringError, gettext_noop

from .game import TenhouGame
from .json_log import from_json, load_json
from .limits import MAX_LOG_BYTES, Budget, gunzip, read_capped, too_large
from .mjlog import from_xml, load_xml


def convert(
    data: bytes | str, *, name: str = "", rules: Any = None, budget: Budget | None = None
) -> TenhouGame:
    """Convert one Tenhou log (JSON or mjlog XML, gzip or not) into a tenbou-game/1 record.

    `name` (a file name or URL) supplies the log id when the log itself has none. `rules`
    (a preset name, or preset and overrides), when given, are the record's rules: those of
    the event the game is imported into, which a log that names no platform needs.
    `budget`, shared by the files of one upload, bounds what they inflate together.

    >>> convert(b"garbage")
    Traceback (most recent call last):
    ...
    scoring.errors.ScoringError: not a Tenhou log: neither JSON nor XML
    """
    if len(data) > MAX_LOG_BYTES:
        raise too_large()
    if isinstance(data, bytes) and data[:2] == b"\x1f\x8b":
        # In a stream with a cap: a small file may inflate to gigabytes.
        data = gunzip(data, budget=budget)
    if isinstance(data, str):
        data = data.lstrip("\ufeff")
    head = data.lstrip()[:200]
    if isinstance(head, bytes):
        head = head.removeprefix(b"\xef\xbb\xbf").lstrip().decode("latin-1")
    if not head:
        raise ScoringError(gettext_noop("not a Tenhou log: it is empty"))
    if head[0] not in "{<":
        raise ScoringError(gettext_noop("not a Tenhou log: neither JSON nor XML"))
    try:
        if head.startswith("{"):
            return from_json(load_json(data), name, rules)
        return from_xml(load_xml(data), name, rules)
    except ScoringError:
        raise
    except (ArithmeticError, AttributeError, KeyError, IndexError, TypeError, ValueError) as err:
        # A log with the right outline but odd content somewhere: still the organiser's
        # file to fix, not a crash.
        raise ScoringError(
            gettext_noop("unreadable Tenhou log (%(kind)s: %(error)s)"),
            kind=type(err).__name__,
            error=str(err),
        ) from None


def convert_file(path: str | Path, *, rules: Any = None) -> TenhouGame:
    """Read a Tenhou log file (`.json`, `.xml`, or either gzip-compressed) and convert it.

    >>> convert_file("tests/data/tenhou/2019021004gm-00a9-0000-e2f6516d.xml").log_id
    '2019021004gm-00a9-0000-e2f6516d'
    """
    path = Path(path)
    with open(path, "rb") as handle:
        return convert(read_capped(handle), name=path.name, rules=rules)
