"""Stages played from records: every carry mode and the example formats, with each
finalist's carried points and total worked out by hand in the comments."""

from __future__ import annotations

import pytest

from tests.tournaments.stage_builders import (
    EVEN,
    SEED_EXAMPLE,
    WIDE,
    cut,
    d,
    play,
    stage,
    staged_event,
    table,
)
from tournaments import seat_plans, services
from tournaments.models import Player, Session
from tournaments.reading.placement import final_placement, final_places
from tournaments.reading.stages import all_stage_standings, cut_preview
from tournaments.services import StageRefused
from tournaments.wording.refusals import say

pytestmark = pytest.mark.django_db


def _season(event) -> None:
    """Two sessions of eight players, as the regular season of the M-League test.

    Session 1: P1..P4 41,300/24,900/21,800/12,000 -> +61.3, +4.9, -18.2, -48.0;
               P5..P8 35,000/30,000/20,000/15,000 -> +55, +10, -20, -45.
    Session 2: P5 P1 P6 P2 40,000/30,000/20,000/10,000 -> +60, +10, -20, -50;
               P3 P7 P4 P8 35,000/30,000/20,000/15,000 -> +55, +10, -20, -45.
    Totals: P5 115.0, P1 71.3, P3 36.8, P6 -10.0 and P7 -10.0 (equal on every tie-break:
    best game +10 each, no first place), P2 -45.1, P4 -68.0, P8 -90.0."""
    play(event, 1, (["P1", "P2", "P3", "P4"], SEED_EXAMPLE), (["P5", "P6", "P7", "P8"], EVEN))
    play(event, 2, (["P5", "P1", "P6", "P2"], WIDE), (["P3", "P7", "P4", "P8"], EVEN))


def test_m_league_halves_the_totals_into_the_semi_final_and_again_into_the_final(organiser):
    # M-League: the top 6 of the regular season go to the semi-final with half their
    # points, the top 4 of the semi-final to the final with half again, a halved total
    # rounded up at the hundredth (sources in tournaments/reading/stages.py).
    event = staged_event(organiser, "mleague", 5)
    halved = {"carry": "factor", "carry_factor": d("0.5"), "carry_rounding": "up"}
    stage(event, "Regular season", 1, 2)
    stage(event, "Semi-final", 3, 4, entrants="top", top=6, **halved)
    stage(event, "Final", 5, 5, entrants="top", top=4, **halved)
    _season(event)
    assert cut(event, 2) == ["P5", "P1", "P3", "P6", "P7", "P2"]
    # Six entrants at one table: two byes a session, worth nothing here.
    # Session 3: P6 P7 P2 P3 41,300/24,900/21,800/12,000 -> +61.3, +4.9, -18.2, -48.0.
    # Session 4: P2 P5 P1 P6 35,000/30,000/20,000/15,000 -> +55, +10, -20, -45.
    play(event, 3, (["P6", "P7", "P2", "P3"], SEED_EXAMPLE))
    play(event, 4, (["P2", "P5", "P1", "P6"], EVEN))
    semi = all_stage_standings(event)[1]
    # Carried: 115.0/2 = 57.5; 71.3/2 = 35.65 -> 35.7; 36.8/2 = 18.4; -10.0/2 = -5.0;
    # -45.1/2 = -22.55 -> -22.5 (up, not away from zero).
    # Totals: P5 57.5+10 = 67.5; P1 35.7-20 = 15.7; P2 -22.5-18.2+55 = 14.3;
    # P6 -5.0+61.3-45 = 11.3; P7 -5.0+4.9 = -0.1; P3 18.4-48.0 = -29.6.
    assert table(semi) == [
        ("1", "P5", d("57.5"), d("10.0"), d("67.5")),
        ("2", "P1", d("35.7"), d("-20.0"), d("15.7")),
        ("3", "P2", d("-22.5"), d("36.8"), d("14.3")),
        ("4", "P6", d("-5.0"), d("16.3"), d("11.3")),
        ("5", "P7", d("-5.0"), d("4.9"), d("-0.1")),
        ("6", "P3", d("18.4"), d("-48.0"), d("-29.6")),
    ]
    assert {r.player: r.byes for r in semi.rows} == {
        "P5": 1,
        "P1": 1,
        "P2": 0,
        "P6": 0,
        "P7": 1,
        "P3": 1,
    }
    assert cut(event, 3) == ["P5", "P1", "P2", "P6"]
    # Session 5: P6 P2 P1 P5 40,000/30,000/20,000/10,000 -> +60, +10, -20, -50.
    play(event, 5, (["P6", "P2", "P1", "P5"], WIDE))
    final = all_stage_standings(event)[2]
    # Carried: 67.5/2 = 33.75 -> 33.8; 15.7/2 = 7.85 -> 7.9; 14.3/2 = 7.15 -> 7.2;
    # 11.3/2 = 5.65 -> 5.7. Totals: P6 5.7+60 = 65.7; P2 7.2+10 = 17.2; P1 7.9-20 = -12.1;
    # P5 33.8-50 = -16.2.
    assert table(final) == [
        ("1", "P6", d("5.7"), d("60.0"), d("65.7")),
        ("2", "P2", d("7.2"), d("10.0"), d("17.2")),
        ("3", "P1", d("7.9"), d("-20.0"), d("-12.1")),
        ("4", "P5", d("33.8"), d("-50.0"), d("-16.2")),
    ]
    # Those out after the semi-final keep its places below the final's four; those out
    # after the season keep theirs below them.
    placed = [
        (p.place_label, p.player.display_name, p.points, p.stage, p.eliminated)
        for p in final_placement(event)
    ]
    assert placed == [
        ("1", "P6", d("65.7"), 3, False),
        ("2", "P2", d("17.2"), 3, False),
        ("3", "P1", d("-12.1"), 3, False),
        ("4", "P5", d("-16.2"), 3, False),
        ("5", "P7", d("-0.1"), 2, True),
        ("6", "P3", d("-29.6"), 2, True),
        ("7", "P4", d("-68.0"), 1, True),
        ("8", "P8", d("-90.0"), 1, True),
    ]
    # The places by player id (the player page's) follow the stages too.
    places = final_places(event)
    assert [places[p.player.pk] for p in final_placement(event)] == [
        (n, False) for n in range(1, 9)
    ]


