"""The final placement of an event without stages: its standings' order and shared places."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.tournaments.builders import small_league, tied_event
from tournaments.reading.placement import Placed, final_placement, final_places

pytestmark = pytest.mark.django_db


def test_an_event_without_stages_is_placed_in_its_standings_order(organiser):
    event = small_league(organiser)
    placed = final_placement(event)
    # The totals of test_standings.py, worked out by hand there.
    assert [(p.place, p.player.display_name, p.points, p.shared) for p in placed] == [
        (1, "A", Decimal("111.3"), False),
        (2, "B", Decimal("59.9"), False),
        (3, "C", Decimal("1.8"), False),
        (4, "D", Decimal("-83.0"), False),
        (5, "E", Decimal("-95.0"), False),
    ]
    assert all(p.stage is None and not p.eliminated for p in placed)
    assert isinstance(placed[0], Placed)


def test_players_equal_after_every_tie_break_share_a_place(organiser):
    placed = final_placement(tied_event())
    # Split ties (worked in test_standings.py): P and Q share first on +30 each; R and S
    # share third on (-10 - 30) / 2 - 10 for 20,000 under a 30,000 return = -30 each.
    assert [(p.place_label, p.player.display_name, p.points) for p in placed] == [
        ("1=", "P", Decimal("30.0")),
        ("1=", "Q", Decimal("30.0")),
        ("3=", "R", Decimal("-30.0")),
        ("3=", "S", Decimal("-30.0")),
    ]


def test_an_event_without_games_has_no_placement(event):
    assert final_placement(event) == []


def places_of(event) -> dict[int, tuple[int, bool]]:
    return {p.player.pk: (p.place, p.shared) for p in final_placement(event)}


def test_the_places_by_id_are_those_of_the_placement_with_and_without_ties(organiser):
    tied = tied_event()
    for event in (small_league(organiser), tied):
        assert final_places(event) == places_of(event)
    assert set(final_places(tied).values()) == {(1, True), (3, True)}
