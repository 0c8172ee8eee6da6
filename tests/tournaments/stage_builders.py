"""Events with stages, played from final-score records (ari-ari: 25,000 start, 30,000
return, uma +30/+10/-10/-30, oka +20 to first)."""

from __future__ import annotations

import datetime
from decimal import Decimal

from tests.tournaments.builders import final_game
from tournaments import services
from tournaments.models import Event, Session, Stage
from tournaments.reading.stages import all_stage_standings, cut_preview

# Three final scores used again and again, with their match points worked out by hand:
# 41,300/24,900/21,800/12,000: +11.3+30+20 = +61.3, -5.1+10 = +4.9, -8.2-10 = -18.2,
#   -18-30 = -48.0;
# 35,000/30,000/20,000/15,000: +5+30+20 = +55, 0+10 = +10, -10-10 = -20, -15-30 = -45;
# 40,000/30,000/20,000/10,000: +10+30+20 = +60, +10, -20, -20-30 = -50.
SEED_EXAMPLE = [41300, 24900, 21800, 12000]
EVEN = [35000, 30000, 20000, 15000]
WIDE = [40000, 30000, 20000, 10000]


def staged_event(organiser, slug: str, sessions: int) -> Event:
    event = Event.objects.create(
        name=slug.title(), slug=slug, starts_on=datetime.date(2026, 3, 1), kind="tournament"
    )
    event.organisers.add(organiser)
    for number in range(1, sessions + 1):
        Session.objects.create(event=event, number=number, date=datetime.date(2026, 3, number))
    return event


def session(event: Event, number: int) -> Session:
    # Read afresh with its event, as a request would: the event's stage count changed
    # since `event` was made.
    return Session.objects.select_related("event").get(event_id=event.pk, number=number)


def play(event: Event, number: int, *tables) -> None:
    """Each table as (names in seat order, final scores)."""
    for table, (names, scores) in enumerate(tables, start=1):
        final_game(session(event, number), list(names), list(scores), table)


def stage(event: Event, name: str, first: int, last: int, **settings) -> Stage:
    return services.add_stage(
        event.pk, services.StagePlan(name=name, first_session=first, last_session=last, **settings)
    )


def cut(event: Event, number: int) -> list[str]:
    """Cut to stage `number` as its settings say (top N, everyone); the names seeded."""
    standings = all_stage_standings(event)
    target = standings[number - 1].stage
    preview = cut_preview(target, standings[number - 2])
    assert preview.refusal is None
    services.cut_to_stage(target.pk, [row.player_id for row in preview.rows])
    return [row.player for row in preview.rows]


def table(standings) -> list[tuple]:
    """(rank label, name, carried, stage match points, total) of every row."""
    return [(r.rank_label, r.player, r.carried, r.match_points, r.total) for r in standings.rows]


def d(text: str) -> Decimal:
    return Decimal(text)