def test_half_up_rounding_takes_a_negative_half_away_from_zero(organiser):
    event = staged_event(organiser, "halfup", 3)
    stage(event, "Season", 1, 2)
    stage(
        event,
        "Final",
        3,
        3,
        entrants="top",
        top=8,
        carry="factor",
        carry_factor=d("0.5"),
        carry_rounding="half_up",
    )
    _season(event)
    cut(event, 2)
    carried = {r.player: r.carried for r in all_stage_standings(event)[1].rows}
    # 71.3/2 = 35.65 -> 35.7; -45.1/2 = -22.55 -> -22.6; the others halve exactly.
    assert carried == {
        "P5": d("57.5"),
        "P1": d("35.7"),
        "P3": d("18.4"),
        "P6": d("-5.0"),
        "P7": d("-5.0"),
        "P2": d("-22.6"),
        "P4": d("-34.0"),
        "P8": d("-45.0"),
    }


def _club(event) -> None:
    """Eight players over two sessions.

    Session 1: A B C D 41,300/24,900/21,800/12,000 -> +61.3, +4.9, -18.2, -48.0;
               E F G H 35,000/30,000/20,000/15,000 -> +55, +10, -20, -45.
    Session 2: E A F B 40,000/30,000/20,000/10,000 -> +60, +10, -20, -50;
               C G H D 35,000/30,100/20,000/14,900 -> +55, +0.1+10 = +10.1, -20,
               -15.1-30 = -45.1.
    Totals: E 115.0, A 71.3, C 36.8, G -9.9, F -10.0, B -45.1, H -65.0, D -93.1."""
    play(event, 1, (["A", "B", "C", "D"], SEED_EXAMPLE), (["E", "F", "G", "H"], EVEN))
    play(
        event, 2, (["E", "A", "F", "B"], WIDE), (["C", "G", "H", "D"], [35000, 30100, 20000, 14900])
    )


def test_a_club_final_resets_the_totals_and_seeds_forty_thirty_twenty_ten_nothing(organiser):
    event = staged_event(organiser, "club", 4)
    stage(event, "Club nights", 1, 2)
    stage(
        event,
        "Club final",
        3,
        4,
        entrants="top",
        top=5,
        carry="seed_table",
        carry_table=("40", "30", "20", "10", "0"),
    )
    _club(event)
    assert cut(event, 2) == ["E", "A", "C", "G", "F"]
    # Five finalists at one table: one bye a session.
    # Session 3: F G C A 41,300/24,900/21,800/12,000 -> +61.3, +4.9, -18.2, -48.0 (E out).
    # Session 4: A E G F 35,000/30,000/20,000/15,000 -> +55, +10, -20, -45 (C out).
    play(event, 3, (["F", "G", "C", "A"], SEED_EXAMPLE))
    play(event, 4, (["A", "E", "G", "F"], EVEN))
    # Totals: E 40+10 = 50.0; A 30-48+55 = 37.0; F 0+61.3-45 = 16.3; C 20-18.2 = 1.8;
    # G 10+4.9-20 = -5.1.
    assert table(all_stage_standings(event)[1]) == [
        ("1", "E", d("40.0"), d("10.0"), d("50.0")),
        ("2", "A", d("30.0"), d("7.0"), d("37.0")),
        ("3", "F", d("0.0"), d("16.3"), d("16.3")),
        ("4", "C", d("20.0"), d("-18.2"), d("1.8")),
        ("5", "G", d("10.0"), d("-15.1"), d("-5.1")),
    ]
    placed = [(p.place, p.player.display_name, p.points) for p in final_placement(event)]
    assert placed[5:] == [(6, "B", d("-45.1")), (7, "H", d("-65.0")), (8, "D", d("-93.1"))]


