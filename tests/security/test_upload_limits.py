"""A gzip bomb, deep JSON and XML entities are refused quickly and cheaply, with a message
naming the file, by the converter's command line, `manage.py import_logs` and the import
page. Time and peak memory are measured in a fresh process, where nothing else counts
(Linux: the peak is the process's VmHWM)."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import textwrap
import zlib
from pathlib import Path

import pytest

from scoring.errors import ScoringError
from tenhou import convert
from tenhou.limits import MAX_LOG_BYTES, gunzip

PROJECT_DIR = Path(__file__).resolve().parents[2]
CHUNK = 16 * 1024 * 1024
CHUNKS = 96  # 1.5 GiB in all
MEGABYTE = 1024 * 1024
REFUSAL = "not a Tenhou log: it is larger than 20 MB once decompressed"


def gzip_bomb() -> bytes:
    """A valid gzip file of about 1.5 MB that inflates to 1.5 GiB of JSON-looking zeros.

    One 16 MiB block of zeros is deflated once with a full flush, which makes it
    independent of what came before, and repeated: the file is built in a blink instead of
    compressing 1.5 GiB."""
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03"
    deflater = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = deflater.compress(bytes(CHUNK)) + deflater.flush(zlib.Z_FULL_FLUSH)
    end = deflater.flush(zlib.Z_FINISH)
    crc = 0
    zeros = bytes(CHUNK)
    for _ in range(CHUNKS):
        crc = zlib.crc32(zeros, crc)
    trailer = struct.pack("<II", crc, (CHUNK * CHUNKS) & 0xFFFFFFFF)
    return header + block * CHUNKS + end + trailer


@pytest.fixture(scope="module")
def bomb(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("bomb") / "2026-bomb.json.gz"
    path.write_bytes(gzip_bomb())
    return path


def run_measured(code: str, *, env: dict | None = None) -> dict:
    """Run `code` in a fresh Python; it leaves its result in `result`. Returns that with
    the processor seconds the measured part took and the process's peak memory."""
    script = (
        textwrap.dedent(
            """
        import json, sys, time
        result = {}
        """
        )
        + textwrap.dedent(code)
        + textwrap.dedent(
            """
        # The kernel's high-water mark of this process's own memory. (getrusage's ru_maxrss
        # would carry over the parent's peak through fork and exec: the test runner's.)
        with open("/proc/self/status") as status:
            hwm = next(line for line in status if line.startswith("VmHWM:"))
        result["peak_mb"] = int(hwm.split()[1]) / 1024
        print("RESULT " + json.dumps(result))
        """
        )
    )
    completed = subprocess.run(
        [sys.executable, "-c", script],
        cwd=PROJECT_DIR,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **(env or {})},
        capture_output=True,
        text=True,
        timeout=300,
    )
    lines = [line for line in completed.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, completed.stdout + completed.stderr
    return json.loads(lines[-1].removeprefix("RESULT "))


def upload_in_a_fresh_process(path, *, rules_preset: str = "ari-ari") -> dict:
    """Post `path` to the import page of a new event, in a Python of its own on an empty
    in-memory database: the status, the page, the games stored, processor time and peak
    memory of that process alone."""
    return run_measured(
        f"""
        import datetime, django
        django.setup()
        from django.core.management import call_command
        from django.contrib.auth import get_user_model
        from django.test import Client
        from django.test.utils import setup_test_environment
        from tournaments.models import Event, Game
        setup_test_environment()
        call_command("migrate", verbosity=0)
        event = Event.objects.create(
            name="Online", slug="online", starts_on=datetime.date(2026, 1, 1),
            rules_preset={rules_preset!r},
        )
        user = get_user_model().objects.create_user("organiser")
        event.organisers.add(user)
        client = Client()
        client.force_login(user)
        cpu = time.process_time()
        with open({str(path)!r}, "rb") as upload:
            response = client.post(
                "/events/online/import/",
                {{"files": [upload], "session": "0", "new_session_date": "2026-02-01"}},
                follow=True,
            )
        result["cpu"] = time.process_time() - cpu
        result["status"] = response.status_code
        result["page"] = response.content.decode()
        result["games"] = Game.objects.count()
        """,
        env={"DATABASE_URL": "sqlite://:memory:"},
    )


def test_the_bomb_is_small_and_inflates_to_one_and_a_half_gigabytes(bomb):
    data = bomb.read_bytes()

    assert 1.4 * MEGABYTE < len(data) < 2 * MEGABYTE  # under the 2 MB upload limit
    assert struct.unpack("<I", data[-4:])[0] == (CHUNK * CHUNKS) & 0xFFFFFFFF
    # The first 64 MiB really come out of it (stopping there, like the reader).
    inflater = zlib.decompressobj(wbits=31)
    assert len(inflater.decompress(data, 64 * MEGABYTE)) == 64 * MEGABYTE


def test_the_converter_command_refuses_the_bomb_within_a_second_and_200_mb(bomb):
    result = run_measured(
        f"""
        import contextlib, io
        from tenhou.__main__ import main
        errors = io.StringIO()
        cpu = time.process_time()
        with contextlib.redirect_stderr(errors):
            result["status"] = main(["convert", {str(bomb)!r}])
        result["cpu"] = time.process_time() - cpu
        result["stderr"] = errors.getvalue()
        """
    )

    assert result["status"] == 2
    assert result["stderr"].startswith(f"error: {bomb}: {REFUSAL}")
    # Processor time, not the wall clock: a shared machine's load must not fail the test,
    # while inflating the bomb would cost many seconds of processor time.
    assert result["cpu"] < 1.0, result
    assert result["peak_mb"] < 200, result


@pytest.mark.slow
def test_import_logs_refuses_the_bomb_within_a_second_and_200_mb(bomb):
    result = run_measured(
        f"""
        import datetime, io, django
        django.setup()
        from django.core.management import call_command
        from tournaments.models import Event, Game
        call_command("migrate", verbosity=0)
        Event.objects.create(name="Online", slug="online", starts_on=datetime.date(2026, 1, 1))
        out = io.StringIO()
        cpu = time.process_time()
        try:
            call_command("import_logs", "online", "1", {str(bomb)!r}, stdout=out)
        except SystemExit as exit:
            result["status"] = exit.code
        result["cpu"] = time.process_time() - cpu
        result["output"] = out.getvalue()
        result["games"] = Game.objects.count()
        """,
        env={"DATABASE_URL": "sqlite://:memory:"},
    )

    assert result["status"] == 1
    assert f"FAILED {bomb}: {REFUSAL}" in result["output"]
    assert result["games"] == 0
    # Processor time, not the wall clock: a shared machine's load must not fail the test,
    # while inflating the bomb would cost many seconds of processor time.
    assert result["cpu"] < 1.0, result
    assert result["peak_mb"] < 200, result


@pytest.mark.slow
def test_the_import_page_refuses_the_bomb_within_a_second_and_200_mb(bomb):
    result = upload_in_a_fresh_process(bomb)

    assert result["status"] == 200
    assert bomb.name in result["page"]
    assert REFUSAL in result["page"]
    assert result["games"] == 0
    # Processor time, not the wall clock: a shared machine's load must not fail the test,
    # while inflating the bomb would cost many seconds of processor time.
    assert result["cpu"] < 1.0, result
    assert result["peak_mb"] < 200, result


def test_deeply_nested_json_is_refused_with_a_message(tmp_path):
    for depth in (100, 100_000):
        data = b'{"log": ' + b"[" * depth + b"]" * depth + b"}"
        with pytest.raises(ScoringError, match="the JSON is nested more than 64 deep"):
            convert(data, name="deep.json")


def test_a_real_log_is_not_too_deep(tmp_path):
    sample = PROJECT_DIR / "tests/data/tenhou/2019103023gm-00a9-0000-f90e0fe9.json"
    assert convert(sample.read_bytes(), name=sample.name).log_id


def test_xml_with_entities_is_refused():
    data = (
        b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 '
        b'"&lol;&lol;&lol;&lol;">]><mjloggm ver="2.3">&lol2;</mjloggm>'
    )
    with pytest.raises(ScoringError, match="XML with a document type or entities"):
        convert(data, name="lolz.xml")


def test_an_uncompressed_log_over_the_limit_is_refused_before_parsing():
    with pytest.raises(ScoringError, match=REFUSAL):
        convert(b"{" + b" " * MAX_LOG_BYTES + b"}", name="huge.json")


def test_a_gzip_file_of_many_members_is_refused():
    import gzip

    data = b"".join(gzip.compress(b"{}") for _ in range(9))
    with pytest.raises(ScoringError, match="a gzip file of more than 8 parts"):
        gunzip(data)
    assert gunzip(b"".join(gzip.compress(b"{}") for _ in range(2))) == b"{}{}"


def test_a_truncated_gzip_file_is_still_called_truncated():
    import gzip

    data = gzip.compress(b'{"log": []}' * 100)
    with pytest.raises(ScoringError, match="truncated log: the gzip data ends early"):
        gunzip(data[: len(data) // 2])
