"""The whole site as one JSON document, and back into an empty database.

`manage.py backup FILE` writes users (without password hashes unless asked), players,
and every event with its rules, organisers, roster, sessions, stages, teams (members,
captains, line-ups), games and trail of changes
(table links are not kept: organisers make new ones); each game is its
tenbou-game/1 record (hands or final scores, and penalties), so a restore replays every
game through the engine and stores the same results. `manage.py restore FILE` rebuilds
it all in one transaction: a damaged file stores nothing.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import models, transaction

from scoring.errors import Phrase, gettext_noop

from . import exchange, services, totals
from .forms import RESERVED_SLUGS
from .limits import MAX_TABLE_NUMBER
from .models import (
    Event,
    Game,
    LineUp,
    Player,
    PlayerAlias,
    RosterEntry,
    Session,
    Stage,
    StageEntrant,
    SubstituteRule,
    Team,
    TeamMember,
    TrailEntry,
)
from .wording.refusals import Refusal

FORMAT = "tenbou-backup/1"
# The other names one player may bring back: a person merged more often is a mistake.
MAX_ALIASES = 100
USER_FIELDS = ("username", "email", "first_name", "last_name", "is_active", "is_staff")


class RestoreRefused(Refusal):
    """A backup that cannot be restored; the message says why."""


def _checked(instance: models.Model, where: str, *, exclude: tuple[str, ...] = ()):
    """`instance` as its model's fields and `clean()` allow, or refused naming the field:
    a restore stores nothing a form would refuse (a slug with a space, a 100,000-character
    trail kind). Relations and uniqueness are left to the database, in the same
    transaction, instead of one query per row."""
    relations = tuple(f.name for f in instance._meta.get_fields() if f.is_relation and f.concrete)
    try:
        instance.full_clean(
            exclude=[*exclude, *relations], validate_unique=False, validate_constraints=False
        )
    except ValidationError as err:
        problems = "; ".join(
            f"{field}: {' '.join(messages)}" for field, messages in err.message_dict.items()
        )
        raise RestoreRefused(
            gettext_noop("%(where)s: %(problems)s"), where=where, problems=problems[:300]
        ) from None
    return instance


def _game(game: Game) -> dict[str, Any]:
    seats = game.ordered_seats()
    data: dict[str, Any] = {
        "session": game.session.number,
        "table": game.table_number,
        "source_id": game.source_id,
        "status": game.status,
        "locked": game.locked,
        "substitutes": [s.seat for s in seats if s.is_substitute],
    }
    if game.awaits_final_scores:
        data["awaiting_scores"] = [s.player.display_name for s in seats]
    else:
        data["record"] = game.to_record()
    return data


STAGE_FIELDS = (
    "number",
    "name",
    "first_session",
    "last_session",
    "entrants",
    "top",
    "carry",
    "carry_rounding",
    "carry_table",
    "rules_preset",
    "seating_method",
    "tie_breaks",
    "hidden",
)


def _stage(stage: Stage) -> dict[str, Any]:
    return {
        **{name: getattr(stage, name) for name in STAGE_FIELDS},
        "carry_factor": None if stage.carry_factor is None else str(stage.carry_factor),
        "bye_points": str(stage.bye_points),
        "cut_at": stage.cut_at.isoformat() if stage.cut_at else None,
        "team_best": stage.team_best,
        "entries": [
            {"player": entry.player.display_name, "seed": entry.seed}
            for entry in stage.entries.select_related("player").order_by("seed")
        ],
    }


def _teams(event: Event) -> list[dict[str, Any]]:
    """A team event's teams: members (with reserves), captain and line-ups."""
    teams = []
    for team in event.teams.select_related("captain").order_by("pk"):
        teams.append(
            {
                "name": team.name,
                "captain": team.captain.display_name if team.captain else None,
                "members": [
                    {"player": m.player.display_name, "reserve": m.reserve}
                    for m in team.members.select_related("player").order_by("pk")
                ],
                "lineups": [
                    {
                        "session": lineup.session.number,
                        "players": sorted(p.display_name for p in lineup.players.all()),
                        "submitted_by": (
                            lineup.submitted_by.get_username() if lineup.submitted_by else None
                        ),
                        "submitted_at": lineup.submitted_at.isoformat(),
                    }
                    for lineup in team.lineups.select_related("session", "submitted_by")
                    .prefetch_related("players")
                    .order_by("session__number")
                ],
            }
        )
    return teams


