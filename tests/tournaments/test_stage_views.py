"""The stage pages: a director adds stages (and is refused with a reason), cuts with a
preview, hides totals from players; the standings page and its file show the placement."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.urls import reverse
from django.utils import translation

from tests.tournaments.stage_builders import EVEN, SEED_EXAMPLE, WIDE, play, stage, staged_event
from tournaments import seat_plans, services
from tournaments.models import Session, Stage, StageEntrant

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Final",
    "first_session": "3",
    "last_session": "3",
    "entrants": "top",
    "top": "4",
    "carry": "factor",
    "carry_factor": "0.5",
    "carry_rounding": "half_up",
    "carry_table": "",
    "bye_points": "0",
    "rules_preset": "",
    "seating_method": "",
}


@pytest.fixture
def season(organiser):
    """Eight players over sessions 1 and 2 (totals as in test_stages.py's club: E 115.0,
    A 71.3, C 36.8, G -9.9, F -10.0, B -45.1, H -65.0, D -93.1) and a first stage."""
    event = staged_event(organiser, "cup", 3)
    stage(event, "Qualifying", 1, 2)
    play(event, 1, (["A", "B", "C", "D"], SEED_EXAMPLE), (["E", "F", "G", "H"], EVEN))
    play(
        event, 2, (["E", "A", "F", "B"], WIDE), (["C", "G", "H", "D"], [35000, 30100, 20000, 14900])
    )
    return event


def test_a_director_adds_a_stage_with_halved_points(organiser_client, season):
    url = reverse("tournaments:stage_create", args=[season.slug])
    assert organiser_client.get(url).status_code == 200
    response = organiser_client.post(url, FORM)
    assert response.status_code == 302
    final = Stage.objects.get(event=season, number=2)
    assert (final.entrants, final.top, final.carry, str(final.carry_factor)) == (
        "top",
        4,
        "factor",
        "0.50",
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"first_session": "2"}, "Stage 1 ends with session 2"),
        ({"top": ""}, "Say how many go through"),
        ({"carry_factor": ""}, "Give the factor"),
        ({"carry": "seed_table", "carry_table": "40/x"}, "Write numbers separated by slashes"),
        ({"carry": "brackets", "carry_table": "29000/21050"}, "positive multiple of 100"),
        ({"carry": "brackets", "carry_table": "29000.5"}, "whole points"),
        ({"tie_breaks_0": "total", "tie_breaks_1": "luck"}, "Select a valid choice"),
        ({"tie_breaks_0": "total", "tie_breaks_1": "total"}, "Each tie-break may be chosen once"),
        ({"top": "100000"}, "less than or equal to 1000"),
        ({"name": ""}, "This field is required"),
    ],
)
def test_a_stage_that_cannot_be_is_refused_with_a_reason_and_nothing_stored(
    organiser_client, season, change, message
):
    url = reverse("tournaments:stage_create", args=[season.slug])
    response = organiser_client.post(url, FORM | change)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert Stage.objects.filter(event=season).count() == 1


def test_a_refusal_speaks_japanese_on_a_japanese_page(organiser_client, season):
    url = reverse("tournaments:stage_create", args=[season.slug])
    with translation.override("ja"):
        response = organiser_client.post(
            url, FORM | {"first_session": "2"}, HTTP_ACCEPT_LANGUAGE="ja"
        )
    text = response.content.decode()
    assert "Stage 1 ends with session 2" not in text
    assert "ステージ1" in text


def test_an_event_holds_a_bounded_number_of_stages(organiser_client, season):
    for number in range(2, 9):
        stage(season, f"Round {number}", number + 1, number + 1)
    url = reverse("tournaments:stage_create", args=[season.slug])
    response = organiser_client.post(url, FORM | {"first_session": "20", "last_session": "20"})
    assert "An event has at most 8 stages." in response.content.decode()


def test_the_cut_previews_who_goes_through_and_fixes_them_on_confirm(organiser_client, season):
    final = stage(season, "Final", 3, 3, entrants="top", top=4, carry="full")
    url = reverse("tournaments:stage_cut", args=[season.slug, 2])
    preview = organiser_client.get(url).content.decode()
    assert preview.index(">E<") < preview.index(">A<") < preview.index(">C<") < preview.index(">G<")
    assert ">F<" not in preview
    assert not StageEntrant.objects.filter(stage=final).exists()
    response = organiser_client.post(url, {"confirm": "1"})
    assert response.status_code == 302
    seeded = StageEntrant.objects.filter(stage=final).order_by("seed")
    assert [e.player.display_name for e in seeded] == ["E", "A", "C", "G"]
    # The final's session seats the four entrants, not the eight players.
    session = Session.objects.select_related("event").get(event=season, number=3)
    assert {p.display_name for p in seat_plans.playing(session)} == {"E", "A", "C", "G"}
    page = organiser_client.get(reverse("tournaments:stage", args=[season.slug, 2]))
    assert "115.0" in page.content.decode()


def test_a_seeded_cut_takes_the_names_in_seed_order_and_refuses_unknown_names(
    organiser_client, season
):
    final = stage(
        season,
        "Club final",
        3,
        3,
        entrants="seeds",
        carry="seed_table",
        carry_table=("40", "30", "20", "10"),
    )
    url = reverse("tournaments:stage_cut", args=[season.slug, 2])
    refused = organiser_client.get(url, {"names": "G\nNobody"}).content.decode()
    assert "No player is called Nobody." in refused
    response = organiser_client.post(url, {"names": "G\nE\nA\nC", "confirm": "1"})
    assert response.status_code == 302
    assert [e.player.display_name for e in final.entries.order_by("seed")] == ["G", "E", "A", "C"]


def test_hidden_totals_are_kept_from_players_but_not_from_the_director(
    organiser_client, anonymous, season
):
    final = stage(season, "Final", 3, 3, entrants="top", top=4, carry="full")
    organiser_client.post(reverse("tournaments:stage_cut", args=[season.slug, 2]), {"confirm": "1"})
    organiser_client.post(reverse("tournaments:stage_hide", args=[season.slug, 2]), {"hidden": "1"})
    final.refresh_from_db()
    assert final.hidden
    standings = reverse("tournaments:standings", args=[season.slug])
    stage_page = reverse("tournaments:stage", args=[season.slug, 2])
    placement = reverse("tournaments:placement_export", args=[season.slug])
    for url in (standings, stage_page):
        text = anonymous.get(url).content.decode()
        assert "hide the totals" in text and "115.0" not in text
    assert anonymous.get(placement).status_code == 404
    # Nor does the room's screen show them.
    live = reverse("tournaments:live", args=[season.slug])
    assert "115.0" not in anonymous.get(live).content.decode()
    assert "115.0" in organiser_client.get(standings).content.decode()
    assert "115.0" in organiser_client.get(stage_page).content.decode()
    # Seating still works for the director.
    seat = reverse("tournaments:seat_players", args=[season.slug, 3])
    assert organiser_client.get(seat).status_code == 200
    organiser_client.post(reverse("tournaments:stage_hide", args=[season.slug, 2]), {"hidden": "0"})
    assert "115.0" in anonymous.get(standings).content.decode()
    assert "115.0" in anonymous.get(live).content.decode()


def test_the_standings_page_and_the_file_show_the_final_placement(anonymous, season):
    stage(season, "Final", 3, 3, entrants="top", top=4, carry="full")
    from tests.tournaments.stage_builders import cut

    cut(season, 2)
    page = anonymous.get(reverse("tournaments:standings", args=[season.slug])).content.decode()
    assert "Final placement" in page
    response = anonymous.get(
        reverse("tournaments:placement_export", args=[season.slug]), {"_export": "csv"}
    )
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    # The final's four on their carried totals (no game yet), then the others as they left.
    assert rows[0] == ["Place", "Player", "Total", "Stage"]
    assert rows[1:] == [
        ["1", "E", "115.0", "Final"],
        ["2", "A", "71.3", "Final"],
        ["3", "C", "36.8", "Final"],
        ["4", "G", "-9.9", "Final"],
        ["5", "F", "-10.0", "Qualifying"],
        ["6", "B", "-45.1", "Qualifying"],
        ["7", "H", "-65.0", "Qualifying"],
        ["8", "D", "-93.1", "Qualifying"],
    ]


def test_the_last_stage_alone_may_be_removed(organiser_client, season):
    stage(season, "Final", 3, 3, entrants="top", top=4, carry="full")
    first = reverse("tournaments:stage_remove", args=[season.slug, 1])
    organiser_client.post(first)
    assert Stage.objects.filter(event=season).count() == 2
    organiser_client.post(reverse("tournaments:stage_remove", args=[season.slug, 2]))
    assert list(Stage.objects.filter(event=season).values_list("number", flat=True)) == [1]


def test_a_stage_session_is_seated_only_after_the_cut(organiser_client, season):
    stage(season, "Final", 3, 3, entrants="top", top=4, carry="full")
    seat = reverse("tournaments:seat_players", args=[season.slug, 3])
    page = organiser_client.get(seat).content.decode()
    assert "which nobody has entered yet: cut to it on its stage page first" in page
    organiser_client.post(reverse("tournaments:stage_cut", args=[season.slug, 2]), {"confirm": "1"})
    page = organiser_client.get(seat).content.decode()
    assert "nobody has entered" not in page
    # The plan seats the four finalists at one table.
    response = organiser_client.post(
        seat, {"method": "random", "entry_mode": "hands", "rounds": "1", "preview": "1"}
    )
    text = response.content.decode()
    assert all(name in text for name in ("E", "A", "C", "G"))
    assert "Preview: 1 table" in text


def test_the_service_refuses_a_seating_method_the_seating_page_does_not_know(season):
    with pytest.raises(services.StageRefused, match="seating methods"):
        stage(season, "Final", 3, 3, seating_method="by height")
    assert Stage.objects.filter(event=season).count() == 1


def test_the_seating_page_starts_from_the_stage_s_own_method(organiser_client, season):
    stage(season, "Final", 3, 3, entrants="top", top=4, carry="full", seating_method="swiss")
    organiser_client.post(reverse("tournaments:stage_cut", args=[season.slug, 2]), {"confirm": "1"})
    page = organiser_client.get(reverse("tournaments:seat_players", args=[season.slug, 3]))
    assert re.search(r'value="swiss"[^>]*checked', page.content.decode())


def test_the_cut_waits_until_every_game_of_the_previous_stage_is_finished(organiser_client, season):
    final = stage(season, "Final", 3, 3, entrants="top", top=4, carry="full")
    # A game of the qualifying stage still being played: its players could still rise.
    session = Session.objects.get(event=season, number=2)
    players = services.players_by_name(["A", "B", "C", "D"])
    services.create_game(session, players, table_number=3)
    url = reverse("tournaments:stage_cut", args=[season.slug, 2])
    preview = organiser_client.get(url).content.decode()
    assert "Games of Qualifying are not finished yet (1 left)" in preview
    assert "Confirm the cut" not in preview
    organiser_client.post(url, {"confirm": "1"})
    assert not StageEntrant.objects.filter(stage=final).exists()
    with pytest.raises(services.StageRefused, match="not finished"):
        services.cut_to_stage(final.pk, [p.pk for p in players])
    assert not StageEntrant.objects.filter(stage=final).exists()
