"""Final scores are previewed before they are saved: each seat's score, placement and
match points, and what the sticks left on the table do; scores may be typed in hundreds."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.forms.hands import FinalScoresForm, seat_labels
from tournaments.models import Event, Game

pytestmark = pytest.mark.django_db


def url(name, game):
    return reverse(f"tournaments:{name}", args=[game.pk])


def form(*values, sticks=0, action=None):
    data = {f"score_{seat}": str(v) for seat, v in enumerate(values)}
    data["leftover_sticks"] = str(sticks)
    if action:
        data["action"] = action
    return data


def text(response) -> str:
    return response.content.decode().replace("&#x27;", "'")


def test_the_preview_shows_places_and_match_points_and_stores_nothing(
    organiser_client, final_game, event
):
    before = Event.objects.get(pk=event.pk).results_token

    response = organiser_client.post(
        url("final_scores", final_game), form(41300, 24900, 21800, 12000)
    )

    assert response.status_code == 200
    page = text(response)
    assert "Save these final scores?" in page
    for words in ("41,300", "+61.3", "1st", "+4.9", "−18.2", "−48.0", "4th"):
        assert words in page
    assert 'name="action" value="save"' in page
    final_game.refresh_from_db()
    assert not final_game.is_finished
    assert not final_game.seats.filter(entered_score__isnull=False).exists()
    assert Event.objects.get(pk=event.pk).results_token == before


def test_saving_from_the_preview_finishes_the_game(organiser_client, final_game):
    response = organiser_client.post(
        url("final_scores", final_game), form(41300, 24900, 21800, 12000, action="save")
    )

    assert response.status_code == 302
    final_game.refresh_from_db()
    assert final_game.is_finished
    assert [s.match_points for s in final_game.seats.order_by("seat")] == [
        Decimal("61.3"),
        Decimal("4.9"),
        Decimal("-18.2"),
        Decimal("-48.0"),
    ]


def test_the_preview_spells_out_where_a_leftover_stick_goes(organiser_client, final_game):
    response = organiser_client.post(
        url("final_scores", final_game), form(35000, 30000, 20000, 14000, sticks=1)
    )

    page = text(response)
    assert (
        "1 riichi stick (1,000 points) is left on the table and goes to first place: "
        "Eri's 35,000 becomes 36,000."
    ) in page
    assert not final_game.seats.filter(entered_score__isnull=False).exists()


def test_a_lost_stick_is_said_to_be_lost(organiser_client, event, final_game):
    services.change_event_rules(event.pk, "ari-ari", {"leftover_sticks": "lost"})

    response = organiser_client.post(
        url("final_scores", final_game), form(35000, 30000, 20000, 14000, sticks=1)
    )

    assert "is left on the table and lost: the final scores stand as entered" in text(response)


def test_scores_typed_in_hundreds_are_read_as_hundreds_and_said_so(organiser_client, final_game):
    response = organiser_client.post(url("final_scores", final_game), form(413, 249, 218, 120))

    page = text(response)
    assert "The scores were read as hundreds: 413 is 41,300." in page
    assert "+61.3" in page
    # The preview posts the whole scores on, so saving stores them as points.
    assert 'name="score_0" value="41300"' in page
    organiser_client.post(
        url("final_scores", final_game), form(41300, 24900, 21800, 12000, action="save")
    )
    assert final_game.seats.get(seat=0).entered_score == 41300


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ((41300, 24900, 21800, 12050), "score 12,050 is not whole hundreds"),
        ((413, 249, 218, 12000), "score 413 is not whole hundreds"),
        (("41k", 24900, 21800, 12000), "“41k” is not a score: type the points as a whole number"),
        (("", 24900, 21800, 12000), "Type Eri's final score."),
    ],
)
def test_scores_that_are_not_whole_hundreds_are_refused_with_what_to_type(
    organiser_client, final_game, values, message
):
    response = organiser_client.post(url("final_scores", final_game), form(*values))

    assert response.status_code == 200 and message in text(response)
    assert not final_game.seats.filter(entered_score__isnull=False).exists()
    assert final_game.status == Game.Status.IN_PROGRESS


def test_the_form_accepts_thousands_separators_and_signs():
    seats = seat_labels(["A", "B", "C", "D"], 0)
    data = form("41,300", "+24 900", "55,000", "−21,200")

    bound = FinalScoresForm(data, seats=seats)

    assert bound.is_valid(), bound.errors
    assert bound.scores() == [41300, 24900, 55000, -21200]
    assert not bound.in_hundreds


def test_a_stranger_cannot_preview_final_scores(stranger_client, final_game):
    response = stranger_client.post(url("final_scores", final_game), form(413, 249, 218, 120))
    assert response.status_code == 403
