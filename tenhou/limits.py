"""Bounds on what one log may cost to read, whatever the file claims.

A 1.5 MB gzip file can inflate to 1.5 GB. Logs are therefore inflated in a stream that
stops as soon as the output passes `MAX_LOG_BYTES`, a gzip file may hold only a few
members, JSON may nest only so deep, and XML may not declare entities. A long Tenhou log
is under 100 kB, so each limit is far above any real game.
"""

from __future__ import annotations

import re
import zlib
from itertools import accumulate

from scoring.errors import ScoringError, gettext_noop

MAX_LOG_BYTES = 20 * 1024 * 1024  # a log after decompression
MAX_GZIP_MEMBERS = 8
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


def gunzip(data: bytes, *, limit: int = MAX_LOG_BYTES) -> bytes:
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
                raise too_large(limit)
            if inflater.eof:
                # What follows this member: the next member, padding, or nothing.
                rest = memoryview(inflater.unused_data + bytes(rest[position:]))
                break
            pending = inflater.unconsumed_tail
    return bytes(out)


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


def check_xml(data: str | bytes) -> None:
    """Refuse XML that declares a document type or entities: an mjlog has neither, and
    entities can expand a small file into gigabytes."""
    head = data[:4096] if isinstance(data, bytes) else data[:4096].encode("utf-8", "replace")
    if b"<!DOCTYPE" in head.upper() or b"<!ENTITY" in head.upper():
        raise ScoringError(gettext_noop("not a Tenhou log: XML with a document type or entities"))


def read_capped(handle, *, limit: int = MAX_LOG_BYTES) -> bytes:
    """Read a file, refusing one larger than `limit` without reading all of it."""
    data = handle.read(limit + 1)
    if len(data) > limit:
        raise too_large(limit)
    return data
