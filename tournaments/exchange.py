"""A whole event as tenbou-game/1 records, and back into an empty event.

The export is one JSON document: the event's rules and, for every game, its session,
table and record (four players, or three when the rules are a three-player game's).
`python -m scoring score` reads each record on its own; the wrapper only says where the
games were played, so that an import rebuilds the same sessions.
"""

from __future__ import annotations

import datetime
import io
import json
import math
import time
import unicodedata
import zipfile
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction

import scoring
from scoring.errors import Phrase, gettext_noop
from scoring.game import GameResult
from scoring.record import TENTH
from scoring.rules import option_names

from . import access, services, totals
from .forms import option_kind
from .limits import MAX_IMPORT_GAMES, MAX_RULE_NUMBER, MAX_SESSION_NUMBER, MAX_TABLE_NUMBER
from .models import Event, Game, GameSeat, Hand, Penalty, Player, Session
from .player_names import normalised, refusal, refused_character
from .wording.refusals import Refusal

FORMAT = "tenbou-event/1"


def export_event(event: Event, *, names: bool = False) -> dict[str, Any]:
    """The event as a tenbou-event/1 document. Its `players` give the EMA number and
    country of each player seated in its games who has one (both shown on the players'
    pages already), and with `names` (for the event's organisers) the last and first names
    the EMA lists too.

    Read in five queries of plain values (games, seats, hands, wins, penalties) however
    many games there are, and put together by the same code as `Game.to_record()`:
    building model instances for tens of thousands of hands took most of a minute.
    """
    in_event = {"session__event": event}
    games = list(
        Game.objects.filter(**in_event)
        .order_by("session__number", "table_number", "pk")
        .values_list(
            "pk",
            "session__number",
            "table_number",
            "source_id",
            "entry_mode",
            "leftover_sticks",
            "ended_early",
        )
    )
    seats = defaultdict(list)
    for game_id, name, entered in (
        GameSeat.objects.filter(game__session__event=event)
        .order_by("game_id", "seat")
        .values_list("game_id", "player__display_name", "entered_score")
    ):
        seats[game_id].append((name, entered))
    hands = Hand.records_by_game(**in_event)
    penalties = Penalty.records_by_game(**in_event)
    rules = event.rules_spec()
    records = []
    for pk, session, table, source_id, entry_mode, sticks, ended_early in games:
        final_scores = entry_mode == Game.EntryMode.FINAL_SCORES
        record = Game.document(
            rules=rules,
            players=[name for name, _ in seats[pk]],
            final_scores=[entered for _, entered in seats[pk]] if final_scores else None,
            leftover_sticks=sticks,
            hands=None if final_scores else hands.get(pk, []),
            ended_early=ended_early,
            penalties=penalties.get(pk, []),
        )
        records.append(
            {"session": session, "table": table, "source_id": source_id, "record": record}
        )
    fields = ("ema_number", "country") + (("last_name", "first_name") if names else ())
    players = []
    for name, *values in (
        Player.objects.filter(seats__game__session__event=event)
        .distinct()
        .order_by("display_name")
        .values_list("display_name", *fields)
    ):
        if any(values):
            players.append(
                {"name": name, **{f: v for f, v in zip(fields, values, strict=True) if v}}
            )
    return {
        "format": FORMAT,
        "event": event.name,
        "rules": rules,
        # Only when someone has details: an event file without them reads as before.
        **({"players": players} if players else {}),
        "sessions": [
            {"number": number, "date": date.isoformat(), "title": title}
            for number, date, title in event.sessions.order_by("number").values_list(
                "number", "date", "title"
            )
        ],
        "games": records,
    }


def event_json(data: dict[str, Any]) -> str:
    """The export as text: the event's fields indented, then one line per session and one
    per game. The same JSON as any layout, written by the fast (unindented) encoder: an
    indented dump of a large league took several seconds."""
    games = data["games"]
    head = {key: value for key, value in data.items() if key not in ("sessions", "games")}
    lines = ["{"]
    for key, value in head.items():
        lines.append(f"  {_dumps(key)}: {_dumps(value)},")
    lines.append('  "sessions": [')
    lines.append(",\n".join(f"    {_dumps(session)}" for session in data["sessions"]))
    lines.append("  ],")
    lines.append('  "games": [')
    lines.append(",\n".join(f"    {_dumps(game)}" for game in games))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(line for line in lines if line) + "\n"