def test_full_carry_and_brackets_of_starting_points_and_a_reset(organiser):
    event = staged_event(organiser, "modes", 5)
    stage(event, "Qualifying", 1, 2)
    stage(event, "Full", 3, 3, entrants="top", top=4, carry="full")
    stage(
        event, "Brackets", 4, 4, entrants="top", top=4, carry="brackets", carry_table=(29000, 21000)
    )
    stage(event, "Reset", 5, 5, entrants="everyone", carry="none")
    _club(event)
    assert cut(event, 2) == ["E", "A", "C", "G"]
    # Session 3: G C A E 35,000/30,000/20,000/15,000 -> +55, +10, -20, -45.
    play(event, 3, (["G", "C", "A", "E"], EVEN))
    # Full: E 115.0-45 = 70.0; A 71.3-20 = 51.3; G -9.9+55 = 45.1; C 36.8+10 = 46.8.
    assert table(all_stage_standings(event)[1]) == [
        ("1", "E", d("115.0"), d("-45.0"), d("70.0")),
        ("2", "A", d("71.3"), d("-20.0"), d("51.3")),
        ("3", "C", d("36.8"), d("10.0"), d("46.8")),
        ("4", "G", d("-9.9"), d("55.0"), d("45.1")),
    ]
    assert cut(event, 3) == ["E", "A", "C", "G"]
    # Brackets of two by seed under a 25,000 start: 29,000 is +4.0, 21,000 is -4.0.
    # Session 4: C G E A 40,000/30,000/20,000/10,000 -> +60, +10, -20, -50.
    play(event, 4, (["C", "G", "E", "A"], WIDE))
    # C -4.0+60 = 56.0; G -4.0+10 = 6.0; E 4.0-20 = -16.0; A 4.0-50 = -46.0.
    assert table(all_stage_standings(event)[2]) == [
        ("1", "C", d("-4.0"), d("60.0"), d("56.0")),
        ("2", "G", d("-4.0"), d("10.0"), d("6.0")),
        ("3", "E", d("4.0"), d("-20.0"), d("-16.0")),
        ("4", "A", d("4.0"), d("-50.0"), d("-46.0")),
    ]
    assert cut(event, 4) == ["C", "G", "E", "A"]
    # Reset: nothing carried. Session 5: A E G C 35,000/30,000/20,000/15,000.
    play(event, 5, (["A", "E", "G", "C"], EVEN))
    assert table(all_stage_standings(event)[3]) == [
        ("1", "A", d("0.0"), d("55.0"), d("55.0")),
        ("2", "E", d("0.0"), d("10.0"), d("10.0")),
        ("3", "G", d("0.0"), d("-20.0"), d("-20.0")),
        ("4", "C", d("0.0"), d("-45.0"), d("-45.0")),
    ]


