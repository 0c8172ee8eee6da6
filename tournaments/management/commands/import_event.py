"""`python manage.py import_event EVENT_SLUG FILE`: import an event export without a time limit."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments import exchange
from tournaments.models import Event


class Command(BaseCommand):
    help = (
        "Import a Tenbou event export (JSON) into an event that has no sessions yet, in one "
        "transaction and without the web page's time limit (IMPORT_TIME_LIMIT). Names match "
        "existing players exactly; other names become new players."
    )

    def add_arguments(self, parser):
        parser.add_argument("event", help="the event's slug")
        parser.add_argument("file", help="the export (JSON)")

    def handle(self, *args, **options):
        event = Event.objects.filter(slug=options["event"]).first()
        if event is None:
            raise CommandError(f"No event has the slug {options['event']!r}.")
        try:
            data = json.loads(Path(options["file"]).read_bytes())
        except (OSError, ValueError) as err:
            raise CommandError(f"{options['file']}: not readable as JSON ({err}).") from None
        try:
            count = exchange.import_event(event, data, time_limit=0)
        except exchange.ImportRefused as err:
            raise CommandError(f"Nothing was imported: {err}.") from None
        self.stdout.write(f"Imported {count} games into {event}.")
