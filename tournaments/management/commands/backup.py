"""`python manage.py backup FILE`: the whole site in one JSON file."""

from __future__ import annotations

import json
import os
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.backup import decimal_default, dump_site


class Command(BaseCommand):
    help = (
        "Write the whole site (users, players, events with their rules, organisers, roster, "
        "sessions and every game as a tenbou-game/1 record with its penalties) to FILE, or "
        "to standard output for -. Password hashes are left out unless --with-passwords."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="where to write the backup (- for standard output)")
        parser.add_argument(
            "--with-passwords",
            action="store_true",
            help="include password hashes, so that everyone can log in after a restore "
            "(keep such a file as safe as the database itself)",
        )

    def handle(self, *args, **options):
        data = dump_site(with_passwords=options["with_passwords"])
        text = json.dumps(data, ensure_ascii=False, indent=1, default=decimal_default) + "\n"
        if options["file"] == "-":
            self.stdout.write(text, ending="")
            return
        path = Path(options["file"])
        if not path.parent.is_dir():
            raise CommandError(f"The folder {path.parent} does not exist. Create it first.")
        # Written beside the target and renamed, so a failed write never leaves half a file
        # where the last good backup was.
        partial = path.with_name(path.name + ".partial")
        with open(partial, "w", encoding="utf-8") as handle:
            handle.write(text)
        if options["with_passwords"]:
            os.chmod(partial, 0o600)
        partial.replace(path)
        games = sum(len(event["games"]) for event in data["events"])
        self.stdout.write(
            f"Backed up {len(data['users'])} users, {len(data['players'])} players, "
            f"{len(data['events'])} events and {games} games to {path}."
        )
