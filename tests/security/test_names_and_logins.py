"""Findings of the second audit about names, logins, big imports, double edits, the login
lock and password resets, each sent as the hostile request: the status, the message and the
database afterwards."""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path

import pytest
from axes.models import AccessAttempt
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.conftest import ORGANISER_PASSWORD
from tests.tournaments.builders import final_game
from tests.tournaments.test_foundation import PRODUCTION_ENV, run_manage
from tournaments import exchange, services
from tournaments.models import (
    Event,
    Game,
    GameSeat,
    Invitation,
    PasswordResetRequest,
    Player,
    Session,
)

pytestmark = pytest.mark.django_db

LOG = (
    Path(__file__).resolve().parents[1] / "data" / "tenhou" / "2019123123gm-00a9-0000-f4386d0e.json"
)
# The names in LOG, seat by seat.
LOG_NAMES = ["ハス太", "鷺宮慧太", "至宝すぎ", "今更"]


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def text(response) -> str:
    return response.content.decode()


def shown_messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def without_tokens(page: str) -> str:
    return re.sub(r'"csrfmiddlewaretoken" value="[^"]+"|"X-CSRFToken": "[^"]+"', "", page)


def private_event(organiser, names, slug="secret") -> Event:
    """A private event of `organiser` whose only game seats players called `names`, who
    play nowhere else: known to the organiser alone."""
    event = Event.objects.create(
        name="Secret", slug=slug, starts_on=datetime.date(2026, 1, 1), is_public=False
    )
    event.organisers.add(organiser)
    session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 1, 1))
    final_game(session, names, [41300, 24900, 21800, 12000], 1)
    # An EMA number is one player's: 0401 and the last four digits of the player's id (a
    # test database's ids pass 9999 after enough tests have run in it).
    for player in Player.objects.filter(display_name__in=names):
        Player.objects.filter(pk=player.pk).update(
            real_name="Hidden Real Name", ema_number=f"0401{player.pk % 10_000:04d}"
        )
    return event


@pytest.fixture
def hidden(organiser):
    private_event(organiser, ["Secret Sae", "Secret Sho", "Secret Suzu", "Secret Sora"])
    return Player.objects.get(display_name="Secret Sae")


@pytest.fixture
def mine(stranger):
    event = Event.objects.create(
        name="Mine", slug="mine", starts_on=datetime.date(2026, 1, 1), rules_preset="tenhou"
    )
    event.organisers.add(stranger)
    return event


# 2. A name reaches only players the user may know of


def paste(client, names: str, *, create: bool):
    data = {"names": names}
    if create:
        data["create"] = "on"
    return client.post(url("roster_paste", "mine"), data)


def test_a_private_player_pasted_by_name_without_create_is_refused_like_a_free_name(
    stranger_client, hidden, mine
):
    secret = paste(stranger_client, "Secret Sae", create=False)
    free = paste(stranger_client, "Nobody Nori", create=False)

    assert secret.status_code == free.status_code == 400
    expected = (
        "Nobody was added. No player is called {}. Tick “Create players for new names” to "
        "add them, or correct the spelling."
    )
    assert expected.format("Secret Sae") in text(secret)
    assert expected.format("Nobody Nori") in text(free)
    assert without_tokens(text(secret)).replace("Secret Sae", "X") == without_tokens(
        text(free)
    ).replace("Nobody Nori", "X")
    assert not mine.roster.exists()
    assert stranger_client.get(url("player", hidden.pk)).status_code == 404


