"""Password guessing: a few failed logins lock that account from that address for a while;
nobody else is locked out."""

import datetime

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
    assert "Too many failed logins for this account from this address" in page
    assert "Try again in 10 minutes" in page
    assert "_auth_user_id" not in client.session


def test_a_lock_on_an_account_from_one_address_lets_the_account_in_from_another(client, organiser):
    for _ in range(6):
        try_login(client, "organiser", "guess", address="198.51.100.1")
    assert try_login(client, "organiser", ORGANISER_PASSWORD, "198.51.100.1").status_code == 429

    response = try_login(client, "organiser", ORGANISER_PASSWORD, address="192.0.2.99")

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(organiser.pk)


def test_one_players_typos_behind_a_shared_address_lock_out_no_other_account(client, organiser):
    for _ in range(8):
        try_login(client, "player-at-the-venue", "typo")

    response = try_login(client, "organiser", ORGANISER_PASSWORD)

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(organiser.pk)


def test_tries_during_the_lock_do_not_start_the_wait_again(client, organiser):
    for _ in range(5):
        try_login(client, "organiser", "guess")
    locked_at = AccessAttempt.objects.get(username="organiser").attempt_time
    # Someone keeps trying while locked out: the wait still ends when it would have.
    for _ in range(5):
        assert try_login(client, "organiser", "guess").status_code == 429
    attempt = AccessAttempt.objects.get(username="organiser")
    assert attempt.attempt_time == locked_at
    assert attempt.failures_since_start == 5
    AccessAttempt.objects.update(attempt_time=locked_at - datetime.timedelta(minutes=10, seconds=1))

    response = try_login(client, "organiser", ORGANISER_PASSWORD)

    assert response.status_code == 302


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
