"""Registration before the day: players ask for a place, the organisers answer, a waiting
list moves up in order, and the roster starts from the confirmed players."""

from __future__ import annotations

import datetime
import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.security.test_names_and_logins import private_event
from tournaments.models import Event, Player, Registration, RosterEntry, TrailEntry
from tournaments.services import registrations as registration_rules

pytestmark = pytest.mark.django_db

Status = Registration.Status


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def text(response) -> str:
    return response.content.decode()


def messages_of(client, response) -> list[str]:
    return [str(m) for m in client.get(response["Location"]).context["messages"]]


@pytest.fixture
def open_event(event):
    event.registration_open = True
    event.registration_places = 2
    event.save()
    return event


@pytest.fixture
def accounts(django_user_model):
    """Signed-in clients, each an account with a player of its own (Player n)."""

    def make(count: int, *, linked: bool = True) -> list[Client]:
        clients = []
        for n in range(count):
            user = django_user_model.objects.create_user(
                username=f"player{n}", password="x-long-password"
            )
            if linked:
                Player.objects.create(display_name=f"Player {n}", user=user)
            client = Client()
            client.force_login(user)
            client.user = user
            clients.append(client)
        return clients

    return make


def register(client, slug="thursday", **data):
    return client.post(url("registration", slug), data)


def statuses(event) -> dict[str, str]:
    return dict(event.registrations.values_list("player__display_name", "status"))


# Asking for a place


def test_a_login_without_a_player_registers_under_the_name_it_gives(open_event, accounts):
    (client,) = accounts(1, linked=False)

    page = client.get(url("registration", "thursday"))
    response = register(client, display_name="  Kazu   Mori ")

    assert "The name you play under" in text(page)
    assert response.status_code == 302
    player = Player.objects.get(user=client.user)
    assert player.display_name == "Kazu Mori"
    assert statuses(open_event) == {"Kazu Mori": Status.ASKED}
    assert messages_of(client, response) == [
        "Kazu Mori asks for a place; the organisers will confirm it."
    ]
    shown = text(client.get(url("registration", "thursday")))
    assert "Waiting for the organisers" in shown and "Withdraw my registration" in shown


def test_a_login_linked_to_a_player_registers_that_player_without_a_name(open_event, accounts):
    (client,) = accounts(1)

    page = client.get(url("registration", "thursday"))
    response = register(client)

    assert "The name you play under" not in text(page)
    assert response.status_code == 302
    assert statuses(open_event) == {"Player 0": Status.ASKED}
    assert Player.objects.count() == 1


def test_the_event_page_offers_registration_only_while_it_is_open(event, accounts):
    (client,) = accounts(1)
    closed_page = text(client.get(url("event", "thursday")))
    event.registration_open = True
    event.save()
    open_page = text(client.get(url("event", "thursday")))
    register(client)
    registered_page = text(client.get(url("event", "thursday")))

    register_link = f'href="{url("registration", "thursday")}">Register<'
    assert register_link not in closed_page
    assert register_link in open_page
    assert "Your registration (Player 0): Waiting for the organisers" in registered_page


def test_an_anonymous_visitor_is_asked_to_sign_in_and_a_post_goes_to_the_login(
    open_event, anonymous
):
    page = text(anonymous.get(url("registration", "thursday")))
    response = anonymous.post(url("registration", "thursday"), {"display_name": "Nobody"})

    assert "Sign in to register" in page
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Registration.objects.exists() and not Player.objects.exists()


def test_registering_while_registration_is_closed_is_refused_with_the_reason(event, accounts):
    (client,) = accounts(1)

    response = register(client)

    assert response.status_code == 400
    assert "This event is not open to registration: ask its organisers." in text(response)
    assert not Registration.objects.exists()


