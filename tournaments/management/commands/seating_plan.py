"""`python manage.py seating_plan --players N --rounds R [--table-size 3]`: a seating plan,
no database needed; tables of three for a three-player (sanma) event."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

import seating

WIND_LETTERS = "ESWN"


class Command(BaseCommand):
    help = (
        "Plan the seating of N players (numbered 1..N) over R rounds and print it as JSON "
        '({"rounds": [[[E, S, W, N], ...], ...], "sitting_out": [[...], ...]}) or as text, '
        "with the number of repeated meetings. Bad input exits with status 2."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True, help="number of players")
        parser.add_argument("--rounds", type=int, required=True, help="number of rounds")
        parser.add_argument(
            "--method",
            default="balanced",
            help="balanced (fewest repeated meetings, the default), swiss (players 1..N "
            "taken as the standings) or random",
        )
        parser.add_argument("--seed", type=int, default=0, help="the same seed gives the same plan")
        parser.add_argument(
            "--table-size",
            type=int,
            default=4,
            help="players a table: 4 (the default), or 3 for a three-player (sanma) event",
        )
        parser.add_argument("--format", default="json", help="json (the default) or text")

    def handle(self, *args, **options):
        fmt = options["format"]
        if fmt not in ("json", "text"):
            raise CommandError(f"Unknown format {fmt!r}; use json or text.", returncode=2)
        method = options["method"]
        if method == "fixed":
            raise CommandError(
                "A fixed plan is typed by the organiser; use balanced, swiss or random here.",
                returncode=2,
            )
        try:
            plan = seating.make_plan(
                range(1, options["players"] + 1),
                options["rounds"],
                method=method,
                seed=options["seed"],
                table_size=options["table_size"],
            )
        except seating.SeatingError as err:
            raise CommandError(str(err), returncode=2) from None
        if fmt == "json":
            doc = {
                "rounds": [[list(table) for table in rnd] for rnd in plan.rounds],
                "sitting_out": [list(out) for out in plan.sitting_out],
                "repeated_meetings": plan.repeats,
            }
            self.stdout.write(json.dumps(doc))
            return
        for number, (rnd, out) in enumerate(
            zip(plan.rounds, plan.sitting_out, strict=True), start=1
        ):
            self.stdout.write(f"Round {number}")
            for table_number, table in enumerate(rnd, start=1):
                seats = "  ".join(f"{WIND_LETTERS[w]} {p:>3}" for w, p in enumerate(table))
                self.stdout.write(f"  Table {table_number:>3}:  {seats}")
            if out:
                self.stdout.write(f"  Sitting out: {', '.join(str(p) for p in out)}")
        self.stdout.write(f"Repeated meetings: {plan.repeats}")
