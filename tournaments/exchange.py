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
from typing import Any

from django.db import transaction

import scoring

from . import services
from .models import Event, Game, Session

FORMAT = "tenbou-event/1"


def export_event(event: Event) -> dict[str, Any]:
    games = (
        Game.objects.filter(session__event=event)
        .select_related("session__event")
        .prefetch_related("seats__player", "hands__wins", "penalties")
        .order_by("session__number", "table_number", "pk")
    )
    return {
        "format": FORMAT,
        "event": event.name,
        "rules": event.rules_spec(),
        "sessions": [
            {"number": s.number, "date": s.date.isoformat(), "title": s.title}
            for s in event.sessions.order_by("number")
        ],
        "games": [
            {
                "session": game.session.number,
                "table": game.table_number,
                "source_id": game.source_id,
                "record": game.to_record(),
            }
            for game in games
        ],
    }


def export_zip(event: Event) -> bytes:
    """One tenbou-game/1 file per game, named by session and table."""
    data = export_event(event)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for index, game in enumerate(data["games"], start=1):
            name = f"{event.slug}/s{game['session']:02d}-t{game['table']:02d}-{index:03d}.json"
            archive.writestr(name, json.dumps(game["record"], ensure_ascii=False, indent=2))
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
