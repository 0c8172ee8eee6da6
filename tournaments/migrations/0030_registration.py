"""Self-registration before the day: an event may open to registration by signed-in
players (places, a closing time), each registration waits for the organisers' answer, and
the trail records the answers."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0028_signals_and_referee_calls"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="registration_closes_at",
            field=models.DateTimeField(
                blank=True,
                help_text="After this, nobody registers or withdraws themselves.",
                null=True,
                verbose_name="registration closes at",
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="registration_open",
            field=models.BooleanField(
                default=False,
                help_text="Signed-in players may ask for a place; the organisers confirm each one.",
                verbose_name="registration open",
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="registration_places",
            field=models.PositiveIntegerField(
                blank=True,
                help_text="Confirmed places at most; later players go on the waiting list.",
                null=True,
                verbose_name="places",
            ),
        ),
        migrations.AlterField(
            model_name="trailentry",
            name="kind",
            field=models.CharField(
                choices=[
                    ("hand_added", "Hand added"),
                    ("hand_edited", "Hand edited"),
                    ("hand_deleted", "Hand deleted"),
                    ("hand_undone", "Hand undone"),
                    ("final_scores", "Final scores"),
                    ("finished", "Game finished"),
                    ("reopened", "Game reopened"),
                    ("time_called", "Time called"),
                    ("penalty_added", "Penalty added"),
                    ("penalty_removed", "Penalty taken back"),
                    ("rules_changed", "Rules changed"),
                    ("seats_changed", "Seats changed"),
                    ("link_changed", "Table link changed"),
                    ("entry_confirmed", "Registration confirmed"),
                    ("entry_declined", "Registration declined"),
                ],
                max_length=20,
                verbose_name="kind",
            ),
        ),
        migrations.CreateModel(
            name="Registration",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("asked", "Waiting for the organisers"),
                            ("waiting", "On the waiting list"),
                            ("confirmed", "Confirmed"),
                            ("declined", "Declined"),
                            ("withdrawn", "Withdrawn"),
                        ],
                        max_length=10,
                        verbose_name="status",
                    ),
                ),
                ("asked_at", models.DateTimeField(verbose_name="asked at")),
                (
                    "answered_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="answered at"),
                ),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="registrations",
                        to="tournaments.event",
                        verbose_name="event",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="registrations",
                        to="tournaments.player",
                        verbose_name="player",
                    ),
                ),
            ],
            options={
                "verbose_name": "registration",
                "verbose_name_plural": "registrations",
                "ordering": ["event", "asked_at", "pk"],
                "indexes": [
                    models.Index(fields=["event", "status", "asked_at"], name="registration_queue")
                ],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("event", "player"), name="one_registration_per_player"
                    )
                ],
            },
        ),
    ]