def test_a_private_player_pasted_by_name_with_create_gives_a_new_player_instead(
    stranger_client, hidden, mine
):
    secret = paste(stranger_client, "Secret Sae", create=True)
    secret_message = shown_messages(stranger_client.get(secret.url))
    free = paste(stranger_client, "Nobody Nori", create=True)
    free_message = shown_messages(stranger_client.get(free.url))

    assert secret.status_code == free.status_code == 302
    # The same sentence: a new player in both cases (the hidden name's holder gets a number).
    assert secret_message == [
        "Added 1 player to the roster; 1 of them new to Tenbou (Secret Sae 2)."
    ]
    assert free_message == ["Added 1 player to the roster; 1 of them new to Tenbou (Nobody Nori)."]
    on_roster = set(mine.roster.values_list("player__display_name", flat=True))
    assert on_roster == {"Secret Sae 2", "Nobody Nori"}
    assert not mine.roster.filter(player=hidden).exists()
    assert stranger_client.get(url("player", hidden.pk)).status_code == 404
    page = text(stranger_client.get(url("roster", "mine")))
    assert "Hidden Real Name" not in page and hidden.ema_number not in page


@pytest.mark.parametrize("name", ["Secret Sae", "secret sae"])
def test_a_new_player_named_like_a_private_player_is_added_under_a_numbered_name(
    stranger_client, hidden, mine, name
):
    data = {"new-display_name": name}
    secret = stranger_client.post(url("roster_new", "mine"), data)
    secret_message = shown_messages(stranger_client.get(secret.url))
    free = stranger_client.post(url("roster_new", "mine"), {"new-display_name": "Nobody Nori"})
    free_message = shown_messages(stranger_client.get(free.url))

    assert secret.status_code == free.status_code == 302
    assert secret_message == [f"{name} 2 is a new player and on the roster."]
    assert free_message == ["Nobody Nori is a new player and on the roster."]
    assert not mine.roster.filter(player=hidden).exists()
    assert stranger_client.get(url("player", hidden.pk)).status_code == 404
    # A name the stranger may know of is refused as before.
    again = stranger_client.post(url("roster_new", "mine"), {"new-display_name": "nobody nori"})
    assert again.status_code == 400
    assert "There is already a player called “Nobody Nori”." in text(again)


def test_a_pasted_name_still_finds_a_player_the_organiser_may_know(organiser_client, hidden, event):
    response = organiser_client.post(url("roster_paste", "thursday"), {"names": "secret sae"})

    assert response.status_code == 302
    assert list(event.roster.values_list("player", flat=True)) == [hidden.pk]


def test_a_log_whose_names_are_private_players_seats_new_players(
    stranger, stranger_client, organiser
):
    private_event(organiser, LOG_NAMES)
    hidden_ids = set(Player.objects.filter(display_name__in=LOG_NAMES).values_list("pk", flat=True))
    mine = Event.objects.create(
        name="Mine", slug="mine", starts_on=datetime.date(2026, 1, 1), rules_preset="tenhou"
    )
    mine.organisers.add(stranger)
    with open(LOG, "rb") as handle:
        upload = stranger_client.post(
            url("import_upload", "mine"),
            {"files": [handle], "session": "0", "new_session_date": "2026-02-01"},
        )
    preview = text(stranger_client.get(upload.url))
    assert "Hidden Real Name" not in preview

    # No choice made for a seat: nobody is matched, as for names nobody has.
    refused = stranger_client.post(upload.url, {"import-0": "on"})
    assert refused.status_code == 200
    assert (
        f"no player is called &#x27;{LOG_NAMES[0]}&#x27;; choose a player or create a new one"
        in text(refused)
    )
    assert not Game.objects.filter(session__event=mine).exists()

    choices = {f"player-0-{seat}": "new" for seat in range(4)}
    response = stranger_client.post(upload.url, {"import-0": "on", **choices})

    assert response.status_code == 302
    seated = GameSeat.objects.filter(game__session__event=mine).order_by("seat")
    assert [s.player.display_name for s in seated] == [f"{name} 2" for name in LOG_NAMES]
    assert not {s.player_id for s in seated} & hidden_ids
    for pk in hidden_ids:
        assert stranger_client.get(url("player", pk)).status_code == 404


