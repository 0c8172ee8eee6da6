"""Calling time, the round clock, table links and locks, and seating a session."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from scoring.errors import gettext_noop
from scoring.game import GameResult

from .. import trail, versions
from ..limits import CLOCK_MAX_MINUTES, SEATING_TABLE_LIMIT
from ..models import Game, GameSeat, Hand, Penalty, Player, Session, TableLink, TeamMember
from ..trail import Actor, Kind
from .errors import GameChangeRefused
from .games import _ended, _locked_game, _require_open, _store_results, create_game, replay_record


def _call_time(game: Game, actor: Actor | None) -> GameResult:
    if game.entry_mode != Game.EntryMode.HANDS:
        raise GameChangeRefused(
            gettext_noop("This game records final scores only: enter its final scores instead.")
        )
    _require_open(game)
    if not game.hands.exists():
        raise GameChangeRefused(
            gettext_noop(
                "No hand of this game has been entered, so it cannot end by time: enter the "
                "hands played first."
            )
        )
    game.ended_early = "time"
    record = game.to_record()
    result = replay_record(record)
    game.save(update_fields=["ended_early", "updated_at"])
    _store_results(game, result, record=record, finish=True)
    trail.write(Kind.TIME_CALLED, actor=actor, game=game, after=_ended(game))
    return result


def call_time(game_id: int, *, actor: Actor | None = None) -> GameResult:
    """End a game in progress after its last hand entered, wherever the rules would have
    gone on; `reopen_game` takes it back."""
    with transaction.atomic():
        return _call_time(_locked_game(game_id), actor)


@dataclass(frozen=True)
class TimeCalled:
    ended: list[Game]  # ended by time now
    not_started: list[Game]  # in progress without a hand entered: left as they are


def call_time_on_session(session_id: int, *, actor: Actor | None = None) -> TimeCalled:
    """Call time on every game of the session that is still being played hand by hand.
    Games with no hand entered yet are left alone and named; all the rest end together
    or, if one cannot, none does."""
    with transaction.atomic():
        games = list(
            Game.objects.select_for_update(of=("self",))
            .select_related("session__event")
            .filter(
                session_id=session_id,
                status=Game.Status.IN_PROGRESS,
                entry_mode=Game.EntryMode.HANDS,
            )
            .order_by("table_number", "pk")
        )
        # Counted apart: PostgreSQL locks no rows of a grouped query.
        with_hands = set(
            Hand.objects.filter(game__in=[g.pk for g in games]).values_list("game_id", flat=True)
        )
        ended, not_started = [], []
        for game in games:
            if game.pk not in with_hands:
                not_started.append(game)
                continue
            try:
                _call_time(game, actor)
            except GameChangeRefused as err:
                raise GameChangeRefused(
                    gettext_noop("Table %(table)s: %(problem)s"),
                    table=game.table_number,
                    problem=err.phrase,
                ) from None
            ended.append(game)
        _clock_out(session_id)
        return TimeCalled(ended, not_started)


def _clock_out(session_id: int) -> None:
    """Time is up for the whole room: a round clock still running shows "Time" now."""
    now = timezone.now()
    session = Session.objects.select_for_update().get(pk=session_id)
    if session.clock_ends_at and session.clock_ends_at > now:
        session.clock_ends_at = now
        session.save(update_fields=["clock_ends_at"])


def start_round_clock(session_id: int, minutes: int, *, now=None) -> Session:
    """Start (or start again) the session's round clock: `minutes` from now."""
    if not 1 <= minutes <= CLOCK_MAX_MINUTES:
        raise GameChangeRefused(
            gettext_noop(
                "A round lasts from 1 to %(most)s minutes; give its length in minutes, e.g. 90."
            ),
            most=CLOCK_MAX_MINUTES,
        )
    now = now or timezone.now()
    with transaction.atomic():
        session = Session.objects.select_for_update().get(pk=session_id)
        session.clock_minutes = minutes
        session.clock_ends_at = now + timedelta(minutes=minutes)
        session.save(update_fields=["clock_minutes", "clock_ends_at"])
        return session


def stop_round_clock(session_id: int) -> Session:
    with transaction.atomic():
        session = Session.objects.select_for_update().get(pk=session_id)
        session.clock_minutes = None
        session.clock_ends_at = None
        session.save(update_fields=["clock_minutes", "clock_ends_at"])
        return session


def _revoke_live(game: Game) -> int:
    return game.table_links.live().update(revoked_at=timezone.now())


def renew_table_link(game_id: int, *, actor: Actor | None = None) -> TableLink:
    """A new table link for the game; any live one stops working at once."""
    with transaction.atomic():
        game = _locked_game(game_id)
        revoked = _revoke_live(game)
        link = TableLink.objects.create(game=game)
        versions.changed(game.session.event_id)
        trail.write(
            Kind.LINK_CHANGED,
            actor=actor,
            game=game,
            before={"link": "revoked"} if revoked else None,
            after={"link": f"#{link.pk} made"},
        )
        return link


def revoke_table_link(game_id: int, *, actor: Actor | None = None) -> None:
    with transaction.atomic():
        game = _locked_game(game_id)
        if not _revoke_live(game):
            raise GameChangeRefused(gettext_noop("This game has no table link to revoke."))
        versions.changed(game.session.event_id)
        trail.write(Kind.LINK_CHANGED, actor=actor, game=game, after={"link": "revoked"})


