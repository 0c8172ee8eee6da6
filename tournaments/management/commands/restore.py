"""`python manage.py restore FILE`: rebuild a site from a backup into an empty database."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.backup import RestoreRefused, restore_site


class Command(BaseCommand):
    help = (
        "Rebuild the site from a file written by `manage.py backup`, into a database that "
        "has been migrated but holds no users, players or events. Every game is replayed "
        "under its event's rules. All or nothing: a damaged file stores nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="a backup written by `manage.py backup`")

    def handle(self, *args, **options):
        path = Path(options["file"])
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise CommandError(f"{path}: no such file.") from None
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as err:
            raise CommandError(f"{path} is not a Tenbou backup: it is not JSON ({err}).") from None
        try:
            counts = restore_site(data)
        except RestoreRefused as err:
            raise CommandError(f"Nothing was restored from {path}: {err}.") from None
        self.stdout.write(
            f"Restored {counts['users']} users, {counts['players']} players, "
            f"{counts['events']} events and {counts['games']} games from {path}."
        )