@pytest.mark.slow
def test_a_cut_to_the_top_32_after_nine_games_carries_every_total_in_full(organiser):
    # 36 players at nine tables, the same tables in each of nine sessions; table t scores
    # 35,000+100t / 30,000+100t / 20,000-100t / 15,000-100t, so per game its seats get
    # +55+0.1t, +10+0.1t, -20-0.1t, -45-0.1t, and after nine games nine times that:
    # seat 1 495+0.9t, seat 2 90+0.9t, seat 3 -180-0.9t, seat 4 -405-0.9t. The top 32
    # are every first, second and third seat and the fourth seats of tables 1 to 5.
    event = staged_event(organiser, "top32", 10)
    stage(event, "Qualifying", 1, 9)
    stage(event, "Final stage", 10, 10, entrants="top", top=32, carry="full")
    for number in range(1, 10):
        play(
            event,
            number,
            *[
                (
                    [f"T{t}S{s}" for s in range(1, 5)],
                    [35000 + 100 * t, 30000 + 100 * t, 20000 - 100 * t, 15000 - 100 * t],
                )
                for t in range(1, 10)
            ],
        )
    seeded = cut(event, 2)
    assert len(seeded) == 32
    assert seeded[:3] == ["T9S1", "T8S1", "T7S1"] and seeded[-3:] == ["T3S4", "T4S4", "T5S4"]
    # The final session seats seeds 1-4 at table 1, 5-8 at table 2, ... each table
    # 35,000/30,000/20,000/15,000 in seed order: +55, +10, -20, -45 by seed 1, 2, 3, 4 (mod 4).
    play(event, 10, *[(seeded[4 * k : 4 * k + 4], EVEN) for k in range(8)])
    assert table(all_stage_standings(event)[1]) == [
        ("1", "T9S1", d("503.1"), d("55.0"), d("558.1")),
        ("2", "T5S1", d("499.5"), d("55.0"), d("554.5")),
        ("3", "T1S1", d("495.9"), d("55.0"), d("550.9")),
        ("4", "T8S1", d("502.2"), d("10.0"), d("512.2")),
        ("5", "T4S1", d("498.6"), d("10.0"), d("508.6")),
        ("6", "T7S1", d("501.3"), d("-20.0"), d("481.3")),
        ("7", "T3S1", d("497.7"), d("-20.0"), d("477.7")),
        ("8", "T6S1", d("500.4"), d("-45.0"), d("455.4")),
        ("9", "T2S1", d("496.8"), d("-45.0"), d("451.8")),
        ("10", "T6S2", d("95.4"), d("55.0"), d("150.4")),
        ("11", "T2S2", d("91.8"), d("55.0"), d("146.8")),
        ("12", "T9S2", d("98.1"), d("10.0"), d("108.1")),
        ("13", "T5S2", d("94.5"), d("10.0"), d("104.5")),
        ("14", "T1S2", d("90.9"), d("10.0"), d("100.9")),
        ("15", "T8S2", d("97.2"), d("-20.0"), d("77.2")),
        ("16", "T4S2", d("93.6"), d("-20.0"), d("73.6")),
        ("17", "T7S2", d("96.3"), d("-45.0"), d("51.3")),
        ("18", "T3S2", d("92.7"), d("-45.0"), d("47.7")),
        ("19", "T3S3", d("-182.7"), d("55.0"), d("-127.7")),
        ("20", "T7S3", d("-186.3"), d("55.0"), d("-131.3")),
        ("21", "T4S3", d("-183.6"), d("10.0"), d("-173.6")),
        ("22", "T8S3", d("-187.2"), d("10.0"), d("-177.2")),
        ("23", "T1S3", d("-180.9"), d("-20.0"), d("-200.9")),
        ("24", "T5S3", d("-184.5"), d("-20.0"), d("-204.5")),
        ("25", "T9S3", d("-188.1"), d("-20.0"), d("-208.1")),
        ("26", "T2S3", d("-181.8"), d("-45.0"), d("-226.8")),
        ("27", "T6S3", d("-185.4"), d("-45.0"), d("-230.4")),
        ("28", "T2S4", d("-406.8"), d("55.0"), d("-351.8")),
        ("29", "T3S4", d("-407.7"), d("10.0"), d("-397.7")),
        ("30", "T4S4", d("-408.6"), d("-20.0"), d("-428.6")),
        ("31", "T1S4", d("-405.9"), d("-45.0"), d("-450.9")),
        ("32", "T5S4", d("-409.5"), d("-45.0"), d("-454.5")),
    ]
    placed = [(p.place, p.player.display_name, p.eliminated) for p in final_placement(event)]
    # Out at the cut: the fourth seats of tables 6 to 9, in their qualifying order.
    assert placed[32:] == [
        (33, "T6S4", True),
        (34, "T7S4", True),
        (35, "T8S4", True),
        (36, "T9S4", True),
    ]


def test_a_cut_line_between_equal_players_is_refused_and_nothing_is_cut(organiser):
    event = staged_event(organiser, "line", 3)
    stage(event, "Season", 1, 2)
    final = stage(event, "Final", 3, 3, entrants="top", top=4, carry="full")
    _season(event)
    standings = all_stage_standings(event)
    preview = cut_preview(final, standings[0])
    # P6 and P7 share 4th place on every tie-break (see _season).
    assert "Place 4 is shared" in say(preview.refusal)
    assert not final.entries.exists()


