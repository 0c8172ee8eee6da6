"""Hostile input from the second audit: each request is refused with a message, costs
little, and leaves the database as it was."""

from __future__ import annotations

import datetime
import gzip
import time
import tracemalloc

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from scoring.errors import ScoringError
from tenhou import convert
from tenhou.limits import MAX_BATCH_GZIP_MEMBERS, Budget, gunzip
from tournaments.models import Event, Game, PendingImport

from .test_upload_limits import run_measured

MEGABYTE = 1024 * 1024
XML_REFUSAL = "not a Tenhou log: XML with a document type or entities"


def xml_bomb(padding: int) -> bytes:
    """Billion laughs, its DOCTYPE after a comment of `padding` spaces: a check of the
    file's head alone does not see it."""
    entities = b'<!ENTITY lol0 "lol">' + b"".join(
        b"<!ENTITY lol%d \"%s\">" % (n, b"&lol%d;" % (n - 1) * 10) for n in range(1, 10)
    )
    return (
        b'<?xml version="1.0"?><!--'
        + b" " * padding
        + b"-->\n<!DOCTYPE mjloggm ["
        + entities
        + b']><mjloggm ver="2.3"><GO type="169"/>&lol9;</mjloggm>'
    )


# 1. XML entities anywhere in the document


def test_an_xml_bomb_with_its_doctype_5_mb_in_is_refused_with_little_memory():
    data = xml_bomb(5 * MEGABYTE)
    tracemalloc.start()
    try:
        with pytest.raises(ScoringError) as refused:
            convert(data, name="laughs.xml")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert str(refused.value) == XML_REFUSAL
    # The file itself is 5 MB; the billion laughs would be gigabytes.
    assert peak < 40 * MEGABYTE, peak


def test_an_xml_bomb_in_gzip_is_refused_by_the_import_page_with_a_small_peak(tmp_path):
    path = tmp_path / "laughs.xml.gz"
    path.write_bytes(gzip.compress(xml_bomb(5 * MEGABYTE)))
    assert path.stat().st_size < 20 * 1024
    result = run_measured(
        f"""
        import datetime, django
        django.setup()
        from django.core.management import call_command
        from django.contrib.auth import get_user_model
        from django.test import Client
        from django.test.utils import setup_test_environment
        from tournaments.models import Event, Game, PendingImport
        setup_test_environment()
        call_command("migrate", verbosity=0)
        event = Event.objects.create(
            name="Online", slug="online", starts_on=datetime.date(2026, 1, 1),
            rules_preset="tenhou",
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
    assert result["status"] == 200
    assert "laughs.xml.gz" in result["page"]
    assert XML_REFUSAL in result["page"]
    assert result["games"] == 0
    assert result["cpu"] < 2.0, result
    # Python, Django and the 5 MB document; the entities would take gigabytes.
    assert result["peak_mb"] < 200, result


def test_an_entity_declared_late_without_a_doctype_at_the_head_is_refused():
    data = b"<mjloggm>" + b"<GO/>" * 2000 + b"</mjloggm>"
    data = b'<!DOCTYPE m SYSTEM "file:///etc/passwd">' + data
    with pytest.raises(ScoringError, match=XML_REFUSAL):
        convert(data, name="external.xml")


def test_a_real_mjlog_still_converts():
    from pathlib import Path

    sample = Path("tests/data/tenhou/2019021004gm-00a9-0000-e2f6516d.xml")
    assert convert(sample.read_bytes(), name=sample.name).log_id == sample.stem


# 13. The files of one upload share one budget of gzip members and inflated bytes


def test_the_files_of_one_upload_share_one_count_of_gzip_members():
    budget = Budget()
    two = gzip.compress(b"{}") * 2
    for _ in range(MAX_BATCH_GZIP_MEMBERS // 2):
        assert gunzip(two, budget=budget) == b"{}{}"
    with pytest.raises(ScoringError) as refused:
        gunzip(two, budget=budget)
    assert str(refused.value) == (
        "not read: the files of this upload hold more than 60 gzip parts in all; upload "
        "fewer files at a time"
    )


def test_a_file_refused_for_its_size_still_spends_the_budget():
    budget = Budget()
    bomb = gzip.compress(bytes(21 * MEGABYTE))
    with pytest.raises(ScoringError, match="larger than 20 MB once decompressed"):
        gunzip(bomb, budget=budget)
    with pytest.raises(ScoringError) as refused:
        gunzip(gzip.compress(b"{}"), budget=budget)
    assert str(refused.value) == (
        "not read: the files of this upload come to more than 20 MB once decompressed; "
        "upload fewer files at a time"
    )


@pytest.mark.django_db
def test_sixty_gzip_bombs_in_one_upload_cost_a_fraction_of_a_second(client, organiser):
    event = Event.objects.create(
        name="Online", slug="online", starts_on=datetime.date(2026, 1, 1), rules_preset="tenhou"
    )
    event.organisers.add(organiser)
    client.force_login(organiser)
    bomb = gzip.compress(b" " * (21 * MEGABYTE), compresslevel=9)
    assert len(bomb) < 30 * 1024
    files = [SimpleUploadedFile(f"bomb-{n:02d}.json.gz", bomb) for n in range(60)]
    cpu = time.process_time()
    response = client.post(
        "/events/online/import/",
        {"files": files, "session": "0", "new_session_date": "2026-02-01"},
        follow=True,
    )
    cpu = time.process_time() - cpu
    assert response.status_code == 200
    page = response.content.decode()
    assert "bomb-00.json.gz" in page and "bomb-59.json.gz" in page
    assert "upload fewer files at a time" in page
    # Each of the sixty inflated to 20 MB took 5.3 s in all before the shared budget.
    assert cpu < 1.5, cpu
    assert Game.objects.count() == 0
    pending = PendingImport.objects.get(user=organiser)
    assert [log["game"] for log in pending.logs] == [None] * 60