def test_registering_after_the_closing_time_is_refused_and_nothing_is_stored(open_event, accounts):
    open_event.registration_closes_at = timezone.now() - datetime.timedelta(minutes=1)
    open_event.save()
    (client,) = accounts(1, linked=False)

    page = text(client.get(url("registration", "thursday")))
    response = register(client, display_name="Late Lou")

    assert "Registration for this event has closed." in page
    assert response.status_code == 400
    assert "Registration for this event has closed: ask its organisers." in text(response)
    assert not Registration.objects.exists()
    assert not Player.objects.filter(display_name="Late Lou").exists()


def test_registering_twice_is_refused(open_event, accounts):
    (client,) = accounts(1)
    register(client)

    again = register(client)

    assert again.status_code == 400
    assert "Player 0 is already registered for this event." in text(again)
    assert open_event.registrations.count() == 1


def test_a_player_already_on_the_roster_cannot_register(open_event, accounts):
    (client,) = accounts(1)
    RosterEntry.objects.create(event=open_event, player=client.user.player)

    response = register(client)

    assert response.status_code == 400
    assert "Player 0 is already on this event&#x27;s roster." in text(response)
    assert not Registration.objects.exists()


# Places and the waiting list


def test_players_past_the_places_go_on_the_waiting_list_in_the_order_they_came(
    open_event, accounts
):
    clients = accounts(4)
    responses = [register(client) for client in clients]

    assert [r.status_code for r in responses] == [302] * 4
    assert statuses(open_event) == {
        "Player 0": Status.ASKED,
        "Player 1": Status.ASKED,
        "Player 2": Status.WAITING,
        "Player 3": Status.WAITING,
    }
    assert messages_of(clients[2], responses[2]) == [
        "Every place is taken: Player 2 is on the waiting list."
    ]
    assert "number 2 on the waiting list" in text(clients[3].get(url("registration", "thursday")))


def test_a_confirmed_player_withdrawing_moves_the_first_waiting_up_in_order(
    open_event, accounts, organiser_client
):
    clients = accounts(4)
    for client in clients:
        register(client)
    first = open_event.registrations.get(player__display_name="Player 0")
    organiser_client.post(url("registration_confirm", "thursday", first.pk))
    assert open_event.roster.filter(player__display_name="Player 0").exists()

    response = clients[0].post(url("registration_withdraw", "thursday"))

    assert response.status_code == 302
    assert messages_of(clients[0], response)[-1] == "Player 0 is withdrawn from this event."
    assert statuses(open_event) == {
        "Player 0": Status.WITHDRAWN,
        "Player 1": Status.ASKED,
        "Player 2": Status.ASKED,
        "Player 3": Status.WAITING,
    }
    assert not open_event.roster.filter(player__display_name="Player 0").exists()
    assert "number 1 on the waiting list" in text(clients[3].get(url("registration", "thursday")))


def test_a_player_who_asks_again_after_withdrawing_goes_to_the_back_of_the_queue(
    open_event, accounts
):
    clients = accounts(3)
    for client in clients:
        register(client)
    clients[0].post(url("registration_withdraw", "thursday"))

    again = register(clients[0])

    assert again.status_code == 302
    assert statuses(open_event) == {
        "Player 0": Status.WAITING,
        "Player 1": Status.ASKED,
        "Player 2": Status.ASKED,
    }


def test_withdrawing_after_the_closing_time_is_refused(open_event, accounts):
    (client,) = accounts(1)
    register(client)
    open_event.registration_closes_at = timezone.now() - datetime.timedelta(minutes=1)
    open_event.save()

    page = text(client.get(url("registration", "thursday")))
    response = client.post(url("registration_withdraw", "thursday"))

    assert "Withdraw my registration" not in page
    assert messages_of(client, response) == [
        "Registration for this event has closed: ask its organisers to withdraw you."
    ]
    assert statuses(open_event) == {"Player 0": Status.ASKED}


def test_withdrawing_without_a_registration_is_refused(open_event, accounts):
    (client,) = accounts(1)

    response = client.post(url("registration_withdraw", "thursday"))

    assert messages_of(client, response) == ["You have no registration for this event."]


