"""Password guessing: a few failed logins lock the account or the address for a while."""

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model

from tests.conftest import ORGANISER_PASSWORD

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"


def try_login(client, username, password, address="203.0.113.7"):
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address)


def test_five_wrong_passwords_lock_the_account_even_for_the_right_password(client, organiser):
    for _ in range(5):
        response = try_login(client, "organiser", "guess")
        assert response.status_code in (200, 429)

    response = try_login(client, "organiser", ORGANISER_PASSWORD)

    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many failed logins" in page
    assert "Try again in 15 minutes" in page
    assert "_auth_user_id" not in client.session


def test_the_lock_on_an_account_holds_from_another_address(client, organiser):
    for number in range(5):
        try_login(client, "organiser", "guess", address=f"198.51.100.{number}")

    response = try_login(client, "organiser", ORGANISER_PASSWORD, address="192.0.2.99")

    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_one_address_guessing_many_accounts_is_locked_out(client, organiser):
    for number in range(5):
        try_login(client, f"someone{number}", "guess")

    response = try_login(client, "organiser", ORGANISER_PASSWORD)

    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_four_failures_then_the_right_password_logs_in(client, organiser):
    for _ in range(4):
        try_login(client, "organiser", "guess")

    response = try_login(client, "organiser", ORGANISER_PASSWORD)

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(organiser.pk)


def test_a_superuser_unlocks_an_account_in_the_admin(client, organiser):
    for _ in range(6):
        try_login(client, "organiser", "guess")
    assert try_login(client, "organiser", ORGANISER_PASSWORD).status_code == 429
    admin = get_user_model().objects.create_superuser("root", password="another-long-password")
    client.force_login(admin)
    attempts = list(AccessAttempt.objects.filter(username="organiser"))
    assert attempts

    for attempt in attempts:
        page = client.get(f"/admin/axes/accessattempt/{attempt.pk}/delete/")
        assert page.status_code == 200
        response = client.post(f"/admin/axes/accessattempt/{attempt.pk}/delete/", {"post": "yes"})
        assert response.status_code == 302
    client.logout()

    assert not AccessAttempt.objects.filter(username="organiser").exists()
    response = try_login(client, "organiser", ORGANISER_PASSWORD)
    assert response.status_code == 302