def record_json(record: dict[str, Any]) -> str:
    """One game's record as text: each field on its own line, each hand on its own line."""
    lines = []
    for key, value in record.items():
        if key in ("hands", "penalties") and value:
            items = ",\n".join(f"    {_dumps(item)}" for item in value)
            lines.append(f"  {_dumps(key)}: [\n{items}\n  ]")
        else:
            lines.append(f"  {_dumps(key)}: {_dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}"


def _dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def export_zip(event: Event, data: dict[str, Any] | None = None) -> bytes:
    """One tenbou-game/1 file per game, named by session and table."""
    data = export_event(event) if data is None else data
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for index, game in enumerate(data["games"], start=1):
            name = f"{event.slug}/s{game['session']:02d}-t{game['table']:02d}-{index:03d}.json"
            archive.writestr(name, record_json(game["record"]))
    return buffer.getvalue()


class ImportRefused(Refusal):
    """An export that cannot be imported; the message says why."""


# A session's title, a player's display name and a log id, as the models keep them.
MAX_TITLE = Session._meta.get_field("title").max_length
MAX_NAME = Player._meta.get_field("display_name").max_length
MAX_SOURCE_ID = Game._meta.get_field("source_id").max_length
# The bounds of the forms that enter the same numbers and texts (forms.RulesForm,
# forms.hands.PenaltyForm and FinalScoresForm), so that an import stores nothing an
# organiser could not have typed.
RULE_DECIMAL_DIGITS = 6  # DecimalField(max_digits=6, decimal_places=1)
UMA_DIGITS = 5
PENALTY_DIGITS = Penalty._meta.get_field("match_points").max_digits
MAX_PENALTY = Decimal("99999.9")
MAX_REASON = Penalty._meta.get_field("reason").max_length
# Four players' start points at most, each within the rules form's bound.
MAX_SCORE = 4 * MAX_RULE_NUMBER
MAX_STICKS = 100


def _check_players(data: dict[str, Any]) -> dict[str, dict[str, str]]:
    """The export's player details by name, each checked as the player form checks it;
    refused naming the first that is not."""
    players = data.get("players", [])
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
        raise ImportRefused(gettext_noop("its players are not a list of players"))
    if len(players) > MAX_IMPORT_GAMES * 4:
        raise ImportRefused(gettext_noop("it lists more players than its games can seat"))
    details: dict[str, dict[str, str]] = {}
    for index, row in enumerate(players, start=1):
        name = row.get("name")
        if not name or not check_text(name, MAX_NAME):
            raise ImportRefused(gettext_noop("player %(index)s has no name"), index=index)
        values = {}
        for field in services.PLAYER_DETAILS:
            value = row.get(field, "")
            limit = Player._meta.get_field(field).max_length
            if not check_text(value, limit):
                raise ImportRefused(
                    gettext_noop("player %(index)s (%(name)s): %(field)s is not a text"),
                    index=index,
                    name=name,
                    field=field,
                )
            if value:
                try:
                    Player._meta.get_field(field).run_validators(value)
                except ValidationError as err:
                    raise ImportRefused(
                        gettext_noop("player %(index)s (%(name)s): %(problem)s"),
                        index=index,
                        name=name,
                        problem=" ".join(err.messages),
                    ) from None
            values[field] = value
        details[normalised(name)] = values
    return details


def _check_outline(data: dict[str, Any]) -> None:
    """Refuse an export whose outline is wrong before anything is written."""
    check_rules(data.get("rules", "ari-ari"))
    sessions, games = data.get("sessions", []), data.get("games", [])
    if not isinstance(sessions, list) or not all(isinstance(s, dict) for s in sessions):
        raise ImportRefused(gettext_noop("its sessions are not a list of sessions"))
    if not isinstance(games, list) or not all(isinstance(g, dict) for g in games):
        raise ImportRefused(gettext_noop("its games are not a list of games"))
    if len(games) > MAX_IMPORT_GAMES:
        raise ImportRefused(
            gettext_noop(
                "it holds %(count)s games and one import takes at most %(most)s. Import the "
                "sessions in several events, or ask the site's administrator to restore a "
                "backup instead"
            ),
            count=f"{len(games):,}",
            most=f"{MAX_IMPORT_GAMES:,}",
        )


def check_rules(rules: Any) -> None:
    """The export's rules within the rules form's bounds, each option of its own kind:
    a number the form would refuse (10**30 start points) is refused here too."""
    if isinstance(rules, str):
        preset, overrides = rules, {}
    elif isinstance(rules, dict):
        preset, overrides = rules.get("preset"), rules.get("overrides", {})
    else:
        _resolve_rules(rules)  # the engine says what a rules field is
        raise ImportRefused(gettext_noop("its rules are not valid"))
    if not isinstance(preset, str) or preset not in scoring.PRESETS:
        raise ImportRefused(
            gettext_noop("its rules name no known preset; the presets are %(presets)s"),
            presets=", ".join(sorted(scoring.PRESETS)),
        )
    if not isinstance(overrides, dict):
        raise ImportRefused(gettext_noop("its rule options are not a list of option: value"))
    for name, value in overrides.items():
        if not _option_in_bounds(name, value):
            raise ImportRefused(
                gettext_noop("its rule option %(option)s has a value the rules page would refuse"),
                option=repr(name)[:40],
            )
    _resolve_rules(rules)


def _resolve_rules(rules: Any) -> None:
    try:
        scoring.resolve_rules(rules)
    except scoring.ScoringError as err:
        raise ImportRefused(
            gettext_noop("its rules are not valid: %(reason)s"), reason=err
        ) from None
    except (ArithmeticError, TypeError, ValueError):
        raise ImportRefused(gettext_noop("its rules are not valid")) from None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _tenths_within(value: Any, digits: int) -> bool:
    """A number that a form's DecimalField(max_digits=digits, decimal_places=1) takes."""
    if not _is_number(value) or abs(value) >= 10 ** (digits - 1):
        return False
    number = Decimal(str(value))
    return number == number.quantize(TENTH)


def _option_in_bounds(name: Any, value: Any) -> bool:
    """Whether the rules form could have stored `value` for option `name`."""
    if not isinstance(name, str) or name not in option_names():
        return False
    if value is None:
        return True  # the preset's value
    kind = option_kind(name)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "enum":
        return isinstance(value, str) and len(value) <= 40
    if kind == "int":
        return _is_number(value) and value == int(value) and abs(value) <= MAX_RULE_NUMBER
    if kind == "uma":
        # Four places, or three in a three-player game; the engine checks which.
        return (
            isinstance(value, list)
            and len(value) in (3, 4)
            and all(_tenths_within(v, UMA_DIGITS) for v in value)
        )
    return _tenths_within(value, RULE_DECIMAL_DIGITS)


def check_text(value: Any, limit: int) -> bool:
    """Text a form's CharField(max_length=limit) takes: no NUL or other control
    character but tabs and line breaks."""
    return (
        isinstance(value, str)
        and len(value) <= limit
        and not any(unicodedata.category(c) == "Cc" and c not in "\t\n\r" for c in value)
    )


def check_record_numbers(where: str, record: dict[str, Any]) -> None:
    """The record's numbers and texts that the engine takes as they are, within the
    bounds of the forms that enter them: final scores, sticks left, penalties."""
    finals = record.get("final_scores")
    if finals is not None and not (
        isinstance(finals, list)
        and all(_is_number(v) and v == int(v) and abs(v) <= MAX_SCORE for v in finals)
    ):
        raise ImportRefused(
            gettext_noop("%(game)s has final scores that are not whole numbers within ±%(most)s"),
            game=where,
            most=f"{MAX_SCORE:,}",
        )
    sticks = record.get("leftover_sticks", 0)
    if not (_is_number(sticks) and sticks == int(sticks) and 0 <= sticks <= MAX_STICKS):
        raise ImportRefused(
            gettext_noop(
                "%(game)s leaves %(sticks)s sticks on the table; a game leaves 0 to %(most)s"
            ),
            game=where,
            sticks=repr(sticks)[:20],
            most=MAX_STICKS,
        )
    penalties = record.get("penalties", [])
    if not isinstance(penalties, list):
        raise ImportRefused(gettext_noop("%(game)s has penalties that are not a list"), game=where)
    for number, penalty in enumerate(penalties, start=1):
        if not isinstance(penalty, dict):
            raise ImportRefused(
                gettext_noop("%(game)s, penalty %(number)s is not a penalty"),
                game=where,
                number=number,
            )
        points = penalty.get("match_points")
        if not _tenths_within(points, PENALTY_DIGITS) or points == 0:
            raise ImportRefused(
                gettext_noop(
                    "%(game)s, penalty %(number)s: match points are a number other than 0 "
                    "of at most %(most)s, kept to tenths"
                ),
                game=where,
                number=number,
                most=f"{MAX_PENALTY:,}",
            )
        if not check_text(penalty.get("reason", ""), MAX_REASON):
            raise ImportRefused(
                gettext_noop(
                    "%(game)s, penalty %(number)s: the reason is text of at most %(most)s "
                    "characters, without control characters"
                ),
                game=where,
                number=number,
                most=MAX_REASON,
            )


@dataclass
class _Planned:
    """One game of the export, checked and replayed, waiting to be written."""

    index: int
    session: int  # the session's number
    table: int
    source_id: str
    record: dict[str, Any]
    names: list[str]
    result: GameResult | None  # None for a game of final scores still awaiting them

    @property
    def going_on(self) -> bool:
        return self.result is None or not self.result.finished


def _plan_sessions(data: dict[str, Any]) -> list[dict[str, Any]]:
    sessions = []
    seen: set[int] = set()
    for index, spec in enumerate(data.get("sessions", []), start=1):
        number = spec.get("number")
        if not isinstance(number, int) or isinstance(number, bool):
            raise ImportRefused(gettext_noop("session %(index)s has no whole number"), index=index)
        if not 1 <= number <= MAX_SESSION_NUMBER:
            raise ImportRefused(
                gettext_noop(
                    "session %(index)s is numbered %(number)s; sessions go from 1 to %(most)s"
                ),
                index=index,
                number=number,
                most=f"{MAX_SESSION_NUMBER:,}",
            )
        if number in seen:
            raise ImportRefused(gettext_noop("session %(number)s is listed twice"), number=number)
        seen.add(number)
        try:
            day = datetime.date.fromisoformat(spec.get("date"))
        except (TypeError, ValueError):
            raise ImportRefused(
                gettext_noop("session %(number)s has no date (YYYY-MM-DD)"), number=number
            ) from None
        title = spec.get("title", "")
        if not check_text(title, MAX_TITLE):
            raise ImportRefused(
                gettext_noop("session %(number)s's title is not text of at most %(most)s"),
                number=number,
                most=MAX_TITLE,
            )
        sessions.append({"number": number, "date": day, "title": title})
    return sessions


def _plan_game(
    index: int, game: dict[str, Any], sessions: set[int], rules, seats: int = 4
) -> _Planned:
    where = Phrase(gettext_noop("game %(index)s"), index=index)
    number = game.get("session")
    if isinstance(number, bool) or not isinstance(number, int) or number not in sessions:
        raise ImportRefused(
            gettext_noop("%(where)s names session %(number)s, not listed"),
            where=where,
            number=repr(number),
        )
    table = game.get("table")
    if isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= MAX_TABLE_NUMBER:
        raise ImportRefused(
            gettext_noop("%(where)s has table %(table)s; tables go from 1 to %(most)s"),
            where=where,
            table=repr(table),
            most=MAX_TABLE_NUMBER,
        )
    source_id = game.get("source_id", "") or ""
    if not check_text(source_id, MAX_SOURCE_ID):
        raise ImportRefused(
            gettext_noop("%(where)s has a log id that is not text of at most %(most)s"),
            where=where,
            most=MAX_SOURCE_ID,
        )
    record = game.get("record")
    if not isinstance(record, dict):
        raise ImportRefused(gettext_noop("%(where)s has no record"), where=where)
    names = record.get("players")
    if (
        not isinstance(names, list)
        or len(names) != seats
        or not all(isinstance(n, str) and n.strip() and len(n) <= MAX_NAME for n in names)
    ):
        raise ImportRefused(
            gettext_noop("%(where)s needs four player names of 1 to %(most)s characters")
            if seats == 4
            else gettext_noop(
                "%(where)s needs three player names of 1 to %(most)s characters: the "
                "export's rules are a three-player game's"
            ),
            where=where,
            most=MAX_NAME,
        )
    for seat, name in enumerate(names, start=1):
        character = refused_character(normalised(name))
        if character is not None:
            raise ImportRefused(
                gettext_noop("%(game)s, seat %(seat)s: %(refusal)s"),
                game=where,
                seat=seat,
                refusal=refusal(character),
            )
    names = [normalised(name) for name in names]
    if len(set(names)) != seats:
        raise ImportRefused(gettext_noop("%(where)s seats one player twice"), where=where)
    if _awaits_scores(record, seats):
        # A game of final scores not entered yet: nothing to replay, the seats only.
        check_record_numbers(where, {**record, "final_scores": None})
        for number, penalty in enumerate(record.get("penalties", []), start=1):
            if penalty.get("seat") not in range(seats):
                raise ImportRefused(
                    gettext_noop("%(game)s, penalty %(number)s names no seat of the game"),
                    game=where,
                    number=number,
                )
        return _Planned(index, game["session"], table, source_id, record, names, None)
    check_record_numbers(where, record)
    try:
        result = services.replay_record({**record, "rules": rules, "players": names})
    except services.GameChangeRefused as err:
        raise ImportRefused(
            gettext_noop("%(where)s: %(problem)s"), where=where, problem=err.phrase
        ) from None
    return _Planned(index, game["session"], table, source_id, record, names, result)


def _awaits_scores(record: dict[str, Any], seats: int) -> bool:
    """Whether the record is of a game of final scores whose scores are not entered yet,
    as `export_event` writes one: a final score of None for every seat, and no hands."""
    finals = record.get("final_scores")
    return (
        isinstance(finals, list)
        and len(finals) == seats
        and all(score is None for score in finals)
        and not record.get("hands")
    )


def _plan(data: dict[str, Any]) -> tuple[list[dict[str, Any]], list[_Planned]]:
    """Every session and game of the export, checked and replayed under its rules: all
    that can be refused is refused here, before anything is written."""
    sessions = _plan_sessions(data)
    numbers = {s["number"] for s in sessions}
    rules = data.get("rules", "ari-ari")
    seats = scoring.resolve_rules(rules).players  # checked by `_check_outline` already
    planned = [
        _plan_game(index, game, numbers, rules, seats)
        for index, game in enumerate(data.get("games", []), start=1)
    ]
    logs: dict[str, int] = {}
    tables: dict[tuple[int, int], int] = {}
    seated: dict[tuple[int, str], int] = {}
    for game in planned:
        if game.source_id:
            if game.source_id in logs:
                raise ImportRefused(
                    gettext_noop("game %(index)s is the log %(log)s of game %(first)s again"),
                    index=game.index,
                    log=game.source_id,
                    first=logs[game.source_id],
                )
            logs[game.source_id] = game.index
        if not game.going_on:
            continue
        # A game still going holds its table and its players in its session.
        key = (game.session, game.table)
        if key in tables:
            raise ImportRefused(
                gettext_noop(
                    "games %(first)s and %(index)s are both unfinished at table %(table)s of "
                    "session %(session)s"
                ),
                first=tables[key],
                index=game.index,
                table=game.table,
                session=game.session,
            )
        tables[key] = game.index
        for name in game.names:
            if (game.session, name) in seated:
                raise ImportRefused(
                    gettext_noop(
                        "%(name)s sits in two unfinished games of session %(session)s: games "
                        "%(first)s and %(index)s"
                    ),
                    name=name,
                    session=game.session,
                    first=seated[game.session, name],
                    index=game.index,
                )
            seated[game.session, name] = game.index
    return sessions, planned


def _players(names: list[str], found: dict[str, Player], known) -> list[Player]:
    """The players of these names among `known` (every player if None), creating the
    missing ones (`services.new_player`); `found` keeps what each name turned into."""
    missing = [name for name in names if name not in found]
    if missing:
        pool = Player.objects.all() if known is None else known
        found.update((p.display_name, p) for p in pool.filter(display_name__in=missing))
        for name in missing:
            if name not in found:
                found[name] = services.new_player(name)
    return [found[name] for name in names]


def import_event(event: Event, data: Any, *, user=None, time_limit: float | None = None) -> int:
    """Rebuild an exported event's sessions and games in `event`, which must have none.

    The event takes the export's rules, so every result comes out as it was. Names reach
    only the players `user` may know of (`access.visible_players`); other names become new
    players. All or nothing: the whole export is checked and every game replayed before
    anything is written, then everything is written in one transaction, so that a worker
    killed part way leaves nothing behind. An import that has not finished after
    `time_limit` seconds (settings.IMPORT_TIME_LIMIT if None; 0 for none) is taken back and
    refused, well before the web server's worker timeout would kill it.
    Returns the number of games.
    """
    started = time.monotonic()
    if time_limit is None:
        time_limit = settings.IMPORT_TIME_LIMIT
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused(
            gettext_noop("not a Tenbou event export (format %(format)s)"), format=FORMAT
        )
    if event.sessions.exists():
        raise ImportRefused(
            gettext_noop("an event export goes into an empty event: this one has sessions")
        )
    _check_outline(data)
    details = _check_players(data)
    try:
        sessions, planned = _plan(data)
    except ImportRefused:
        raise  # a refusal of its own (a ValueError too), worded already
    except (ArithmeticError, AttributeError, KeyError, TypeError, ValueError) as err:
        raise ImportRefused(
            gettext_noop("the export is damaged: %(error)s"), error=repr(err)
        ) from None
    rules = data.get("rules", event.rules_spec())
    preset, overrides = (
        (rules, {}) if isinstance(rules, str) else (rules.get("preset"), rules.get("overrides", {}))
    )
    known = access.visible_players(user) if user is not None else None
    found: dict[str, Player] = {}
    try:
        with transaction.atomic(), totals.batched():
            # The claim: only one import fills an empty event; a second one finds sessions.
            locked = Event.objects.select_for_update().get(pk=event.pk)
            if locked.sessions.exists():
                raise ImportRefused(
                    gettext_noop("an event export goes into an empty event: this one has sessions")
                )
            services.change_event_rules(event.pk, preset, overrides)
            # The games are created under the rules just set (how many seats they have
            # among them), not those the caller's copy of the event still holds.
            event.refresh_from_db(fields=["rules_preset", "rules_overrides"])
            created_sessions = {
                spec["number"]: Session.objects.create(event=event, **spec) for spec in sessions
            }
            for written, game in enumerate(planned):
                if time_limit and time.monotonic() - started > time_limit:
                    raise ImportRefused(
                        gettext_noop(
                            "it takes longer than %(seconds)s seconds to write on this server"
                            " (%(written)s of %(games)s games written), and nothing was kept."
                            " Import its sessions in several events, or ask the site's"
                            " administrator to import it with `manage.py import_event`"
                        ),
                        seconds=f"{time_limit:g}",
                        written=f"{written:,}",
                        games=f"{len(planned):,}",
                    )
                players = _players(game.names, found, known)
                if game.result is None:
                    services.create_awaiting_game(
                        created_sessions[game.session],
                        players,
                        table_number=game.table,
                        source_id=game.source_id,
                        penalties=game.record.get("penalties", []),
                        user=user,
                    )
                    continue
                services.create_game_from_record(
                    created_sessions[game.session],
                    game.record,
                    players,
                    table_number=game.table,
                    source_id=game.source_id,
                    user=user,
                    result=game.result,
                )
            # Players the games seated take the details the export gives them, where they
            # have none of their own.
            services.fill_player_details(
                [(player, details[name]) for name, player in found.items() if name in details]
            )
    except ImportRefused:
        raise  # a refusal of its own (a ValueError too), worded already
    except (
        services.GameChangeRefused,
        DatabaseError,
        ArithmeticError,
        KeyError,
        TypeError,
        ValueError,
    ) as err:
        problem = err.phrase if isinstance(err, services.GameChangeRefused) else str(err)
        raise ImportRefused(
            gettext_noop("the export could not be written, and nothing was kept: %(problem)s"),
            problem=problem,
        ) from None
    return len(planned)
