"""Which format a log is in, and the one entry point that reads either."""

from __future__ import annotations

from pathlib import Path

from scoring.errors import ScoringError

from .game import TenhouGame
from .json_log import from_json, load_json
from .limits import MAX_LOG_BYTES, Budget, gunzip, read_capped, too_large
from .mjlog import from_xml, load_xml


def convert(data: bytes | str, *, name: str = "", budget: Budget | None = None) -> TenhouGame:
    """Convert one Tenhou log (JSON or mjlog XML, gzip or not) into a tenbou-game/1 record.

    `name` (a file name or URL) supplies the log id when the log itself has none.
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
        raise ScoringError("not a Tenhou log: it is empty")
    if head[0] not in "{<":
        raise ScoringError("not a Tenhou log: neither JSON nor XML")
    try:
        if head.startswith("{"):
            return from_json(load_json(data), name)
        return from_xml(load_xml(data), name)
    except ScoringError:
        raise
    except (ArithmeticError, AttributeError, KeyError, IndexError, TypeError, ValueError) as err:
        # A log with the right outline but odd content somewhere: still the organiser's
        # file to fix, not a crash.
        raise ScoringError(f"unreadable Tenhou log ({type(err).__name__}: {err})") from None


def convert_file(path: str | Path) -> TenhouGame:
    """Read a Tenhou log file (`.json`, `.xml`, or either gzip-compressed) and convert it.

    >>> convert_file("tests/data/tenhou/2019021004gm-00a9-0000-e2f6516d.xml").log_id
    '2019021004gm-00a9-0000-e2f6516d'
    """
    path = Path(path)
    with open(path, "rb") as handle:
        return convert(read_capped(handle), name=path.name)
