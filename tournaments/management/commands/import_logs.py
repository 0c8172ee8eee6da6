"""`python manage.py import_logs EVENT_SLUG SESSION FILE...`: import Tenhou and Mahjong Soul
logs."""

from __future__ import annotations

import datetime
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from scoring.errors import gettext_noop
from tournaments import imports, limits, services
from tournaments.models import Event


class Command(BaseCommand):
    help = (
        "Import Tenhou and Mahjong Soul game logs (tenhou.net/6 JSON, as Tenhou and the "
        "Mahjong Soul converters write it, or Tenhou's mjlog XML; gzip allowed) into a "
        "session of an event. A log played on another platform or at another length than "
        "the event's rules is refused; every hand's payments are checked against the log. "
        "Prints one line per file, with where and how long it was played, and a summary; "
        "exits with status 1 if any file failed."
    )

    def add_arguments(self, parser):
        parser.add_argument("event", help="the event's slug")
        parser.add_argument("session", type=int, help="session number (created if missing)")
        parser.add_argument("files", nargs="+", help="log files")
        parser.add_argument(
            "--create-players",
            action="store_true",
            help="create players for names that match no existing player",
        )
        parser.add_argument(
            "--date",
            type=datetime.date.fromisoformat,
            help="date for a new session (YYYY-MM-DD; default today)",
        )

    def handle(self, *args, **options):
        event = Event.objects.filter(slug=options["event"]).first()
        if event is None:
            raise CommandError(f"No event with the slug {options['event']!r}.")
        if options["session"] < 1:
            raise CommandError("Session numbers start at 1.")
        # The session is created with the first game that can go into it, and removed
        # again if no game was stored in the end: refused logs leave nothing behind.
        session = None
        created = False
        imported = failed = 0
        for name in options["files"]:
            path = Path(name)
            try:
                # Never more than the size limit plus one byte: check_log refuses it then.
                with open(path, "rb") as handle:
                    data = handle.read(limits.MAX_LOG_BYTES + 1)
            except OSError as err:
                self.stdout.write(f"FAILED {name}: cannot read the file ({err.strerror})")
                failed += 1
                continue
            check = imports.check_log(event, path.name, data)
            # Where and how long the game was played, once the log could be read.
            label = f"{name} ({check.game.played_under})" if check.game else name
            try:
                if not check.importable:
                    raise services.GameChangeRefused(
                        gettext_noop("%(file)s: %(problems)s"),
                        file=path.name,
                        problems="; ".join(check.problems),
                    )
                players = imports.resolve_players(
                    check, {}, create_unknown=options["create_players"]
                )
                if session is None:
                    session, created = services.session_for_import(
                        event, options["session"], options["date"] or timezone.localdate()
                    )
                game = imports.import_game(
                    session, check, players, table_number=session.games.next_table_number()
                )
            except services.GameChangeRefused as err:
                reason = "; ".join(check.problems) if check.problems else str(err)
                self.stdout.write(f"FAILED {label}: {reason.removeprefix(path.name + ': ')}")
                failed += 1
                continue
            seats = game.ordered_seats()
            summary = ", ".join(f"{s.player} {s.score:,}" for s in seats)
            if created and not imported:
                self.stdout.write(f"Created session {session.number} of {event}.")
            self.stdout.write(f"imported {label}: table {game.table_number}, {summary}")
            imported += 1
        if created and not imported:
            services.drop_empty_session(session)
        self.stdout.write(f"{imported} imported, {failed} failed.")
        if failed:
            raise SystemExit(1)