# The organisers' answers


def test_the_organiser_confirming_puts_the_player_on_the_roster_and_in_the_trail(
    open_event, accounts, organiser_client
):
    (client,) = accounts(1)
    register(client)
    registration = open_event.registrations.get()

    listing = text(organiser_client.get(url("registrations", "thursday")))
    response = organiser_client.post(url("registration_confirm", "thursday", registration.pk))

    assert "Player 0" in listing and "Confirm" in listing
    assert response.status_code == 302
    assert messages_of(organiser_client, response) == ["Player 0 is confirmed and on the roster."]
    registration.refresh_from_db()
    assert registration.status == Status.CONFIRMED and registration.answered_at is not None
    assert list(open_event.roster_players()) == [client.user.player]
    entry = TrailEntry.objects.get(event=open_event)
    assert entry.kind == TrailEntry.Kind.ENTRY_CONFIRMED
    assert entry.after == {"registrant": "Player 0"} and entry.author == "Olive (organiser)"
    trail_page = text(organiser_client.get(url("event_trail", "thursday")))
    assert "Registration confirmed" in trail_page
    csv = b"".join(organiser_client.get(url("event_trail_csv", "thursday")).streaming_content)
    assert "Registration confirmed" in csv.decode() and "Player 0" in csv.decode()
    roster_page = text(organiser_client.get(url("roster", "thursday")))
    assert "Player 0" in roster_page
    assert "Confirmed" in text(client.get(url("registration", "thursday")))


def test_declining_frees_the_place_for_the_first_on_the_waiting_list(
    open_event, accounts, organiser_client
):
    clients = accounts(3)
    for client in clients:
        register(client)
    second = open_event.registrations.get(player__display_name="Player 1")

    response = organiser_client.post(url("registration_decline", "thursday", second.pk))

    assert messages_of(organiser_client, response) == ["Player 1's registration is declined."]
    assert statuses(open_event) == {
        "Player 0": Status.ASKED,
        "Player 1": Status.DECLINED,
        "Player 2": Status.ASKED,
    }
    assert TrailEntry.objects.get(event=open_event).kind == TrailEntry.Kind.ENTRY_DECLINED
    again = register(clients[1])
    assert again.status_code == 400
    assert "The organisers declined this registration" in text(again)


def test_confirming_a_player_on_the_waiting_list_is_refused(open_event, accounts, organiser_client):
    clients = accounts(3)
    for client in clients:
        register(client)
    waiting = open_event.registrations.get(player__display_name="Player 2")

    response = organiser_client.post(url("registration_confirm", "thursday", waiting.pk))

    assert messages_of(organiser_client, response) == [
        "Player 2 is on the waiting list: a place must come free first (decline someone, or "
        "give the event more places)."
    ]
    assert statuses(open_event)["Player 2"] == Status.WAITING
    assert not open_event.roster.exists() and not TrailEntry.objects.exists()


def test_a_stranger_cannot_confirm_and_nothing_changes(open_event, accounts, stranger_client):
    (client,) = accounts(1)
    register(client)
    registration = open_event.registrations.get()

    response = stranger_client.post(url("registration_confirm", "thursday", registration.pk))

    assert response.status_code == 403
    assert statuses(open_event) == {"Player 0": Status.ASKED}
    assert not open_event.roster.exists()


def test_giving_more_places_moves_the_waiting_list_up_in_order(
    open_event, accounts, organiser_client
):
    for client in accounts(4):
        register(client)

    response = organiser_client.post(
        url("registrations", "thursday"),
        {"registration_open": "on", "registration_places": "3"},
    )

    assert response.status_code == 302
    assert statuses(open_event) == {
        "Player 0": Status.ASKED,
        "Player 1": Status.ASKED,
        "Player 2": Status.ASKED,
        "Player 3": Status.WAITING,
    }


