"""An event keeps two versions (results and play); the stored totals become the only
source of the standings, so those of events whose totals were behind are counted again."""

from django.db import migrations
from django.db.models import F


def recount_totals_behind(apps, schema_editor):
    Event = apps.get_model("tournaments", "Event")
    GameSeat = apps.get_model("tournaments", "GameSeat")
    PlayerTotal = apps.get_model("tournaments", "PlayerTotal")
    SessionTotal = apps.get_model("tournaments", "SessionTotal")
    for event_id in Event.objects.exclude(totals_token=F("results_token")).values_list(
        "pk", flat=True
    ):
        seats = (
            GameSeat.objects.filter(
                game__session__event_id=event_id, game__status="finished", is_substitute=False
            )
            .order_by("game__session_id", "game__table_number", "game_id")
            .values_list(
                "game__session_id",
                "game_id",
                "player_id",
                "score",
                "placement",
                "match_points",
                "penalty_points",
            )
        )
        rows: dict = {}
        games: dict = {}
        for session_id, game_id, player_id, score, placement, points, penalty in seats:
            games.setdefault(session_id, set()).add(game_id)
            for key in ((session_id, player_id), (None, player_id)):
                row = rows.setdefault(key, [0, 0, 0, 0, 0, 0, 0, 0, ""])
                row[0] += 1
                row[1] += int(round(points * 10))
                row[2] += int(round(penalty * 10))
                row[3] += score
                row[3 + placement] += 1
                if key[0] is not None:
                    row[8] += str(placement)
        PlayerTotal.objects.filter(event_id=event_id).delete()
        SessionTotal.objects.filter(event_id=event_id).delete()
        names = ("games", "points_tenths", "penalty_tenths", "score", "firsts", "seconds")
        names += ("thirds", "fourths", "placements")
        PlayerTotal.objects.bulk_create(
            [
                PlayerTotal(
                    event_id=event_id,
                    session_id=session_id,
                    player_id=player_id,
                    **dict(zip(names, row, strict=True)),
                )
                for (session_id, player_id), row in rows.items()
            ],
            batch_size=1000,
        )
        SessionTotal.objects.bulk_create(
            SessionTotal(session_id=s, event_id=event_id, games=len(g)) for s, g in games.items()
        )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0021_invitations_and_reset_requests"),
    ]

    operations = [
        migrations.RunPython(recount_totals_behind, migrations.RunPython.noop),
        migrations.RemoveField(model_name="event", name="records_token"),
        migrations.RemoveField(model_name="event", name="sessions_token"),
        migrations.RemoveField(model_name="event", name="totals_token"),
    ]