def export_of(organiser, names, slug="source") -> dict:
    source = private_event(organiser, names, slug=slug)
    return json.loads(json.dumps(exchange.export_event(source)))


def import_file(client, slug: str, document: dict):
    upload = SimpleUploadedFile(
        "export.json", json.dumps(document).encode(), content_type="application/json"
    )
    return client.post(url("event_import", slug), {"file": upload})


def test_an_event_import_naming_private_players_seats_new_players(
    stranger, stranger_client, organiser, hidden
):
    secret_names = ["Secret Sae", "Secret Sho", "Secret Suzu", "Secret Sora"]
    hidden_ids = set(
        Player.objects.filter(display_name__in=secret_names).values_list("pk", flat=True)
    )
    document = export_of(organiser, ["Free Fay", "Free Fei", "Free Fu", "Free Fo"], "one")
    document["games"][0]["record"]["players"] = secret_names
    free_document = export_of(organiser, ["Free Gia", "Free Gus", "Free Gil", "Free Guy"], "two")
    theirs, other = (
        Event.objects.create(name=name, slug=name.lower(), starts_on=datetime.date(2026, 1, 1))
        for name in ("Mine", "Other")
    )
    theirs.organisers.add(stranger)
    other.organisers.add(stranger)

    secret = import_file(stranger_client, "mine", document)
    secret_message = shown_messages(stranger_client.get(secret.url))
    free = import_file(stranger_client, "other", free_document)
    free_message = shown_messages(stranger_client.get(free.url))

    assert secret.status_code == free.status_code == 302
    assert secret_message == ["Imported 1 game into Mine."]
    assert free_message == ["Imported 1 game into Other."]
    seated = GameSeat.objects.filter(game__session__event=theirs).order_by("seat")
    assert [s.player.display_name for s in seated] == [f"{name} 2" for name in secret_names]
    assert not {s.player_id for s in seated} & hidden_ids
    assert stranger_client.get(url("player", hidden.pk)).status_code == 404


# 3. Logins and organisers


def test_a_stranger_cannot_link_a_login_through_a_roster_or_a_game_of_their_own(
    stranger, stranger_client, organiser, game, mine
):
    aki = Player.objects.get(display_name="Aki")
    services.add_to_roster(mine.pk, [aki])

    on_roster = stranger_client.post(url("player_link", aki.pk), {"who": "stranger"})

    assert on_roster.status_code == 403
    # Seating Aki in a game of their own does not make Aki theirs to claim either.
    session = Session.objects.create(event=mine, number=1, date=datetime.date(2026, 1, 1))
    others = [Player.objects.create(display_name=n) for n in ("S1", "S2", "S3")]
    services.create_game(session, [aki, *others], table_number=1)
    seated = stranger_client.post(url("player_link", aki.pk), {"who": "stranger"})
    unlinked = stranger_client.post(url("player_link", aki.pk), {"unlink": "1"})

    assert seated.status_code == 200
    assert (
        "Aki played in events you do not organise: ask an organiser of one of them to link "
        "your login, or the site&#x27;s administrator." in text(seated)
    )
    assert unlinked.status_code == 403
    aki.refresh_from_db()
    assert aki.user is None
    assert not Invitation.objects.exists()


def test_an_invitation_lapses_when_its_sender_no_longer_organises_the_event(
    organiser_client, event, organiser, stranger, stranger_client, django_user_model
):
    other = django_user_model.objects.create_user("other", password="other-long-password")
    event.organisers.add(other)
    organiser_client.post(url("event_organisers", "thursday"), {"who": "stranger"})
    invitation = Invitation.objects.get(user=stranger)
    event.organisers.remove(organiser)

    response = stranger_client.post(
        reverse("invitation_answer", args=[invitation.pk]), {"accept": "1"}, follow=True
    )

    assert response.status_code == 200
    assert shown_messages(response) == ["This invitation is no longer there."]
    assert not event.organisers.filter(pk=stranger.pk).exists()
    assert not Invitation.objects.exists()