def test_the_organiser_opens_registration_with_places_and_a_closing_time(event, organiser_client):
    response = organiser_client.post(
        url("registrations", "thursday"),
        {
            "registration_open": "on",
            "registration_places": "16",
            "registration_closes_at": "2026-09-02T20:00",
        },
    )

    assert response.status_code == 302
    event.refresh_from_db()
    assert event.registration_open and event.registration_places == 16
    assert event.registration_closes_at == datetime.datetime(2026, 9, 2, 20, tzinfo=datetime.UTC)


@pytest.mark.parametrize(
    ("places", "message"),
    [
        ("0", "Give at least 1 place, or leave the number empty for no limit of your own."),
        ("5000", "An event takes at most 1000 registrations; give 1000 places or fewer."),
        ("-3", "Ensure this value is greater than or equal to 0."),
        ("many", "Enter a whole number."),
    ],
)
def test_the_settings_refuse_a_bad_number_of_places(event, organiser_client, places, message):
    response = organiser_client.post(
        url("registrations", "thursday"),
        {"registration_open": "on", "registration_places": places},
    )

    assert response.status_code == 400
    assert message in text(response)
    event.refresh_from_db()
    assert not event.registration_open and event.registration_places is None


def test_the_settings_refuse_a_closing_time_that_is_not_a_time(event, organiser_client):
    response = organiser_client.post(
        url("registrations", "thursday"),
        {"registration_open": "on", "registration_closes_at": "next thursday"},
    )

    assert response.status_code == 400
    assert "Enter a valid date/time." in text(response)
    event.refresh_from_db()
    assert not event.registration_open


# Names, and a private event


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("   ", "Give the name you play under, as it should read in the standings."),
        ("Ann\u202eboB", "U+202E RIGHT-TO-LEFT OVERRIDE is not allowed in a name."),
        ("x" * 61, "A name has at most 60 characters; this one has 61."),
    ],
)
def test_a_bad_name_is_refused_and_no_player_is_made(open_event, accounts, name, message):
    (client,) = accounts(1, linked=False)

    response = register(client, display_name=name)

    assert response.status_code == 400
    assert message in text(response)
    assert not Player.objects.exists() and not Registration.objects.exists()


def test_a_typed_name_of_a_hidden_player_makes_a_new_player_under_a_numbered_name(
    open_event, accounts, organiser
):
    private_event(organiser, ["Secret Sae", "Secret Sho", "Secret Suzu", "Secret Sora"])
    hidden = Player.objects.get(display_name="Secret Sae")
    (client,) = accounts(1, linked=False)

    response = register(client, display_name="secret sae")

    assert response.status_code == 302
    mine = Player.objects.get(user=client.user)
    assert mine.pk != hidden.pk and mine.display_name == "secret sae 2"
    hidden.refresh_from_db()
    assert hidden.user is None
    assert statuses(open_event) == {"secret sae 2": Status.ASKED}
    assert client.get(url("player", hidden.pk)).status_code == 404


def test_a_private_event_has_no_registration_for_strangers(event, accounts, anonymous):
    event.is_public = False
    event.registration_open = True
    event.save()
    (client,) = accounts(1)

    answers = [
        client.get(url("registration", "thursday")).status_code,
        register(client).status_code,
        client.post(url("registration_withdraw", "thursday")).status_code,
        anonymous.get(url("registration", "thursday")).status_code,
        anonymous.post(url("registration", "thursday"), {"display_name": "X"}).status_code,
        client.get(url("registrations", "thursday")).status_code,
    ]

    assert answers == [404] * 6
    assert not Registration.objects.exists()
    assert "Register" not in text(client.get(url("home")))


# Bounds


