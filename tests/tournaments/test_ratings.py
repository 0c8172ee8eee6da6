"""Ratings across events in the app: values from stored games, the pages and their
traces, the form's refusals, who reads what, and freshness after a change of results."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from tests.tournaments.builders import final_game, tied_event
from tournaments import services
from tournaments.models import Event, Player, Rating, Session
from tournaments.reading import ratings as reading
from tournaments.reading.ema import mers_weight
from tournaments.services.ratings import save_rating

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 3, 1)


def _event(organiser, slug, *, day=DAY, is_public=True) -> Event:
    event = Event.objects.create(name=slug.title(), slug=slug, starts_on=day, is_public=is_public)
    event.organisers.add(organiser)
    return event


def _season(organiser, *, is_public=True) -> Event:
    """One event of two sessions, one game each: A B C D place 1-4, then 4-1."""
    event = _event(organiser, "club-season", is_public=is_public)
    one = Session.objects.create(event=event, number=1, date=DAY)
    two = Session.objects.create(event=event, number=2, date=DAY + datetime.timedelta(days=7))
    final_game(one, ["A", "B", "C", "D"], [40000, 30000, 20000, 10000], 1)
    final_game(two, ["A", "B", "C", "D"], [10000, 20000, 30000, 40000], 1)
    return event


def _rating(organiser, events, formula, **fields) -> Rating:
    return save_rating(
        None,
        user=organiser,
        name=fields.pop("name", "Season"),
        formula=formula,
        reckoning_date=fields.pop("reckoning_date", datetime.date(2026, 12, 31)),
        best_of=fields.pop("best_of", None),
        events=events,
        is_public=fields.pop("is_public", True),
    )


def _values(rating) -> dict[str, Decimal | None]:
    return {row.name: row.value for row in reading.table(rating).rows}


def test_the_mers_weight_changes_exactly_at_its_bounds():
    # "Basics for ranking system": players 40 -> +0, 41 -> +0.5, 80 -> +0.5, 81 -> +1;
    # countries 5 -> +0, 6 -> +0.5, 9 -> +0.5, 10 -> +1; days count up to three.
    def total(**given):
        fields = {"days": 1, "players": 8, "countries": 1, "qualification": False}
        return mers_weight(**{**fields, **given}).total

    assert [total(players=n) for n in (40, 41, 80, 81)] == [1, Decimal("1.5"), Decimal("1.5"), 2]
    assert [total(countries=n) for n in (5, 6, 9, 10)] == [1, Decimal("1.5"), Decimal("1.5"), 2]
    assert [total(days=n) for n in (1, 2, 3, 4)] == [1, 2, 3, 3]
    assert total(qualification=True) == 2


def test_the_r_rating_of_a_club_season_from_its_stored_games(organiser):
    # Worked out by hand in tests/ratings/test_formulas.py: game 1 A+30 B+10 C-10 D-30;
    # game 2 (reversed) at factor 0.998: A 1499.31, B 1499.77, C 1500.23, D 1500.69.
    rating = _rating(organiser, [_season(organiser)], Rating.Formula.TENHOU_R)
    assert _values(rating) == {
        "D": Decimal("1500.69"),
        "C": Decimal("1500.23"),
        "B": Decimal("1499.77"),
        "A": Decimal("1499.31"),
    }
    assert [row.place for row in reading.table(rating).rows] == [1, 2, 3, 4]
    assert [row.count for row in reading.table(rating).rows] == [2, 2, 2, 2]


def test_a_players_r_trace_names_each_game_and_its_figures(client, organiser):
    rating = _rating(organiser, [_season(organiser)], Rating.Formula.TENHOU_R)
    player = Player.objects.get(display_name="A")
    page = client.get(reverse("tournaments:rating_player", args=[rating.pk, player.pk]))
    text = page.content.decode()
    assert page.status_code == 200
    # Game 1: from 1500.00 by +30.00 to 1530.00; game 2: factor 0.998, -30.69 to 1499.31.
    for figure in ("1500.00", "30.00", "1530.00", "0.998", "-30.69", "1499.31"):
        assert figure in text
    assert "session 1, table 1" in text and "session 2, table 1" in text


def test_a_mers_ranking_over_two_events_from_their_final_placements(organiser):
    # Two one-day events of four players, no countries: MERS weight 1 each. In both,
    # A, B, C, D place 1-4: base ranks 1000, 666.67, 333.33, 0; three padding results.
    # A: part A (1000 + 1000) / 5 = 400, part B (1000 + 1000) / 4 = 500: 450.00.
    # B: part A 1333.34 / 5 = 266.668, part B 1333.34 / 4 = 333.335: 300.0015 -> 300.00.
    events = []
    for slug in ("spring", "summer"):
        event = _event(organiser, slug)
        session = Session.objects.create(event=event, number=1, date=DAY)
        final_game(session, ["A", "B", "C", "D"], [40000, 30000, 20000, 10000], 1)
        events.append(event)
    rating = _rating(organiser, events, Rating.Formula.MERS)
    values = _values(rating)
    assert values["A"] == Decimal("450.00")
    assert values["B"] == Decimal("300.00")
    assert values["D"] == Decimal("0.00")
    table = reading.table(rating)
    assert table.events[events[0].pk].weight == 1
    assert table.places[(events[0].pk, table.rows[0].player)] == ("1", 4)


def test_players_who_share_a_place_share_its_base_rank_in_the_mers_ranking(organiser):
    # P and Q tie for first of four, R and S for third (split ties): P and Q hold 1st and
    # 2nd, (1000 + 666.67) / 2 = 833.33 each; R and S hold 3rd and 4th, (333.33 + 0) / 2
    # = 166.67 each. A second event where all four place in the order P Q R S: 1000,
    # 666.67, 333.33, 0.
    # P: listed 1000, 833.33, 0, 0, 0: part A 1833.33 / 5 = 366.666, part B
    # 1833.33 / 4 = 458.3325: 412.49925 -> 412.50.
    # Q: 833.33, 666.67: part A 1500 / 5 = 300, part B 1500 / 4 = 375: 337.50.
    tied = tied_event()
    other = _event(organiser, "after", day=DAY)
    session = Session.objects.create(event=other, number=1, date=DAY)
    final_game(session, ["P", "Q", "R", "S"], [40000, 30000, 20000, 10000], 1)
    rating = _rating(organiser, [tied, other], Rating.Formula.MERS)
    table = reading.table(rating)
    shared = {
        row.name: [line.base_rank for line in row.detail.lines if line.event == tied.pk]
        for row in table.rows
    }
    assert shared == {
        "P": [Decimal("833.33")],
        "Q": [Decimal("833.33")],
        "R": [Decimal("166.67")],
        "S": [Decimal("166.67")],
    }
    values = _values(rating)
    assert (values["P"], values["Q"]) == (Decimal("412.50"), Decimal("337.50"))
    player = Player.objects.get(display_name="P")
    assert table.places[(tied.pk, player.pk)] == ("1=", 4)


def test_a_player_of_one_mers_event_is_listed_but_not_ranked(client, organiser):
    event = _event(organiser, "single")
    session = Session.objects.create(event=event, number=1, date=DAY)
    final_game(session, ["A", "B", "C", "D"], [40000, 30000, 20000, 10000], 1)
    rating = _rating(organiser, [event], Rating.Formula.MERS)
    assert set(_values(rating).values()) == {None}
    page = client.get(rating.get_absolute_url()).content.decode()
    assert "not ranked" in page


def test_best_of_one_counts_each_players_best_event(organiser):
    # Season: A +50.0 (40,000: 1st) then -50.0... each player's event total is one figure;
    # two events: the best of the two counts.
    first = _season(organiser)
    other = _event(organiser, "cup")
    session = Session.objects.create(event=other, number=1, date=DAY)
    final_game(session, ["A", "B", "C", "D"], [40000, 30000, 20000, 10000], 1)
    rating = _rating(organiser, [first, other], Rating.Formula.BEST_N, best_of=1)
    values = _values(rating)
    totals = {
        name: [
            line.points
            for line in reading.table(rating)
            .row_of(Player.objects.get(display_name=name).pk)
            .detail.lines
        ]
        for name in "ABCD"
    }
    for name in "ABCD":
        assert values[name] == max(totals[name])
    assert values["A"] > values["D"]


def test_a_rating_follows_a_change_of_results_at_once(organiser):
    event = _season(organiser)
    rating = _rating(organiser, [event], Rating.Formula.TENHOU_R)
    before = _values(rating)
    game = event.sessions.get(number=2).games.get()
    services.reopen_game(game.pk)
    services.set_final_scores(game.pk, [40000, 30000, 20000, 10000], 0)
    services.finish_game(game.pk)
    rating.refresh_from_db()
    after = _values(rating)
    # A won both games now: 1530 + 0.998 x (30 + (1500 - 1530)/40) = 1559.19.
    assert before["A"] == Decimal("1499.31")
    assert after["A"] == Decimal("1559.19")


def test_a_games_after_the_reckoning_date_do_not_count_in_r(organiser):
    rating = _rating(organiser, [_season(organiser)], Rating.Formula.TENHOU_R, reckoning_date=DAY)
    assert _values(rating)["A"] == Decimal("1530.00")


def test_the_player_page_names_the_ratings_a_player_holds(client, organiser):
    rating = _rating(organiser, [_season(organiser)], Rating.Formula.TENHOU_R, name="Club R")
    player = Player.objects.get(display_name="D")
    page = client.get(reverse("tournaments:player", args=[player.pk])).content.decode()
    assert "Club R" in page and "1500.69" in page
    assert reverse("tournaments:rating_player", args=[rating.pk, player.pk]) in page


def _form(chosen, **changes):
    data = {
        "name": "Spring ranking",
        "formula": "mers",
        "reckoning_date": "2026-12-31",
        "events": [event.pk for event in chosen],
        "is_public": "on",
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


def test_an_organiser_makes_a_rating_that_pins_its_formulas_version(organiser_client, organiser):
    event = _season(organiser)
    answer = organiser_client.post(reverse("tournaments:rating_create"), _form([event]))
    rating = Rating.objects.get()
    assert answer.status_code == 302 and answer["Location"] == rating.get_absolute_url()
    assert (rating.formula, rating.formula_version, rating.created_by) == ("mers", 1, organiser)
    assert list(rating.events.all()) == [event]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"events": None}, "Choose at least one event."),
        ({"formula": "best_n"}, "Say how many results of each player count."),
        ({"formula": "best_n", "best_of": "0"}, "greater than or equal to 1"),
        ({"formula": "best_n", "best_of": "51"}, "less than or equal to 50"),
        ({"formula": "elo"}, "Select a valid choice"),
        ({"reckoning_date": "1800-01-01"}, "Choose a reckoning date from 1990-01-01"),
        ({"reckoning_date": "someday"}, "Enter a valid date"),
        ({"name": ""}, "This field is required"),
    ],
)
def test_a_rating_form_with_bad_input_says_why_and_stores_nothing(
    organiser_client, organiser, changes, message
):
    event = _season(organiser)
    answer = organiser_client.post(reverse("tournaments:rating_create"), _form([event], **changes))
    assert answer.status_code == 200
    assert message in answer.content.decode()
    assert not Rating.objects.exists()


def test_a_public_rating_of_a_private_event_is_refused(organiser_client, organiser):
    event = _season(organiser, is_public=False)
    answer = organiser_client.post(reverse("tournaments:rating_create"), _form([event]))
    assert "A public rating reads public events only" in answer.content.decode()
    assert not Rating.objects.exists()


def test_an_event_the_user_may_not_read_cannot_be_rated(stranger_client, organiser):
    event = _season(organiser, is_public=False)
    answer = stranger_client.post(
        reverse("tournaments:rating_create"), _form([event], is_public=None)
    )
    assert "not one you may rate" in answer.content.decode()
    assert not Rating.objects.exists()


def test_more_events_than_a_rating_reads_are_refused(organiser_client, organiser):
    events = [_event(organiser, f"e{n}") for n in range(31)]
    answer = organiser_client.post(reverse("tournaments:rating_create"), _form(events))
    assert "A rating reads at most 30 events: you chose 31." in answer.content.decode()
    assert not Rating.objects.exists()


def test_a_private_rating_is_not_there_for_others_and_its_maker_alone_changes_it(
    anonymous, stranger_client, organiser_client, organiser
):
    private = _rating(organiser, [_season(organiser)], Rating.Formula.TENHOU_R, is_public=False)
    assert anonymous.get(private.get_absolute_url()).status_code == 404
    assert stranger_client.get(private.get_absolute_url()).status_code == 404
    assert organiser_client.get(private.get_absolute_url()).status_code == 200
    assert "Season" not in stranger_client.get(reverse("tournaments:ratings")).content.decode()
    public = _rating(organiser, [Event.objects.get()], Rating.Formula.TENHOU_R, name="Open")
    edit = reverse("tournaments:rating_edit", args=[public.pk])
    assert stranger_client.get(edit).status_code == 403
    assert (
        stranger_client.post(reverse("tournaments:rating_delete", args=[public.pk])).status_code
        == 403
    )
    assert Rating.objects.count() == 2
    organiser_client.post(reverse("tournaments:rating_delete", args=[public.pk]))
    assert list(Rating.objects.all()) == [private]


def test_a_public_rating_whose_event_turned_private_is_not_shown_to_others(client, organiser):
    event = _season(organiser)
    rating = _rating(organiser, [event], Rating.Formula.TENHOU_R)
    assert client.get(rating.get_absolute_url()).status_code == 200
    Event.objects.filter(pk=event.pk).update(is_public=False)
    assert client.get(rating.get_absolute_url()).status_code == 404


def test_a_player_without_results_in_the_rating_has_no_trace(client, organiser):
    rating = _rating(organiser, [_season(organiser)], Rating.Formula.TENHOU_R)
    other = Player.objects.create(display_name="Elsewhere")
    page = client.get(reverse("tournaments:rating_player", args=[rating.pk, other.pk]))
    assert page.status_code == 404


def test_the_maker_changes_the_formula_and_the_version_is_pinned_again(organiser_client, organiser):
    event = _season(organiser)
    rating = _rating(organiser, [event], Rating.Formula.MERS)
    answer = organiser_client.post(
        reverse("tournaments:rating_edit", args=[rating.pk]),
        _form([event], formula="best_n", best_of="3", name="Best three"),
    )
    assert answer.status_code == 302
    rating.refresh_from_db()
    assert (rating.name, rating.formula, rating.best_of, rating.formula_version) == (
        "Best three",
        "best_n",
        3,
        1,
    )


def test_a_rating_of_a_formula_version_this_tenbou_lacks_says_so(client, organiser):
    rating = _rating(organiser, [_season(organiser)], Rating.Formula.TENHOU_R)
    Rating.objects.filter(pk=rating.pk).update(formula_version=99)
    page = client.get(rating.get_absolute_url()).content.decode()
    assert "version 99 of its formula" in page


def test_a_rating_and_its_trace_read_in_japanese(client, organiser):
    rating = _rating(organiser, [_season(organiser)], Rating.Formula.TENHOU_R)
    player = Player.objects.get(display_name="A")
    ja = {"HTTP_ACCEPT_LANGUAGE": "ja"}
    page = client.get(rating.get_absolute_url(), **ja).content.decode()
    assert "クラブレーティング（天鳳R）" in page and "このレーティングの計算方法" in page
    trace = client.get(
        reverse("tournaments:rating_player", args=[rating.pk, player.pk]), **ja
    ).content.decode()
    assert "試合数補正" in trace and "第2節 1卓" in trace and "1499.31" in trace


def test_an_account_keeps_at_most_fifty_ratings(organiser_client, organiser):
    event = _season(organiser)
    for number in range(50):
        _rating(organiser, [event], Rating.Formula.TENHOU_R, name=f"R{number}")
    answer = organiser_client.post(reverse("tournaments:rating_create"), _form([event]))
    assert "You keep 50 ratings already: delete one first." in answer.content.decode()
    assert Rating.objects.count() == 50


def test_an_r_rating_past_its_bound_of_games_says_so_and_rates_nothing(
    client, organiser, monkeypatch
):
    monkeypatch.setattr(reading, "MAX_RATING_GAMES", 1)
    rating = _rating(organiser, [_season(organiser)], Rating.Formula.TENHOU_R)
    page = client.get(rating.get_absolute_url()).content.decode()
    assert "This rating would replay more than 1 games: choose fewer events." in page
    assert reading.table(rating).rows == []
