"""The skeleton every later feature stands on: pages render, settings come from the
environment, and a production configuration passes Django's deployment checks."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse

from tests.conftest import ORGANISER_PASSWORD

PROJECT_DIR = Path(__file__).resolve().parents[2]

PRODUCTION_ENV = {
    "DEBUG": "0",
    "ALLOWED_HOSTS": "tenbou.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://tenbou.example.org",
    "SECURE_PROXY_SSL_HEADER": "1",
    "EMAIL_HOST": "smtp.example.org",
}


# Variables the settings read, besides those of the prefixes below.
SETTINGS_READ = frozenset(
    {
        "DEBUG",
        "SECRET_KEY",
        "ALLOWED_HOSTS",
        "DATABASE_URL",
        "TIME_ZONE",
        "CONN_MAX_AGE",
        "TENBOU_PERF",
    }
)


def _clean_env(env: dict[str, str]) -> dict[str, str]:
    """The current environment without anything that settings read, plus `env`."""
    kept = {
        key: value
        for key, value in os.environ.items()
        if key not in SETTINGS_READ
        and key != "DJANGO_ALLOW_ASYNC_UNSAFE"  # set for browser tests; check --deploy warns
        and not key.startswith(("SECURE_", "SESSION_", "CSRF_", "EMAIL_"))
    }
    return {**kept, "DJANGO_SETTINGS_MODULE": "config.settings", **env}


def run_manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    """Run manage.py in a fresh interpreter, so that settings are read from `env` alone."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=PROJECT_DIR,
        env=_clean_env(env),
        capture_output=True,
        text=True,
        timeout=120,
    )


def read_setting(expression: str, *, env: dict[str, str]) -> str:
    """Evaluate `expression` over django.conf.settings in a fresh interpreter."""
    code = f"from django.conf import settings; print({expression})"
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=PROJECT_DIR,
        env=_clean_env(env),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.mark.django_db
def test_home_page_renders_with_the_app_name(client):
    response = client.get(reverse("tournaments:home"))

    assert response.status_code == 200
    assert "Tenbou" in response.content.decode()
    assert 'name="viewport"' in response.content.decode()


@pytest.mark.django_db
def test_home_page_offers_a_login_link_to_a_stranger(client):
    response = client.get("/")

    assert reverse("login") in response.content.decode()


@pytest.mark.django_db
def test_home_page_offers_a_logout_button_to_an_organiser(organiser_client):
    response = organiser_client.get("/")

    assert response.status_code == 200
    assert "Log out" in response.content.decode()
    assert "Olive" in response.content.decode()


@pytest.mark.django_db
def test_login_page_renders_a_form(client):
    response = client.get(reverse("login"))

    assert response.status_code == 200
    assert 'name="username"' in response.content.decode()
    assert 'name="password"' in response.content.decode()


@pytest.mark.django_db
def test_an_organiser_can_log_in_and_out(client, organiser):
    response = client.post(
        reverse("login"), {"username": "organiser", "password": ORGANISER_PASSWORD}
    )
    assert response.status_code == 302
    assert response.url == reverse("tournaments:home")
    assert client.session.get("_auth_user_id") == str(organiser.pk)

    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_a_wrong_password_shows_an_error_and_logs_nobody_in(client, organiser):
    response = client.post(reverse("login"), {"username": "organiser", "password": "nope"})

    assert response.status_code == 200
    assert "errors" in response.content.decode()
    assert "_auth_user_id" not in client.session


@pytest.mark.slow
@pytest.mark.django_db
def test_demo_command_creates_the_organiser_once(django_user_model, capsys):
    call_command("demo", "--force")
    call_command("demo", "--force")

    user = django_user_model.objects.get(username="organiser")
    assert django_user_model.objects.filter(username="organiser").count() == 1
    assert user.check_password("tenbou-demo")
    assert not user.is_superuser
    assert "organiser / tenbou-demo" in capsys.readouterr().out


def test_the_test_database_follows_database_url():
    engine = settings.DATABASES["default"]["ENGINE"]
    if os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        assert engine == "django.db.backends.postgresql"
    elif not os.environ.get("DATABASE_URL"):
        assert engine == "django.db.backends.sqlite3"


def test_an_empty_database_url_is_the_sqlite_default():
    engine = read_setting("settings.DATABASES['default']['ENGINE']", env={"DATABASE_URL": " "})
    assert engine == "django.db.backends.sqlite3"


def test_settings_read_database_url():
    env = {"DATABASE_URL": "postgres://tenbou:secret@db.internal:6543/clubs"}

    database = read_setting(
        "' '.join(str(settings.DATABASES['default'][key]) "
        "for key in ('ENGINE', 'NAME', 'HOST', 'PORT', 'USER'))",
        env=env,
    )

    assert database.split() == [
        "django.db.backends.postgresql",
        "clubs",
        "db.internal",
        "6543",
        "tenbou",
    ]


def test_settings_default_to_sqlite_beside_manage_py():
    name = read_setting("settings.DATABASES['default']['NAME']", env={})

    assert name == str(PROJECT_DIR / "db.sqlite3")


def test_settings_read_hosts_and_time_zone_from_the_environment():
    env = {
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "a.example, b.example",
        "TIME_ZONE": "Asia/Tokyo",
        "EMAIL_HOST": "smtp.example.org",
    }

    assert read_setting("settings.ALLOWED_HOSTS", env=env) == "['a.example', 'b.example']"
    assert read_setting("settings.TIME_ZONE", env=env) == "Asia/Tokyo"


def test_production_keeps_database_connections_open_between_requests():
    env = {**PRODUCTION_ENV, "SECRET_KEY": secrets.token_urlsafe(50)}
    expression = "settings.DATABASES['default']['CONN_MAX_AGE']"

    assert read_setting(expression, env=env) == "60"
    assert read_setting(expression, env={**env, "CONN_MAX_AGE": "0"}) == "0"
    assert read_setting(expression, env={"DEBUG": "1"}) == "0"


@pytest.mark.slow
def test_production_settings_pass_the_deployment_checks():
    env = {**PRODUCTION_ENV, "SECRET_KEY": secrets.token_urlsafe(50)}

    result = run_manage("check", "--deploy", "--fail-level", "WARNING", env=env)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    result = run_manage("check", env=PRODUCTION_ENV)

    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_production_refuses_the_development_secret_key():
    env = {**PRODUCTION_ENV, "SECRET_KEY": settings.DEV_SECRET_KEY}

    result = run_manage("check", env=env)

    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


@pytest.mark.django_db
def test_refusals_and_missing_pages_use_the_sites_own_pages(client, settings):
    settings.DEBUG = False
    missing = client.get("/events/no-such-event/")
    assert missing.status_code == 404
    assert "Not found" in missing.content.decode()
    assert "Back to the events" in missing.content.decode()