def test_an_account_may_have_only_so_many_registrations_waiting_for_an_answer(
    accounts, organiser, monkeypatch
):
    monkeypatch.setattr(registration_rules, "OPEN_REGISTRATIONS_PER_ACCOUNT", 2)
    for n in range(3):
        event = Event.objects.create(
            name=f"Cup {n}",
            slug=f"cup-{n}",
            starts_on=datetime.date(2026, 10, 1),
            registration_open=True,
        )
        event.organisers.add(organiser)
    (client,) = accounts(1)

    answers = [register(client, f"cup-{n}") for n in range(3)]

    assert [r.status_code for r in answers] == [302, 302, 400]
    assert (
        "You have 2 registrations waiting for an answer already, the most one account may "
        "have: wait for the organisers&#x27; answers, or withdraw one."
    ) in text(answers[2])
    assert Registration.objects.count() == 2


def test_an_event_takes_no_more_registrations_than_its_hard_bound(
    open_event, accounts, monkeypatch
):
    monkeypatch.setattr(registration_rules, "EVENT_REGISTRATION_LIMIT", 3)
    open_event.registration_places = None
    open_event.save()
    clients = accounts(4)

    answers = [register(client) for client in clients]

    assert [r.status_code for r in answers] == [302, 302, 302, 400]
    assert "This event holds 3 registrations, the most one event may" in text(answers[3])
    assert open_event.registrations.count() == 3


def test_the_refusal_is_in_japanese_for_a_japanese_reader(event, accounts):
    (client,) = accounts(1)

    response = client.post(url("registration", "thursday"), {}, HTTP_ACCEPT_LANGUAGE="ja")

    assert response.status_code == 400
    assert "この大会は参加登録を受け付けていません" in text(response)


def test_the_registrations_page_answers_in_a_bounded_number_of_queries(
    open_event, accounts, organiser_client, django_assert_max_num_queries
):
    for client in accounts(6):
        register(client)

    with django_assert_max_num_queries(12):
        response = organiser_client.get(url("registrations", "thursday"))

    assert response.status_code == 200
    assert text(response).count('class="card registration registration-') == 6


# The last place, asked for at once (PostgreSQL: SQLite has no row locks)


@pytest.mark.django_db(transaction=True)
def test_players_asking_for_the_last_place_at_once_never_exceed_the_places(
    event, django_user_model
):
    if connection.vendor == "sqlite":
        pytest.skip("SQLite cannot run concurrent writers: run with DATABASE_URL=postgres://...")
    event.registration_open = True
    event.registration_places = 1
    event.save()
    users = []
    for n in range(4):
        user = django_user_model.objects.create_user(username=f"p{n}", password="x-long-pw")
        Player.objects.create(display_name=f"Player {n}", user=user)
        users.append(user)
    barrier = threading.Barrier(len(users))
    codes: list = []
    errors: list = []

    def ask(user):
        try:
            client = Client()
            client.force_login(user)
            barrier.wait(timeout=10)
            codes.append(client.post(url("registration", "thursday")).status_code)
        except Exception as err:  # reported in the main thread, where pytest sees it
            errors.append(err)
        finally:
            connection.close()

    threads = [threading.Thread(target=ask, args=(user,)) for user in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert not errors, errors
    assert codes == [302] * 4
    assert event.registrations.filter(status__in=Registration.HOLDING).count() == 1
    assert event.registrations.filter(status=Status.WAITING).count() == 3


def test_a_superuser_reads_registrations_in_the_admin_and_cannot_change_them(
    open_event, accounts, staff_client
):
    (client,) = accounts(1)
    register(client)
    registration = open_event.registrations.get()

    listing = staff_client.get(reverse("admin:tournaments_registration_changelist"))
    one = staff_client.get(reverse("admin:tournaments_registration_change", args=[registration.pk]))
    change = staff_client.post(
        reverse("admin:tournaments_registration_change", args=[registration.pk]),
        {"status": "confirmed"},
    )

    assert listing.status_code == one.status_code == 200
    assert "Player 0" in text(listing)
    assert change.status_code == 403
    registration.refresh_from_db()
    assert registration.status == Status.ASKED
