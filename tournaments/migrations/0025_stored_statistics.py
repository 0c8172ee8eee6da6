"""Each player keeps the statistics of their finished games added up, per session and per
event; those of the games stored already are added up here from their seats, as
`tournaments.totals` adds them up. The standings totals, like these rows, are found by
player for a recount of a few players."""

from collections import Counter

import django.db.models.deletion
from django.db import migrations, models

FIGURES = (
    "hands", "wins", "tsumo", "deal_ins", "riichi", "dealer_hands", "dealer_repeats",
    "won_total", "won_counted", "dealt_total", "dealt_counted",
)  # fmt: skip
PLACES = ("firsts", "seconds", "thirds", "fourths")


def add_up_statistics(apps, schema_editor):
    GameSeat = apps.get_model("tournaments", "GameSeat")
    StatisticsTotal = apps.get_model("tournaments", "StatisticsTotal")
    rows = {}  # (event, session or None, player) -> the row's counts and its yaku
    seats = (
        GameSeat.objects.filter(game__status="finished")
        .order_by()
        .values_list(
            "game__session__event_id", "game__session_id", "player_id", "placement", *FIGURES,
            "yaku",
        )
    )  # fmt: skip
    for event_id, session_id, player_id, placement, *figures, yaku in seats.iterator(
        chunk_size=2000
    ):
        for key in ((event_id, session_id, player_id), (event_id, None, player_id)):
            if key not in rows:
                rows[key] = (Counter(dict.fromkeys(("games", *PLACES, *FIGURES), 0)), Counter())
            counts, yaku_counts = rows[key]
            counts["games"] += 1
            if placement:
                counts[PLACES[placement - 1]] += 1
            counts.update(dict(zip(FIGURES, figures, strict=True)))
            yaku_counts.update(yaku or {})
    StatisticsTotal.objects.bulk_create(
        (
            StatisticsTotal(
                event_id=event_id,
                session_id=session_id,
                player_id=player_id,
                yaku=dict(sorted(yaku_counts.items())),
                **counts,
            )
            for (event_id, session_id, player_id), (counts, yaku_counts) in rows.items()
        ),
        batch_size=1000,
    )


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0024_stats_seat_figures'),
    ]

    operations = [
        migrations.CreateModel(
            name='StatisticsTotal',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('games', models.PositiveIntegerField()),
                ('firsts', models.PositiveIntegerField()),
                ('seconds', models.PositiveIntegerField()),
                ('thirds', models.PositiveIntegerField()),
                ('fourths', models.PositiveIntegerField()),
                ('hands', models.PositiveIntegerField()),
                ('wins', models.PositiveIntegerField()),
                ('tsumo', models.PositiveIntegerField()),
                ('deal_ins', models.PositiveIntegerField()),
                ('riichi', models.PositiveIntegerField()),
                ('dealer_hands', models.PositiveIntegerField()),
                ('dealer_repeats', models.PositiveIntegerField()),
                ('won_total', models.BigIntegerField()),
                ('won_counted', models.PositiveIntegerField()),
                ('dealt_total', models.BigIntegerField()),
                ('dealt_counted', models.PositiveIntegerField()),
                ('yaku', models.JSONField(blank=True, default=dict)),
                ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.event')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.player')),
                ('session', models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.session')),
            ],
            options={
                'indexes': [models.Index(fields=['event', 'session'], name='statistics_total_event_session'), models.Index(fields=['player', 'event', 'session'], name='statistics_total_player_event')],
                'constraints': [models.UniqueConstraint(condition=models.Q(('session__isnull', True)), fields=('event', 'player'), name='one_event_statistics_per_player'), models.UniqueConstraint(fields=('session', 'player'), name='one_session_statistics_per_player')],
            },
        ),
        migrations.AddIndex(
            model_name='playertotal',
            index=models.Index(fields=['player', 'event', 'session'], name='player_total_player_event'),
        ),
        migrations.RunPython(add_up_statistics, migrations.RunPython.noop),
    ]
