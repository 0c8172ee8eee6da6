"""Every page carries a strict Content-Security-Policy and the other protective headers,
and no template has inline JavaScript the policy would block."""

import re
import secrets
from pathlib import Path

import pytest

from tests.tournaments.test_foundation import PRODUCTION_ENV, run_manage

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


@pytest.mark.django_db
def test_a_page_sends_a_content_security_policy_without_inline_script(client):
    response = client.get("/")

    assert response.status_code == 200
    policy = dict(
        part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";")
    )
    assert policy["script-src"] == "'self'"
    assert policy["style-src"] == "'self'"
    assert policy["default-src"] == "'self'"
    assert policy["object-src"] == "'none'"
    assert policy["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in response["Content-Security-Policy"]
    assert "unsafe-eval" not in response["Content-Security-Policy"]
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["X-Frame-Options"] == "DENY"


@pytest.mark.django_db
def test_the_login_page_sends_the_same_headers(client):
    response = client.get("/accounts/login/")

    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert response["X-Frame-Options"] == "DENY"


def test_no_template_has_inline_script_handlers_or_style_attributes():
    offenders = []
    for path in TEMPLATES.rglob("*.*"):
        text = path.read_text()
        for match in re.finditer(r"<script(?![^>]*\bsrc=)[^>]*>", text):
            offenders.append(f"{path.name}: {match.group(0)}")
        for match in re.finditer(r"\son[a-z]+\s*=", text):
            offenders.append(f"{path.name}: {match.group(0)}")
        for match in re.finditer(r"\sstyle\s*=", text):
            offenders.append(f"{path.name}: {match.group(0)}")

    assert offenders == []


def test_production_refuses_to_start_with_debug_on_for_a_public_host():
    env = {**PRODUCTION_ENV, "DEBUG": "1", "SECRET_KEY": secrets.token_urlsafe(50)}

    result = run_manage("check", env=env)

    assert result.returncode != 0
    assert "DEBUG is on while ALLOWED_HOSTS names a public host (tenbou.example.org)" in (
        result.stderr
    )


@pytest.mark.slow
def test_debug_on_a_local_host_still_starts():
    env = {"DEBUG": "1", "ALLOWED_HOSTS": "localhost,127.0.0.1"}

    result = run_manage("check", env=env)

    assert result.returncode == 0, result.stderr
