"""Organisers manage their co-organisers and players' logins themselves; people change and
reset their passwords; sign-up is closed unless the site opens it."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.conftest import ORGANISER_PASSWORD
from tests.tournaments.test_foundation import read_setting
from tournaments.models import Event, Invitation, Player

pytestmark = pytest.mark.django_db


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def text(response) -> str:
    return response.content.decode()


@pytest.fixture
def helper(django_user_model):
    return django_user_model.objects.create_user(
        username="helper", email="Helper@Example.org", password="helper-long-password"
    )


# Co-organisers


def accept_all(user) -> None:
    own = Client()
    own.force_login(user)
    for invitation in Invitation.objects.filter(user=user):
        response = own.post(reverse("invitation_answer", args=[invitation.pk]), {"accept": "1"})
        assert response.status_code == 302


def test_an_organiser_invites_a_co_organiser_by_exact_username_who_accepts(
    organiser_client, event, helper
):
    response = organiser_client.post(url("event_organisers", "thursday"), {"who": "helper"})

    assert response.status_code == 302
    # Invited, not yet an organiser.
    assert list(event.organisers.values_list("username", flat=True)) == ["organiser"]
    page = text(organiser_client.get(url("event_organisers", "thursday")))
    assert "If an account has the username or email “helper”, it is invited to organise" in page
    own = Client()
    own.force_login(helper)
    invitations = text(own.get(reverse("invitations")))
    assert "organiser invites you to organise <strong>Thursday League</strong>." in invitations
    accept_all(helper)
    assert set(event.organisers.values_list("username", flat=True)) == {"organiser", "helper"}
    assert not Invitation.objects.exists()


def test_an_invited_organiser_who_declines_is_not_added(organiser_client, event, helper):
    organiser_client.post(url("event_organisers", "thursday"), {"who": "helper"})
    own = Client()
    own.force_login(helper)
    invitation = Invitation.objects.get(user=helper)

    response = own.post(reverse("invitation_answer", args=[invitation.pk]), {"decline": "1"})

    assert response.status_code == 302
    assert list(event.organisers.values_list("username", flat=True)) == ["organiser"]
    assert not Invitation.objects.exists()


def test_an_invitation_is_accepted_only_by_the_invited_account(
    organiser_client, event, helper, stranger_client, stranger
):
    organiser_client.post(url("event_organisers", "thursday"), {"who": "helper"})
    invitation = Invitation.objects.get(user=helper)

    response = stranger_client.post(
        reverse("invitation_answer", args=[invitation.pk]), {"accept": "1"}
    )

    assert response.status_code == 302
    assert not event.organisers.filter(pk=stranger.pk).exists()
    assert not event.organisers.filter(pk=helper.pk).exists()
    assert Invitation.objects.filter(pk=invitation.pk).exists()


def test_an_organiser_invites_a_co_organiser_by_email_in_any_case(organiser_client, event, helper):
    organiser_client.post(url("event_organisers", "thursday"), {"who": "helper@example.ORG"})

    accept_all(helper)
    assert event.organisers.filter(pk=helper.pk).exists()


@pytest.mark.parametrize("who", ["help", "Helper", "nobody@example.org", "organiser", "helper"])
def test_the_organiser_form_answers_the_same_whether_an_account_exists_or_not(
    organiser_client, event, helper, who
):
    response = organiser_client.post(url("event_organisers", "thursday"), {"who": who}, follow=True)

    assert response.status_code == 200
    page = text(response)
    assert (
        f"If an account has the username or email “{who}”, it is invited to organise "
        "Thursday League: they become an organiser when they accept on their invitations page."
    ) in page
    assert "No account" not in page and "already" not in page
    assert event.organisers.count() == 1
    assert Invitation.objects.filter(user=helper).exists() == (who == "helper")


def test_an_empty_name_is_refused(organiser_client, event):
    response = organiser_client.post(url("event_organisers", "thursday"), {"who": ""})

    assert response.status_code == 200
    assert "This field is required." in text(response)
    assert not Invitation.objects.exists()


def test_an_organiser_removes_a_co_organiser(organiser_client, event, helper):
    event.organisers.add(helper)

    response = organiser_client.post(url("organiser_remove", "thursday", helper.pk))

    assert response.status_code == 302
    assert list(event.organisers.values_list("username", flat=True)) == ["organiser"]


def test_a_stranger_can_neither_add_nor_remove_organisers(stranger_client, event, organiser):
    added = stranger_client.post(url("event_organisers", "thursday"), {"who": "stranger"})
    removed = stranger_client.post(url("organiser_remove", "thursday", organiser.pk))

    assert added.status_code == 403 and removed.status_code == 403
    assert list(event.organisers.all()) == [organiser]


def test_no_page_lists_every_account(organiser_client, event, helper):
    for address in (url("event_create"), url("event_edit", "thursday")):
        page = text(organiser_client.get(address))
        assert "helper" not in page and "Helper@Example.org" not in page
    page = text(organiser_client.get(url("event_organisers", "thursday")))
    assert "helper" not in page


def test_a_private_and_a_public_events_taken_address_get_one_message(stranger_client, organiser):
    for slug, public in (("open-cup", True), ("hidden-cup", False)):
        Event.objects.create(name=slug, slug=slug, starts_on="2026-01-01", is_public=public)
    data = {"name": "Mine", "kind": "league", "starts_on": "2026-02-01", "rules_preset": "ema"}

    public = text(stranger_client.post(url("event_create"), {**data, "slug": "open-cup"}))
    private = text(stranger_client.post(url("event_create"), {**data, "slug": "hidden-cup"}))

    assert "The address “open-cup” is not available. Choose another" in public
    assert "The address “hidden-cup” is not available. Choose another" in private
    assert Event.objects.count() == 2


# Passwords


def test_a_user_changes_their_password(organiser_client, organiser):
    response = organiser_client.post(
        reverse("password_change"),
        {
            "old_password": ORGANISER_PASSWORD,
            "new_password1": "a-brand-new-passphrase",
            "new_password2": "a-brand-new-passphrase",
        },
    )

    assert response.status_code == 302 and response.url == reverse("password_change_done")
    organiser.refresh_from_db()
    assert organiser.check_password("a-brand-new-passphrase")


def test_a_wrong_old_password_changes_nothing(organiser_client, organiser):
    response = organiser_client.post(
        reverse("password_change"),
        {"old_password": "wrong", "new_password1": "x-long-1234", "new_password2": "x-long-1234"},
    )

    assert response.status_code == 200
    assert "Your old password was entered incorrectly" in text(response)
    organiser.refresh_from_db()
    assert organiser.check_password(ORGANISER_PASSWORD)


def test_a_forgotten_password_is_reset_through_a_link_sent_by_email(client, helper):
    response = client.post(reverse("password_reset"), {"email": "helper@example.org"})

    assert response.status_code == 302
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["Helper@example.org"]
    assert "helper" in message.body
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", message.body).group(1)
    form = client.get(link, follow=True)
    assert "Choose a new password" in text(form)
    response = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "reset-passphrase-99", "new_password2": "reset-passphrase-99"},
    )
    assert response.status_code == 302
    helper.refresh_from_db()
    assert helper.check_password("reset-passphrase-99")


def test_a_reset_for_an_unknown_email_sends_nothing_and_says_the_same(client):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.org"}, follow=True)

    assert "If an account uses that address" in text(response)
    assert mail.outbox == []


def test_email_goes_to_the_console_unless_an_smtp_host_is_set():
    assert read_setting("settings.EMAIL_BACKEND", env={}).endswith("console.EmailBackend")
    smtp = {"EMAIL_HOST": "smtp.example.org", "EMAIL_PORT": "587"}
    assert read_setting("settings.EMAIL_BACKEND", env=smtp).endswith("smtp.EmailBackend")
    assert read_setting("settings.EMAIL_USE_TLS", env=smtp) == "True"


# Sign-up


def test_sign_up_is_closed_by_default(client):
    response = client.post(
        reverse("signup"),
        {"username": "newbie", "password1": "newbie-pass-123", "password2": "newbie-pass-123"},
    )

    assert response.status_code == 404
    assert not get_user_model().objects.filter(username="newbie").exists()
    assert reverse("signup") not in text(client.get(reverse("login")))


def test_sign_up_works_when_the_site_opens_it(client, settings):
    settings.OPEN_SIGNUP = True

    assert reverse("signup") in text(client.get(reverse("login")))
    response = client.post(
        reverse("signup"),
        {"username": "newbie", "password1": "newbie-pass-123", "password2": "newbie-pass-123"},
    )

    assert response.status_code == 302
    user = get_user_model().objects.get(username="newbie")
    assert not user.is_staff and not user.is_superuser
    assert client.session["_auth_user_id"] == str(user.pk)


# A player's login and "my games"


def test_an_organiser_links_a_player_to_a_login_the_account_accepts_and_my_games_shows_it(
    organiser_client, game, helper
):
    aki = Player.objects.get(display_name="Aki")
    assert url("player_link", aki.pk) in text(organiser_client.get(url("player", aki.pk)))

    response = organiser_client.post(url("player_link", aki.pk), {"who": "helper"})

    assert response.status_code == 302
    aki.refresh_from_db()
    assert aki.user is None
    own = Client()
    own.force_login(helper)
    assert "asks to link your login to the player <strong>Aki</strong>" in text(
        own.get(reverse("invitations"))
    )
    accept_all(helper)
    aki.refresh_from_db()
    assert aki.user == helper
    assert "My games" in text(own.get("/"))
    response = own.get(reverse("my_games"))
    assert response.status_code == 302 and response.url == url("player", aki.pk)


def test_an_organiser_links_a_player_to_their_own_login_at_once(organiser_client, game, organiser):
    aki = Player.objects.get(display_name="Aki")

    response = organiser_client.post(url("player_link", aki.pk), {"who": "organiser"})

    assert response.status_code == 302
    aki.refresh_from_db()
    assert aki.user == organiser
    assert not Invitation.objects.exists()


def test_my_games_without_a_linked_player_says_what_to_do(stranger_client):
    response = stranger_client.get(reverse("my_games"))

    assert response.status_code == 200
    assert "Your login is not linked to a player yet" in text(response)


@pytest.mark.parametrize("who", ["helper", "nobody", "Helper@example.org", "no@example.org"])
def test_the_link_form_answers_the_same_whether_an_account_exists_or_not(
    organiser_client, game, helper, who
):
    aki, ben = Player.objects.get(display_name="Aki"), Player.objects.get(display_name="Ben")
    aki.user = helper
    aki.save()

    response = organiser_client.post(url("player_link", ben.pk), {"who": who}, follow=True)

    page = text(response)
    assert (
        f"If an account has the username or email “{who}”, it is asked to accept the link "
        "to Ben on its invitations page."
    ) in page
    assert "already linked" not in page and "linked to the player" not in page
    ben.refresh_from_db()
    assert ben.user is None


def test_a_login_linked_to_one_player_cannot_accept_another(organiser_client, game, helper):
    aki, ben = Player.objects.get(display_name="Aki"), Player.objects.get(display_name="Ben")
    organiser_client.post(url("player_link", ben.pk), {"who": "helper"})
    aki.user = helper
    aki.save()
    own = Client()
    own.force_login(helper)
    invitation = Invitation.objects.get(user=helper)

    response = own.post(
        reverse("invitation_answer", args=[invitation.pk]), {"accept": "1"}, follow=True
    )

    assert "Your login is linked to another player: unlink it there first." in text(response)
    ben.refresh_from_db()
    assert ben.user is None


def test_a_stranger_cannot_link_a_player_to_their_own_login(stranger_client, game, stranger):
    aki = Player.objects.get(display_name="Aki")

    response = stranger_client.post(url("player_link", aki.pk), {"who": "stranger"})

    assert response.status_code == 403
    aki.refresh_from_db()
    assert aki.user is None
