"""Fixtures shared by every test folder. Keep them small; folder-specific ones live beside
the tests that use them."""

import pytest

ORGANISER_PASSWORD = "a-long-test-password"


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_user(
        username="organiser", password=ORGANISER_PASSWORD, first_name="Olive"
    )


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client