@pytest.mark.parametrize(
    ("existing", "missing"),
    [("helper", "nobody"), ("Helper@Example.org", "nobody@example.org"), ("root", "rot")],
)
def test_the_organiser_and_link_forms_answer_the_same_for_existing_and_missing_accounts(
    organiser_client, game, django_user_model, existing, missing
):
    django_user_model.objects.create_user("helper", "Helper@Example.org", "helper-long-password")
    django_user_model.objects.create_superuser("root", password="another-long-password")
    aki = Player.objects.get(display_name="Aki")
    pages = {}
    for who in (existing, missing):
        for address in (url("event_organisers", "thursday"), url("player_link", aki.pk)):
            response = organiser_client.post(address, {"who": who}, follow=True)
            assert response.status_code == 200
            pages[who, address] = [m.replace(who, "X") for m in shown_messages(response)]
    for address in (url("event_organisers", "thursday"), url("player_link", aki.pk)):
        assert pages[existing, address] == pages[missing, address]
        assert len(pages[existing, address]) == 1
    assert Invitation.objects.count() == 2
    aki.refresh_from_db()
    assert aki.user is None
    assert Event.objects.get(slug="thursday").organisers.count() == 1


# 4. A big import killed part way leaves nothing


def big_export(organiser, games: int) -> dict:
    document = export_of(organiser, ["Big A", "Big B", "Big C", "Big D"])
    one = document["games"][0]
    document["games"] = [{**one, "table": 1 + index % 500} for index in range(games)]
    return document


def test_an_event_import_killed_part_way_leaves_nothing_and_the_event_takes_it_again(
    organiser, event, monkeypatch
):
    document = big_export(organiser, 300)
    document["games"][0]["record"]["players"] = ["New Nia", "New Noa", "New Nel", "New Nim"]
    players_before = set(Player.objects.values_list("pk", flat=True))
    real_create = services.create_game_from_record
    written = []

    def killed(*args, **kwargs):
        if len(written) == 120:
            # What gunicorn's timeout does to a sync worker: SystemExit from a signal.
            raise SystemExit(1)
        written.append(1)
        return real_create(*args, **kwargs)

    monkeypatch.setattr(exchange.services, "create_game_from_record", killed)
    with pytest.raises(SystemExit):
        exchange.import_event(event, document, time_limit=0)  # the kill, not the clock

    assert len(written) == 120
    assert not Session.objects.filter(event=event).exists()
    assert not Game.objects.filter(session__event=event).exists()
    assert set(Player.objects.values_list("pk", flat=True)) == players_before
    event.refresh_from_db()
    assert event.rules_preset == "ari-ari"
    monkeypatch.setattr(exchange.services, "create_game_from_record", real_create)
    assert exchange.import_event(event, document, time_limit=0) == 300
    assert Game.objects.filter(session__event=event).count() == 300


def test_an_import_from_the_web_page_past_the_time_limit_is_refused_and_leaves_nothing(
    organiser_client, organiser, event, settings
):
    settings.IMPORT_TIME_LIMIT = 1
    document = big_export(organiser, 2000)

    response = import_file(organiser_client, "thursday", document)

    assert response.status_code == 200
    assert "it takes longer than 1 seconds to write on this server (" in text(response)
    assert "of 2,000 games written), and nothing was kept." in text(response)
    assert not Session.objects.filter(event=event).exists()
    assert not Game.objects.filter(session__event=event).exists()


# 6. Two organisers editing one hand