def _restore_teams(event: Event, players, sessions, users, rows, where) -> None:
    for index, row in enumerate(rows, start=1):
        team = _checked(
            Team(
                event=event,
                name=row["name"],
                captain=players[row["captain"]] if row["captain"] else None,
            ),
            f"{where}, team {index}",
        )
        team.save()
        TeamMember.objects.bulk_create(
            TeamMember(
                team=team, event=event, player=players[m["player"]], reserve=m["reserve"] is True
            )
            for m in row["members"]
        )
        for entry in row["lineups"]:
            lineup = LineUp.objects.create(
                team=team,
                session=sessions[entry["session"]],
                submitted_by=users.get(entry["submitted_by"]) if entry["submitted_by"] else None,
                submitted_at=datetime.datetime.fromisoformat(entry["submitted_at"]),
            )
            lineup.players.set([players[name] for name in entry["players"]])


def _restore_stages(event: Event, players, rows, where) -> None:
    """The event's stages and their entrants, before its games: a stage's own rules score
    the games of its sessions."""
    for index, row in enumerate(rows, start=1):
        stage = Stage(
            event=event,
            **{name: row[name] for name in STAGE_FIELDS},
            carry_factor=None if row["carry_factor"] is None else Decimal(row["carry_factor"]),
            bye_points=Decimal(row["bye_points"]),
            cut_at=datetime.datetime.fromisoformat(row["cut_at"]) if row["cut_at"] else None,
            # Absent from backups made before team events.
            team_best=row.get("team_best"),
        )
        _checked(stage, f"{where}, stage {index}")
        stage.save()
        StageEntrant.objects.bulk_create(
            StageEntrant(stage=stage, player=players[entry["player"]], seed=entry["seed"])
            for entry in row["entries"]
        )
    event.stage_count = len(rows)
    event.totals_hidden = any(row["hidden"] for row in rows)
    event.save(update_fields=["stage_count", "totals_hidden"])


def _trail(event: Event, games) -> list[dict[str, Any]]:
    """The event's trail of changes, oldest first; a game is named by its place in the
    backup's list of the event's games."""
    position = {game.pk: index for index, game in enumerate(games)}
    return [
        {
            "game": position.get(entry.game_id),
            "table_number": entry.table_number,
            "session_number": entry.session_number,
            "hand_number": entry.hand_number,
            "kind": entry.kind,
            "user": entry.user.get_username() if entry.user else None,
            "author": entry.author,
            "before": entry.before,
            "after": entry.after,
            "at": entry.at.isoformat(),
        }
        for entry in event.trail.select_related("user").order_by("at", "pk")
    ]


def dump_site(*, with_passwords: bool = False) -> dict[str, Any]:
    users = []
    for user in get_user_model().objects.order_by("pk"):
        row = {field: getattr(user, field) for field in USER_FIELDS}
        row["is_superuser"] = user.is_superuser
        row["date_joined"] = user.date_joined.isoformat()
        if with_passwords:
            row["password"] = user.password
        users.append(row)
    players = [
        {
            "display_name": p.display_name,
            "real_name": p.real_name,
            "last_name": p.last_name,
            "first_name": p.first_name,
            "ema_number": p.ema_number,
            "country": p.country,
            "active": p.active,
            "user": p.user.get_username() if p.user else None,
            "real_name_shown": p.real_name_shown,
            # Names of players merged into this one, for the player search.
            "aliases": [alias.name for alias in p.aliases.all()],
        }
        for p in Player.objects.select_related("user").prefetch_related("aliases").order_by("pk")
    ]
    events = []
    for event in Event.objects.prefetch_related("organisers").order_by("pk"):
        games = (
            Game.objects.filter(session__event=event)
            .select_related("session__event")
            .prefetch_related("seats__player", "hands__wins", "penalties")
            .order_by("session__number", "table_number", "pk")
        )
        events.append(
            {
                "name": event.name,
                "slug": event.slug,
                "kind": event.kind,
                "starts_on": event.starts_on.isoformat(),
                "ends_on": event.ends_on.isoformat() if event.ends_on else None,
                "description": event.description,
                "is_public": event.is_public,
                "rules_preset": event.rules_preset,
                "rules_overrides": event.rules_overrides,
                "substitute_rule": event.substitute_rule,
                "ema_qualification": event.ema_qualification,
                "team_event": event.team_event,
                "team_best": event.team_best,
                "organisers": sorted(u.get_username() for u in event.organisers.all()),
                "roster": [
                    {
                        "player": e.player.display_name,
                        "withdrawn_from": e.withdrawn_from,
                        "is_substitute": e.is_substitute,
                    }
                    for e in event.roster.select_related("player").order_by("pk")
                ],
                "sessions": [
                    {
                        "number": s.number,
                        "date": s.date.isoformat(),
                        "title": s.title,
                        "clock_ends_at": s.clock_ends_at.isoformat() if s.clock_ends_at else None,
                        "clock_minutes": s.clock_minutes,
                        "lineup_deadline": (
                            s.lineup_deadline.isoformat() if s.lineup_deadline else None
                        ),
                    }
                    for s in event.sessions.order_by("number")
                ],
                "stages": [_stage(stage) for stage in event.stages.order_by("number")],
                "teams": _teams(event),
                "games": [_game(game) for game in games],
                "trail": _trail(event, games),
            }
        )
    return {
        "format": FORMAT,
        "written_at": datetime.datetime.now(datetime.UTC).isoformat(),
        "with_passwords": with_passwords,
        "users": users,
        "players": players,
        "events": events,
    }


