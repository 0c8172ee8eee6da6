"""Small builders for app tests."""

from __future__ import annotations

import datetime

from tournaments import services
from tournaments.models import Event, Session


def final_game(session, names, scores, table, penalties=()):
    """A finished final-score game among players named `names` (created if new)."""
    players = services.players_by_name(names, create=True)
    doc = {
        "format": "tenbou-game/1",
        "rules": "ari-ari",
        "players": names,
        "final_scores": scores,
        "leftover_sticks": 0,
    }
    if penalties:
        doc["penalties"] = list(penalties)
    return services.create_game_from_record(session, doc, players, table_number=table)


def small_league(organiser, *, slug="league", is_public=True) -> Event:
    """Three final-score games over two sessions, with a tie on points and a penalty;
    the standings worked out by hand in test_standings.py."""
    event = Event.objects.create(
        name="League", slug=slug, starts_on=datetime.date(2026, 1, 1), is_public=is_public
    )
    event.organisers.add(organiser)
    one = Session.objects.create(event=event, number=1, date=datetime.date(2026, 1, 1))
    two = Session.objects.create(event=event, number=2, date=datetime.date(2026, 1, 8))
    # Session 1. 41,300/24,900/21,800/12,000 is the seed's worked example.
    final_game(one, ["A", "B", "C", "D"], [41300, 24900, 21800, 12000], 1)
    # 35,000/30,000/20,000/15,000: +5+30+20, 0+10, -10-10, -15-30.
    final_game(one, ["B", "C", "D", "E"], [35000, 30000, 20000, 15000], 2)
    # Session 2. A and C tie on 30,000: A sits nearer the first dealer and places first.
    # E has a 5-point penalty: -15 -30 -5.
    penalty = {"seat": 3, "match_points": -5.0, "reason": "late arrival"}
    final_game(two, ["A", "C", "D", "E"], [30000, 30000, 25000, 15000], 1, [penalty])
    return event


def tied_event(slug="split") -> Event:
    """One game under split ties: two players tie for first and two for third."""
    event = Event.objects.create(
        name="Split",
        slug=slug,
        starts_on=datetime.date(2026, 1, 1),
        rules_overrides={"ties": "split"},
    )
    session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 1, 1))
    final_game(session, ["P", "Q", "R", "S"], [30000, 30000, 20000, 20000], 1)
    return event