def test_the_second_of_two_edits_of_one_hand_is_refused_with_what_changed(
    organiser, organiser_client, game
):
    services.add_hand(
        game.pk,
        1,
        {"result": "ron", "riichi": [], "wins": [{"winner": 1, "loser": 0, "han": 3, "fu": 40}]},
    )
    other = Client()
    other.force_login(organiser)
    edit = reverse("tournaments:hand_edit", args=[game.pk, 1])
    first_form, second_form = text(organiser_client.get(edit)), text(other.get(edit))
    version = re.search(r'name="version" value="([0-9a-f]+)"', first_form).group(1)
    assert f'name="version" value="{version}"' in second_form
    base = {"result": "ron", "loser": "0", "w1_winner": "1", "w1_fu": "40", "version": version}

    first = organiser_client.post(edit, {**base, "w1_han": "4", "action": "save"})
    second = other.post(edit, {**base, "w1_han": "2", "action": "save"})

    assert first.status_code == 302
    assert second.status_code == 409
    page = text(second)
    assert "Someone else changed hand 1 while you were editing it; your change was not saved." in (
        page
    )
    assert "It is now: Ben ron off Aki · 4 han 40 fu mangan." in page
    assert game.to_record()["hands"][0]["wins"][0]["han"] == 4
    # Having read it, the second organiser saves again on purpose: the form carries the
    # version of the hand as it is now.
    again = re.search(r'name="version" value="([0-9a-f]+)"', page).group(1)
    assert again != version
    third = other.post(edit, {**base, "version": again, "w1_han": "2", "action": "save"})
    assert third.status_code == 302
    assert game.to_record()["hands"][0]["wins"][0]["han"] == 2


# 7. The login lock


def try_login(client, password, address):
    return client.post(
        "/accounts/login/",
        {"username": "organiser", "password": password},
        REMOTE_ADDR=address,
    )


def test_a_lockout_holds_only_for_the_pair_and_its_wait_is_not_restarted(client, organiser):
    for _ in range(5):
        try_login(client, "guess", "203.0.113.7")
    locked = AccessAttempt.objects.get(username="organiser", ip_address="203.0.113.7")
    for _ in range(3):
        response = try_login(client, "guess", "203.0.113.7")
        assert response.status_code == 429
    assert "Too many failed logins for this account from this address." in text(response)
    assert AccessAttempt.objects.get(pk=locked.pk).attempt_time == locked.attempt_time, (
        "a try during the lock started the wait again"
    )

    elsewhere = try_login(Client(), ORGANISER_PASSWORD, "198.51.100.20")

    assert elsewhere.status_code == 302
    assert AccessAttempt.objects.filter(ip_address="198.51.100.20").count() == 0


# 8. Password resets and mail


def ask_reset(client, email, address="203.0.113.9"):
    return client.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=address)


def test_password_resets_are_throttled_per_email_and_per_address(client, organiser):
    organiser.email = "org@example.org"
    organiser.save()

    answers = [ask_reset(client, "org@example.org", f"192.0.2.{n}").status_code for n in range(5)]

    assert answers == [302, 302, 302, 429, 429]
    assert len(mail.outbox) == 3
    refused = ask_reset(client, "ORG@example.org", "192.0.2.50")
    assert refused.status_code == 429
    assert "Too many password resets were asked for from this address or for this email" in text(
        refused
    )
    assert len(mail.outbox) == 3
    # One address asking for many emails (existing or not) is stopped too.
    others = [ask_reset(client, f"x{n}@example.org", "198.51.100.9").status_code for n in range(7)]
    assert others == [302] * 5 + [429] * 2
    assert PasswordResetRequest.objects.filter(ip_address="198.51.100.9").count() == 5


def test_production_refuses_to_start_without_a_mail_host():
    env = {**PRODUCTION_ENV, "SECRET_KEY": "s" * 50}
    del env["EMAIL_HOST"]

    refused = run_manage("check", env=env)
    on_purpose = run_manage("check", env={**env, "EMAIL_TO_CONSOLE": "1"})

    assert refused.returncode != 0
    assert "EMAIL_HOST is not set" in refused.stderr
    assert on_purpose.returncode == 0, on_purpose.stderr
