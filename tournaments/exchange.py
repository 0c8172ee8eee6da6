"""A whole event as tenbou-game/1 records, and back into an empty event.

The export is one JSON document: the event's rules and, for every game, its session,
table and record. `python -m scoring score` reads each record on its own; the wrapper
only says where the games were played, so that an import rebuilds the same sessions.
"""

from __future__ import annotations

import datetime
import io
import json
import zipfile
from collections import defaultdict
from typing import Any

from django.db import transaction

import scoring
from scoring.record import dump_hand

from . import services
from .models import Event, Game, GameSeat, Hand, Penalty, Session, Win

FORMAT = "tenbou-event/1"


def export_event(event: Event) -> dict[str, Any]:
    """The event as a tenbou-event/1 document.

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
    wins = defaultdict(list)
    for hand_id, *fields in (
        Win.objects.filter(hand__game__session__event=event)
        .order_by("hand_id", "order", "pk")
        .values_list("hand_id", *Win.ENGINE_FIELDS)
    ):
        wins[hand_id].append(Win.engine_win(*fields))
    hands = defaultdict(list)
    for hand_id, game_id, *fields in (
        Hand.objects.filter(game__session__event=event)
        .order_by("game_id", "number")
        .values_list("pk", "game_id", *HAND_FIELDS)
    ):
        values = dict(zip(HAND_FIELDS, fields, strict=True))
        hand = Hand.engine_hand(**values, wins=wins.get(hand_id, []))
        hands[game_id].append(dump_hand(hand))
    penalties = defaultdict(list)
    for game_id, *fields in (
        Penalty.objects.filter(game__session__event=event)
        .order_by("game_id", "created_at", "pk")
        .values_list("game_id", "seat", "match_points", "reason")
    ):
        penalties[game_id].append(Penalty.record(*fields))
    rules = event.rules_spec()
    records = []
    for pk, session, table, source_id, entry_mode, sticks, ended_early in games:
        final_scores = entry_mode == Game.EntryMode.FINAL_SCORES
        record = Game.document(
            rules=rules,
            players=[name for name, _ in seats[pk]],
            final_scores=[entered for _, entered in seats[pk]] if final_scores else None,
            leftover_sticks=sticks,
            hands=None if final_scores else hands[pk],
            ended_early=ended_early,
            penalties=penalties[pk],
        )
        records.append(
            {"session": session, "table": table, "source_id": source_id, "record": record}
        )
    return {
        "format": FORMAT,
        "event": event.name,
        "rules": rules,
        "sessions": [
            {"number": number, "date": date.isoformat(), "title": title}
            for number, date, title in event.sessions.order_by("number").values_list(
                "number", "date", "title"
            )
        ],
        "games": records,
    }


HAND_FIELDS = (
    "result",
    "riichi_mask",
    "tenpai_mask",
    "nagashi_mask",
    "abort_reason",
    "chombo_offender",
)


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


class ImportRefused(Exception):
    pass


# An import runs in one transaction, which holds SQLite's write lock for its whole length
# (about 10 s for 1,000 games): larger events are refused rather than block everyone.
MAX_IMPORT_GAMES = 2_000


def _check_outline(data: dict[str, Any]) -> None:
    """Refuse an export whose outline is wrong before anything is written."""
    try:
        scoring.resolve_rules(data.get("rules", "ari-ari"))
    except scoring.ScoringError as err:
        raise ImportRefused(f"its rules are not valid: {err}") from None
    sessions, games = data.get("sessions", []), data.get("games", [])
    if not isinstance(sessions, list) or not all(isinstance(s, dict) for s in sessions):
        raise ImportRefused("its sessions are not a list of sessions")
    if not isinstance(games, list) or not all(isinstance(g, dict) for g in games):
        raise ImportRefused("its games are not a list of games")
    if len(games) > MAX_IMPORT_GAMES:
        raise ImportRefused(
            f"it holds {len(games):,} games and one import takes at most "
            f"{MAX_IMPORT_GAMES:,}. Import the sessions in several events, or ask the "
            "site's administrator to restore a backup instead"
        )


def import_event(event: Event, data: Any, *, user=None) -> int:
    """Rebuild an exported event's sessions and games in `event`, which must have none.

    The event takes the export's rules, so every result comes out as it was. All or
    nothing: one bad game refuses the whole import. Returns the number of games.
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused(f"not a Tenbou event export (format {FORMAT})")
    if event.sessions.exists():
        raise ImportRefused("an event export goes into an empty event: this one has sessions")
    _check_outline(data)
    try:
        with transaction.atomic():
            rules = data.get("rules", event.rules_spec())
            preset, overrides = (
                (rules, {})
                if isinstance(rules, str)
                else (rules.get("preset"), rules.get("overrides", {}))
            )
            services.change_event_rules(event.pk, preset, overrides)
            event.refresh_from_db()
            sessions = {}
            for spec in data.get("sessions", []):
                sessions[spec["number"]] = Session.objects.create(
                    event=event,
                    number=spec["number"],
                    date=datetime.date.fromisoformat(spec["date"]),
                    title=spec.get("title", ""),
                )
            for index, game in enumerate(data.get("games", []), start=1):
                record = game["record"]
                session = sessions.get(game["session"])
                if session is None:
                    raise ImportRefused(f"game {index} names session {game['session']}, not listed")
                players = services.players_by_name(record["players"], create=True)
                services.create_game_from_record(
                    session,
                    record,
                    players,
                    table_number=game["table"],
                    source_id=game.get("source_id", ""),
                    user=user,
                )
            return len(data.get("games", []))
    except services.GameChangeRefused as err:
        raise ImportRefused(str(err)) from None
    except (KeyError, TypeError, ValueError, scoring.ScoringError) as err:
        raise ImportRefused(f"the export is damaged: {err}") from None