def _restore_game(event_data, sessions, players, index, data) -> Game:
    where = Phrase(
        gettext_noop("event %(event)s, game %(index)s"), event=event_data["slug"], index=index
    )
    session = sessions.get(data["session"])
    if session is None:
        raise RestoreRefused(
            gettext_noop("%(where)s names session %(session)s, which is not listed"),
            where=where,
            session=data["session"],
        )
    table = data["table"]
    if isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= MAX_TABLE_NUMBER:
        raise RestoreRefused(
            gettext_noop("%(where)s has table %(table)s; tables go from 1 to %(most)s"),
            where=where,
            table=repr(table),
            most=MAX_TABLE_NUMBER,
        )
    if not exchange.check_text(data["source_id"], exchange.MAX_SOURCE_ID):
        raise RestoreRefused(
            gettext_noop("%(where)s has a log id that is not a short text"), where=where
        )
    if "record" in data:
        record = data["record"]
        try:
            exchange.check_record_numbers(where, record)
        except exchange.ImportRefused as err:
            raise RestoreRefused(str(err)) from None
        seated = [players[name] for name in record["players"]]
        try:
            game = services.create_game_from_record(
                session, record, seated, table_number=data["table"], source_id=data["source_id"]
            )
        except services.GameChangeRefused as err:
            raise RestoreRefused(
                gettext_noop("%(where)s: %(problem)s"), where=where, problem=err.phrase
            ) from None
        # A game ended by time was ended by the replay already; why is put back below.
        if not record.get("ended_early"):
            if data["status"] == Game.Status.FINISHED and not game.is_finished:
                services.finish_game(game.pk)  # ended early by an organiser
            elif data["status"] == Game.Status.IN_PROGRESS and game.is_finished:
                services.reopen_game(game.pk)
    else:
        seated = [players[name] for name in data["awaiting_scores"]]
        game = services.create_game(
            session,
            seated,
            table_number=data["table"],
            entry_mode=Game.EntryMode.FINAL_SCORES,
        )
    services.restore_game_state(
        game.pk,
        ended_early=data.get("record", {}).get("ended_early", ""),
        locked=data.get("locked", False),
        substitutes=data.get("substitutes", []),
    )
    return game


def _restore_trail(event, games, users, entries) -> None:
    rows = TrailEntry.objects.bulk_create(
        _checked(
            TrailEntry(
                event=event,
                game=games[entry["game"]] if entry["game"] is not None else None,
                table_number=entry["table_number"],
                session_number=entry["session_number"],
                hand_number=entry["hand_number"],
                kind=entry["kind"],
                user=users.get(entry["user"]) if entry["user"] else None,
                author=entry["author"],
                before=entry["before"],
                after=entry["after"],
            ),
            f"event {event.slug}, trail entry {number}",
        )
        for number, entry in enumerate(entries, start=1)
    )
    # `at` is set on creation; the original times are put back afterwards.
    for row, entry in zip(rows, entries, strict=True):
        row.at = datetime.datetime.fromisoformat(entry["at"])
    TrailEntry.objects.bulk_update(rows, ["at"])


