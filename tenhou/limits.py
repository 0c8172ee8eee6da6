"""Bounds on what one log may cost to read, whatever the file claims.

A 1.5 MB gzip file can inflate to 1.5 GB. Logs are therefore inflated in a stream that
stops as soon as the output passes `MAX_LOG_BYTES`, a gzip file may hold only a few
members (and the files of one upload only so many together), JSON may nest only so deep,
and XML may not declare entities (see `mjlog`). A long Tenhou log is under 100 kB, so
each limit is far above any real game.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass, field
from itertools import accumulate

from scoring.errors import ScoringError, gettext_noop

MAX_LOG_BYTES = 20 * 1024 * 1024  # a log after decompression
MAX_GZIP_MEMBERS = 8
# What one upload of many files may inflate in all: 60 long logs, one gzip member each,
# come to about 6 MB. Without it, 60 files of 20 MB each cost seconds of a worker.
MAX_BATCH_GZIP_MEMBERS = 60
MAX_BATCH_BYTES = MAX_LOG_BYTES
MAX_JSON_DEPTH = 64  # a Tenhou JSON log nests 5 deep
_STEP = 256 * 1024  # compressed bytes handed to zlib at a time


def _megabytes(size: int) -> str:
    if size >= 1024 * 1024:
        return f"{size // (1024 * 1024)} MB"
    return f"{size // 1024} kB"


def too_large(size: int = MAX_LOG_BYTES) -> ScoringError:
    return ScoringError(
        gettext_noop(
            "not a Tenhou log: it is larger than %(size)s once decompressed, far more than any"
            " game log (a long one is under 100 kB)"
        ),
        size=_megabytes(size),
    )


@dataclass
class Budget:
    """What the logs of one upload may still cost together: gzip members and bytes
    inflated. `gunzip` spends it; one budget is shared by every file of the upload.

    >>> import gzip
    >>> budget = Budget(members=1)
    >>> gunzip(gzip.compress(b"{}"), budget=budget)
    b'{}'
    >>> gunzip(gzip.compress(b"{}"), budget=budget)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scoring.errors.ScoringError: not read: the files of this upload hold more than 1 gzip ...
    """

    members: int = MAX_BATCH_GZIP_MEMBERS
    inflated: int = MAX_BATCH_BYTES
    _members_limit: int = field(default=0, init=False, repr=False)
    _inflated_limit: int = field(default=0, init=False, repr=False)

    def __post_init__(self) -> None:
        self._members_limit, self._inflated_limit = self.members, self.inflated

    def spend_member(self) -> None:
        if self.members <= 0:
            raise ScoringError(
                gettext_noop(
                    "not read: the files of this upload hold more than %(members)s gzip "
                    "parts in all; upload fewer files at a time"
                ),
                members=self._members_limit,
            )
        self.members -= 1

    def refusal(self) -> ScoringError:
        return ScoringError(
            gettext_noop(
                "not read: the files of this upload come to more than %(size)s once "
                "decompressed; upload fewer files at a time"
            ),
            size=_megabytes(self._inflated_limit),
        )


def gunzip(data: bytes, *, limit: int = MAX_LOG_BYTES, budget: Budget | None = None) -> bytes:
    """Inflate gzip `data`, refusing output over `limit` bytes before it is all made.

    >>> import gzip
    >>> gunzip(gzip.compress(b"{}"))
    b'{}'
    >>> gunzip(gzip.compress(bytes(5000)), limit=4096)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scoring.errors.ScoringError: not a Tenhou log: it is larger than 4 kB once decompressed, ...
    """
    out = bytearray()
    # The budget left, when it is tighter than the file's own limit, caps the output too.
    capped_by_budget = budget is not None and budget.inflated < limit
    if budget is not None:
        if budget.inflated <= 0:
            raise budget.refusal()
        limit = min(limit, budget.inflated)
    try:
        _inflate(data, out, limit, budget)
    except _TooLarge:
        raise budget.refusal() if capped_by_budget else too_large(limit) from None
    finally:
        if budget is not None:
            # A refused file spent what it inflated too.
            budget.inflated -= len(out)
    return bytes(out)


class _TooLarge(Exception):
    pass


def _inflate(data: bytes, out: bytearray, limit: int, budget: Budget | None) -> None:
    rest = memoryview(data)
    members = 0
    while rest:
        if bytes(rest[:2]) != b"\x1f\x8b":
            if not bytes(rest).strip(b"\x00"):
                break  # zero padding after the last member, as some tools write
            raise ScoringError(gettext_noop("not a Tenhou log: broken gzip data"))
        members += 1
        if members > MAX_GZIP_MEMBERS:
            raise ScoringError(
                gettext_noop("not a Tenhou log: a gzip file of more than %(most)s parts"),
                most=MAX_GZIP_MEMBERS,
            )
        if budget is not None:
            budget.spend_member()
        inflater = zlib.decompressobj(wbits=31)
        position = 0
        pending = b""
        while True:
            if not pending:
                pending = bytes(rest[position : position + _STEP])
                position += len(pending)
                if not pending:
                    raise ScoringError(gettext_noop("truncated log: the gzip data ends early"))
            try:
                piece = inflater.decompress(pending, limit + 1 - len(out))
            except zlib.error:
                raise ScoringError(gettext_noop("not a Tenhou log: broken gzip data")) from None
            out += piece
            if len(out) > limit:
                raise _TooLarge
            if inflater.eof:
                # What follows this member: the next member, padding, or nothing.
                rest = memoryview(inflater.unused_data + bytes(rest[position:]))
                break
            pending = inflater.unconsumed_tail


def check_json_depth(text: str | bytes, *, limit: int = MAX_JSON_DEPTH) -> None:
    """Refuse JSON nested deeper than `limit` before the parser recurses into it.

    >>> check_json_depth('{"log": [[1, "[[[\\"["]]}')
    >>> check_json_depth("[" * 100 + "]" * 100)
    Traceback (most recent call last):
    ...
    scoring.errors.ScoringError: not a Tenhou log: the JSON is nested more than 64 deep
    """
    if isinstance(text, str):
        text = text.encode("utf-8", "surrogatepass")
    # Strings may hold brackets; without them, the running count of opening minus closing
    # brackets is the depth. Both steps run in C, so a 20 MB log is checked in a blink.
    brackets = _STRING.sub(b"", text).translate(None, _NOT_BRACKET)
    if max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0) > limit:
        raise ScoringError(
            gettext_noop("not a Tenhou log: the JSON is nested more than %(most)s deep"), most=limit
        )


_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")
_DEPTH_STEP = [1 if chr(b) in "[{" else -1 if chr(b) in "]}" else 0 for b in range(256)]


def read_capped(handle, *, limit: int = MAX_LOG_BYTES) -> bytes:
    """Read a file, refusing one larger than `limit` without reading all of it."""
    data = handle.read(limit + 1)
    if len(data) > limit:
        raise too_large(limit)
    return data