def lock_game(game_id: int, locked: bool, *, actor: Actor | None = None) -> None:
    """Lock (or unlock) a game: a locked game's table link changes nothing."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.locked == locked:
            return
        game.locked = locked
        game.save(update_fields=["locked", "updated_at"])
        trail.write(
            Kind.LINK_CHANGED,
            actor=actor,
            game=game,
            before={"locked": not locked},
            after={"locked": locked},
        )


def make_table_links(session_id: int, *, actor: Actor | None = None) -> int:
    """A table link for every game of the session in progress that has none; how many."""
    made = 0
    with transaction.atomic():
        games = (
            Game.objects.select_for_update(of=("self",))
            .select_related("session__event")
            .filter(session_id=session_id, status=Game.Status.IN_PROGRESS)
            .exclude(pk__in=TableLink.objects.live().values("game_id"))
            .order_by("table_number", "pk")
        )
        for game in games:
            link = TableLink.objects.create(game=game)
            trail.write(
                Kind.LINK_CHANGED, actor=actor, game=game, after={"link": f"#{link.pk} made"}
            )
            made += 1
        if made:
            versions.changed(Session.objects.values_list("event_id", flat=True).get(pk=session_id))
    return made


def session_has_results(session: Session) -> bool:
    """Whether any game of the session has a hand, a final score or a penalty entered, or
    is finished: then seating it again would throw results away."""
    games = Game.objects.filter(session=session)
    return (
        Hand.objects.filter(game__in=games).exists()
        or GameSeat.objects.filter(game__in=games, entered_score__isnull=False).exists()
        or Penalty.objects.filter(game__in=games).exists()
        or games.filter(status=Game.Status.FINISHED).exists()
    )


def _check_team_seating(session: Session, tables, players) -> None:
    """A team event's session is seated after its line-up deadline, and never with two
    players of one team at a table."""
    deadline = session.lineup_deadline
    if deadline is not None and timezone.now() < deadline:
        raise GameChangeRefused(
            gettext_noop(
                "Captains may still send line-ups for session %(number)s: seat it after the "
                "deadline, or clear the deadline on the line-ups page."
            ),
            number=session.number,
        )
    team_of = dict(
        TeamMember.objects.filter(event_id=session.event_id).values_list("player_id", "team_id")
    )
    for number, table in enumerate(tables, start=1):
        seen: dict[int, int] = {}
        for pid in table:
            team = team_of.get(pid)
            if team is None:
                continue
            if team in seen:
                raise GameChangeRefused(
                    gettext_noop(
                        "Table %(number)s: %(first)s and %(second)s are in the same team; "
                        "seat players of one team at different tables."
                    ),
                    number=number,
                    first=players[seen[team]].display_name,
                    second=players[pid].display_name,
                )
            seen[team] = pid


def seat_session(
    session_id: int,
    tables: Sequence[Sequence[int]],
    *,
    actor: Actor | None = None,
    entry_mode: str = Game.EntryMode.HANDS,
) -> list[Game]:
    """Create one game per table (player ids in seat order, East first), numbered from 1,
    in place of the session's games so far, which must have no results, each entered
    `entry_mode` (hand by hand or final scores only). Every table has as many players as
    the event's games have seats (three in a three-player event); players of the event's
    substitute pool take substitute seats. All or nothing; the trail gets the seats of
    every table."""
    if entry_mode not in Game.EntryMode.values:
        raise GameChangeRefused(gettext_noop("Choose hand by hand or final scores only."))
    if not tables or len(tables) > SEATING_TABLE_LIMIT:
        raise GameChangeRefused(
            gettext_noop("A session is seated at 1 to %(most)s tables."), most=SEATING_TABLE_LIMIT
        )
    ids = [pid for table in tables for pid in table]
    with transaction.atomic():
        session = (
            Session.objects.select_for_update(of=("self",))
            .select_related("event")
            .get(pk=session_id)
        )
        size = session.event.player_count
        if any(len(table) != size for table in tables) or len(set(ids)) != len(ids):
            raise GameChangeRefused(
                gettext_noop("Every table needs four players, and every player one seat.")
                if size == 4
                else gettext_noop(
                    "Every table of this three-player event needs three players, and every "
                    "player one seat."
                )
            )
        if session_has_results(session):
            raise GameChangeRefused(
                gettext_noop(
                    "Session %(number)s has results entered already, so it cannot be seated "
                    "again. Seat a new session, or delete its hands and final scores first."
                ),
                number=session.number,
            )
        players = Player.objects.in_bulk(ids)
        if len(players) != len(set(ids)):
            raise GameChangeRefused(
                gettext_noop("A player of this plan was removed meanwhile: plan again.")
            )
        if session.event.team_event:
            _check_team_seating(session, tables, players)
        pool = set(
            session.event.roster.substitutes()
            .filter(player_id__in=ids)
            .values_list("player_id", flat=True)
        )
        session.games.all().delete()
        games = [
            create_game(
                session,
                [players[pid] for pid in table],
                table_number=number,
                entry_mode=entry_mode,
                substitutes=[seat for seat, pid in enumerate(table) if pid in pool],
            )
            for number, table in enumerate(tables, start=1)
        ]
        for game, table in zip(games, tables, strict=True):
            seats = [players[pid].display_name for pid in table]
            trail.write(
                Kind.SEATS_CHANGED,
                actor=actor,
                game=game,
                after={"table": game.table_number, "seats": seats},
            )
        # The session had no results: only what is at its tables changed.
        versions.changed(session.event_id)
        return games