def restore_site(data: Any) -> dict[str, int]:
    """Rebuild the site from `dump_site`'s document into a database with no events, players
    or users. All or nothing. Returns how many of each thing were restored."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RestoreRefused(
            gettext_noop("this is not a Tenbou backup (format %(format)s)"), format=FORMAT
        )
    User = get_user_model()
    if Event.objects.exists() or Player.objects.exists() or User.objects.exists():
        raise RestoreRefused(
            gettext_noop(
                "the database is not empty. Restore into a new database: create it, run "
                "`manage.py migrate`, then `manage.py restore FILE`"
            )
        )
    try:
        with transaction.atomic(), totals.batched():
            users = {}
            for row in data["users"]:
                user = User(**{field: row[field] for field in USER_FIELDS})
                user.is_superuser = row["is_superuser"]
                user.date_joined = datetime.datetime.fromisoformat(row["date_joined"])
                if row.get("password"):
                    user.password = row["password"]
                else:
                    user.set_unusable_password()
                _checked(user, f"user {str(row['username'])[:40]!r}", exclude=("password",))
                user.save()
                users[user.get_username()] = user
            players = {}
            for row in data["players"]:
                player = Player(
                    display_name=row["display_name"],
                    real_name=row["real_name"],
                    # Backups written before players had these have none of them.
                    last_name=row.get("last_name", ""),
                    first_name=row.get("first_name", ""),
                    ema_number=row["ema_number"],
                    country=row.get("country", ""),
                    active=row["active"],
                    user=users[row["user"]] if row["user"] else None,
                    # Backups written before players chose show the name as then.
                    real_name_shown=row.get("real_name_shown", Player.RealNameShown.SIGNED_IN),
                )
                _checked(player, f"player {len(players) + 1}")
                player.save()
                aliases = row.get("aliases", [])
                if not isinstance(aliases, list) or len(aliases) > MAX_ALIASES:
                    raise RestoreRefused(
                        gettext_noop(
                            "player %(number)s: “aliases” is a list of at most %(limit)s names."
                        ),
                        number=len(players) + 1,
                        limit=MAX_ALIASES,
                    )
                for name in aliases:
                    alias = PlayerAlias(player=player, name=name)
                    _checked(alias, f"alias of player {len(players) + 1}", exclude=("player",))
                    alias.save()
                # The games name players as the backup spells them.
                players[row["display_name"]] = player
            games = 0
            trails = []
            for event_data in data["events"]:
                event = Event(
                    name=event_data["name"],
                    slug=event_data["slug"],
                    kind=event_data["kind"],
                    starts_on=datetime.date.fromisoformat(event_data["starts_on"]),
                    ends_on=(
                        datetime.date.fromisoformat(event_data["ends_on"])
                        if event_data["ends_on"]
                        else None
                    ),
                    description=event_data["description"],
                    is_public=event_data["is_public"],
                    rules_preset=event_data["rules_preset"],
                    rules_overrides=event_data["rules_overrides"],
                    substitute_rule=event_data.get("substitute_rule", SubstituteRule.UNRANKED),
                    ema_qualification=event_data.get("ema_qualification", False),
                    # Absent from backups made before team events.
                    team_event=event_data.get("team_event") is True,
                    team_best=event_data.get("team_best"),
                )
                where = Phrase(gettext_noop("event %(number)s"), number=len(trails) + 1)
                _checked(event, where)
                if event.slug in RESERVED_SLUGS:
                    raise RestoreRefused(
                        gettext_noop("%(where)s: slug: %(slug)s is reserved"),
                        where=where,
                        slug=repr(event.slug),
                    )
                try:
                    exchange.check_rules(
                        {"preset": event.rules_preset, "overrides": event.rules_overrides}
                    )
                except exchange.ImportRefused as err:
                    raise RestoreRefused(
                        gettext_noop("%(where)s: %(problem)s"), where=where, problem=err
                    ) from None
                event.save()
                event.organisers.set([users[name] for name in event_data["organisers"]])
                RosterEntry.objects.bulk_create(
                    _checked(
                        RosterEntry(
                            event=event,
                            player=players[row["player"]],
                            withdrawn_from=row["withdrawn_from"],
                            # Absent from backups made before the substitute pool.
                            is_substitute=row.get("is_substitute") is True,
                        ),
                        f"{where}, roster",
                    )
                    for row in event_data["roster"]
                )
                sessions = {}
                for s in event_data["sessions"]:
                    session = Session(
                        event=event,
                        number=s["number"],
                        date=datetime.date.fromisoformat(s["date"]),
                        title=s["title"],
                        clock_ends_at=(
                            datetime.datetime.fromisoformat(s["clock_ends_at"])
                            if s.get("clock_ends_at")
                            else None
                        ),
                        clock_minutes=s.get("clock_minutes"),
                        lineup_deadline=(
                            datetime.datetime.fromisoformat(s["lineup_deadline"])
                            if s.get("lineup_deadline")
                            else None
                        ),
                    )
                    _checked(session, f"{where}, session {len(sessions) + 1}")
                    session.save()
                    sessions[s["number"]] = session
                # Absent from backups made before stages.
                _restore_stages(event, players, event_data.get("stages", []), where)
                _restore_teams(event, players, sessions, users, event_data.get("teams", []), where)
                restored = [
                    _restore_game(event_data, sessions, players, index, game_data)
                    for index, game_data in enumerate(event_data["games"], start=1)
                ]
                games += len(restored)
                trails.append((event, restored, event_data.get("trail", [])))
            # Replaying wrote trail entries of its own; the site's real trail replaces them.
            TrailEntry.objects.all().delete()
            for event, restored, entries in trails:
                _restore_trail(event, restored, users, entries)
            return {
                "users": len(users),
                "players": len(players),
                "events": len(data["events"]),
                "games": games,
            }
    except RestoreRefused:
        raise
    except Exception as err:  # a damaged file: say what broke, store nothing
        raise RestoreRefused(
            gettext_noop("the backup is damaged (%(kind)s: %(error)s)"),
            kind=type(err).__name__,
            error=str(err),
        ) from None


def decimal_default(value):
    if isinstance(value, Decimal):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")
