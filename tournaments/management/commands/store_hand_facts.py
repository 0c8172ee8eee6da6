"""Write each hand's dealer and score changes for games stored before hands kept them
(replaying a game rewrites its seats' statistics too)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from tournaments import services
from tournaments.models import Game


class Command(BaseCommand):
    help = "Replay every game whose hands lack their dealer or score changes."

    def handle(self, *args, **options):
        games = Game.objects.filter(hands__dealer__isnull=True).distinct().order_by("pk")
        done = 0
        for game in games.iterator():
            services.replay_game(game.pk)
            done += 1
        self.stdout.write(f"Hand facts written for {done} game{'s' if done != 1 else ''}.")