def test_a_stage_with_no_results_yet_ranks_on_carried_points(organiser):
    event = staged_event(organiser, "fresh", 3)
    stage(event, "Season", 1, 2)
    stage(event, "Final", 3, 3, entrants="top", top=3, carry="full")
    _season(event)
    assert cut(event, 2) == ["P5", "P1", "P3"]
    final = all_stage_standings(event)[1]
    assert [(r.rank, r.player, r.total, r.games) for r in final.rows] == [
        (1, "P5", d("115.0"), 0),
        (2, "P1", d("71.3"), 0),
        (3, "P3", d("36.8"), 0),
    ]
    # The final's three lead the placement although they have not played it yet.
    assert [p.player.display_name for p in final_placement(event)][:3] == ["P5", "P1", "P3"]


def test_a_stage_with_its_own_preset_scores_its_games_under_it(organiser):
    event = staged_event(organiser, "ownrules", 3)
    stage(event, "Season", 1, 2)
    stage(event, "Final", 3, 3, entrants="top", top=3, carry="none", rules_preset="tenhou")
    _season(event)
    cut(event, 2)
    # Tenhou's uma is +20/+10/-10/-20 (oka +20 as under ari-ari): 35,000/30,000/20,000/
    # 15,000 gives +5+20+20 = +45, +10, -10-10 = -20, -15-20 = -35. P4 sits in for the
    # fourth seat: a fourth player at the table, out of the final's standings.
    play(event, 3, (["P5", "P1", "P3", "P4"], EVEN))
    assert table(all_stage_standings(event)[1]) == [
        ("1", "P5", d("0.0"), d("45.0"), d("45.0")),
        ("2", "P1", d("0.0"), d("10.0"), d("10.0")),
        ("3", "P3", d("0.0"), d("-20.0"), d("-20.0")),
    ]
    # The season's games stay under the event's ari-ari: P5's 115.0 there is unchanged.
    assert all_stage_standings(event)[0].rows[0].total == d("115.0")


def test_a_stage_preset_cannot_change_over_sessions_with_results(organiser):
    event = staged_event(organiser, "lateRules".lower(), 2)
    _season(event)
    with pytest.raises(StageRefused, match="has results under the rules"):
        stage(event, "Season", 1, 2, rules_preset="tenhou")
    with pytest.raises(StageRefused, match="as many players"):
        stage(event, "Season", 1, 2, rules_preset="tenhou-sanma")
    assert not event.stages.exists()


def test_points_for_a_bye_count_for_each_session_an_entrant_sits_out(organiser):
    event = staged_event(organiser, "byes", 4)
    stage(event, "Club nights", 1, 2)
    stage(
        event,
        "Club final",
        3,
        4,
        entrants="top",
        top=5,
        carry="seed_table",
        carry_table=("40", "30", "20", "10", "0"),
        bye_points=d("2.5"),
    )
    _club(event)
    cut(event, 2)
    play(event, 3, (["F", "G", "C", "A"], SEED_EXAMPLE))
    play(event, 4, (["A", "E", "G", "F"], EVEN))
    # As in the club final above, with 2.5 for E's bye in session 3 and C's in session 4:
    # E 50.0 + 2.5 = 52.5; C 1.8 + 2.5 = 4.3; A, F and G played both sessions.
    final = all_stage_standings(event)[1]
    assert [(r.player, r.byes, r.total) for r in final.rows] == [
        ("E", 1, d("52.5")),
        ("A", 0, d("37.0")),
        ("F", 0, d("16.3")),
        ("C", 1, d("4.3")),
        ("G", 0, d("-5.1")),
    ]


def test_swiss_seating_of_a_stage_follows_its_standings_and_sits_out_the_last(organiser):
    event = staged_event(organiser, "swiss", 3)
    stage(event, "Season", 1, 2)
    semi = stage(
        event,
        "Semi",
        3,
        3,
        entrants="seeds",
        carry="seed_table",
        carry_table=("50", "40", "30", "20", "10", "0"),
    )
    _season(event)
    # Seeded against the season's order: the season's best two are seeded last.
    seeds = ["P2", "P7", "P6", "P3", "P1", "P5"]
    services.cut_to_stage(semi.pk, [Player.objects.get(display_name=n).pk for n in seeds])
    session = Session.objects.select_related("event").get(event=event, number=3)
    proposal = seat_plans.propose(session, "swiss")
    # Six entrants at tables of four: the four best of the stage's standings (50, 40, 30
    # and 20 carried) at the one table; the last two, P1 and P5, sit out, although they
    # lead the event's standings.
    assert {p.display_name for _w, p in proposal.tables[0].seats} == {"P2", "P7", "P6", "P3"}
    assert sorted(p.display_name for p in proposal.sitting_out) == ["P1", "P5"]
