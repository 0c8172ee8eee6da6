"""A stage's tie-breaks, applied in the order the director lists them."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.tournaments.stage_builders import SEED_EXAMPLE, WIDE, cut, d, play, stage, staged_event
from tournaments.reading.placement import final_placement
from tournaments.reading.stages import StageRow, rank_rows


def _pair(**second) -> list[StageRow]:
    """Two rows on the same total of 20.0 (carried + match points); the second differs
    by what `second` says."""
    first = StageRow(player_id=1, player="Zed", seed=1, carried=d("10.0"), match_points=d("10.0"))
    other = StageRow(player_id=2, player="Amy", seed=2, carried=d("10.0"), match_points=d("10.0"))
    for name, value in second.items():
        setattr(other, name, value)
    other.match_points = d("20.0") - other.carried
    return [first, other]


def _order(rows, tie_breaks) -> list[str]:
    rank_rows(rows, tie_breaks)
    return [f"{r.rank_label} {r.player}" for r in rows]


@pytest.mark.parametrize(
    ("tie_break", "difference"),
    [
        ("total", {"event_total": d("-5.0")}),
        ("carried", {"carried": d("4.0")}),
        ("previous_rank", {"previous_rank": 3}),
        ("best_game", {"best_game": d("12.0")}),
        ("firsts", {"firsts": 0}),
    ],
)
def test_each_tie_break_alone_puts_the_better_player_first(tie_break, difference):
    rows = _pair(**difference)
    rows[0].event_total, rows[0].previous_rank = d("0.0"), 1
    rows[0].best_game, rows[0].firsts = d("30.0"), 1
    rows[1].event_total = difference.get("event_total", d("0.0"))
    rows[1].previous_rank = difference.get("previous_rank", 1)
    rows[1].best_game = difference.get("best_game", d("30.0"))
    rows[1].firsts = difference.get("firsts", 1)
    # Without tie-breaks the two share first place (listed by name).
    assert _order(list(rows), ["shared"]) == ["1= Amy", "1= Zed"]
    # Zed is better on this tie-break alone: more of it, or a better rank.
    assert _order(list(rows), [tie_break]) == ["1 Zed", "2 Amy"]


def test_tie_breaks_apply_in_the_listed_order_and_stop_at_a_shared_place():
    rows = _pair(firsts=2, best_game=d("5.0"))
    rows[0].firsts, rows[0].best_game = 1, d("30.0")
    # First places first: Amy has two to Zed's one.
    assert _order(list(rows), ["firsts", "best_game"]) == ["1 Amy", "2 Zed"]
    # Best game first: Zed's 30.0 beats Amy's 5.0.
    assert _order(list(rows), ["best_game", "firsts"]) == ["1 Zed", "2 Amy"]
    # "shared" ends the list: what follows it is not used.
    assert _order(list(rows), ["shared", "firsts"]) == ["1= Amy", "1= Zed"]
    # A third row below them keeps its own place after the shared one.
    third = StageRow(player_id=3, player="Bo", seed=3, match_points=Decimal("-1.0"))
    assert _order([*rows, third], ["shared"]) == ["1= Amy", "1= Zed", "3 Bo"]


@pytest.mark.django_db
def test_players_eliminated_together_share_the_place_they_left_with(organiser):
    event = staged_event(organiser, "shared", 3)
    stage(event, "Season", 1, 2, tie_breaks=("best_game", "shared"))
    stage(event, "Final", 3, 3, entrants="top", top=4, carry="full")
    # Session 1: A B C D 41,300/24,900/21,800/12,000 -> +61.3, +4.9, -18.2, -48.0;
    #            E F G H the same -> the same.
    # Session 2: A C B D 40,000/30,000/20,000/10,000 -> +60, +10, -20, -50;
    #            E G F H the same.
    # Totals: A and E 121.3; C and G -8.2; B and F 4.9-20 = -15.1; D and H -98.0, each pair
    # equal on their best game too. The cut to 4 falls between G and B.
    play(event, 1, (["A", "B", "C", "D"], SEED_EXAMPLE), (["E", "F", "G", "H"], SEED_EXAMPLE))
    play(event, 2, (["A", "C", "B", "D"], WIDE), (["E", "G", "F", "H"], WIDE))
    assert cut(event, 2) == ["A", "E", "C", "G"]
    placed = [(p.place_label, p.player.display_name, p.points) for p in final_placement(event)]
    assert placed == [
        ("1=", "A", d("121.3")),
        ("1=", "E", d("121.3")),
        ("3=", "C", d("-8.2")),
        ("3=", "G", d("-8.2")),
        ("5=", "B", d("-15.1")),
        ("5=", "F", d("-15.1")),
        ("7=", "D", d("-98.0")),
        ("7=", "H", d("-98.0")),
    ]
