"""`python manage.py backup FILE`: the whole site in one JSON file."""

from __future__ import annotations

import json
import os
import tempfile
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
        if path.is_symlink():
            raise CommandError(
                f"{path} is a symbolic link; a backup is not written through one. Give the "
                "path of the file itself."
            )
        write_private(path, text)
        games = sum(len(event["games"]) for event in data["events"])
        self.stdout.write(
            f"Backed up {len(data['users'])} users, {len(data['players'])} players, "
            f"{len(data['events'])} events and {games} games to {path}."
        )


def write_private(path: Path, text: str) -> None:
    """Write `text` to `path`, readable by its owner only from the first byte.

    A backup holds every player's name and the users' e-mail addresses. The file is made
    beside the target by `mkstemp` (O_CREAT | O_EXCL | O_NOFOLLOW, mode 0600, a name
    nobody can guess in advance) and renamed over the target when whole: a failed write
    never leaves half a file where the last good backup was, and a link planted in the
    folder is neither followed nor written through.
    """
    descriptor, partial = tempfile.mkstemp(
        dir=path.parent, prefix=f".{path.name}.", suffix=".partial"
    )
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(partial, path)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise
