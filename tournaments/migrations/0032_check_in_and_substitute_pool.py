"""Check-in before a session is seated (who is present, who replaces a no-show), and the
event's substitute pool: roster entries marked as substitutes."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0031_trail_kinds"),
    ]

    operations = [
        migrations.AddField(
            model_name="rosterentry",
            name="is_substitute",
            field=models.BooleanField(
                default=False,
                help_text=(
                    "In the substitute pool: not seated as a regular player, but ready to take "
                    "a no-show's seat or to fill a short table; the games count for the others."
                ),
                verbose_name="substitute",
            ),
        ),
        migrations.CreateModel(
            name="CheckIn",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("present", models.BooleanField(default=True, verbose_name="present")),
                ("updated_at", models.DateTimeField(auto_now=True, verbose_name="updated at")),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="check_ins",
                        to="tournaments.player",
                        verbose_name="player",
                    ),
                ),
                (
                    "replaced_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="tournaments.player",
                        verbose_name="replaced by",
                    ),
                ),
                (
                    "session",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="check_ins",
                        to="tournaments.session",
                        verbose_name="session",
                    ),
                ),
            ],
            options={
                "verbose_name": "check-in",
                "verbose_name_plural": "check-ins",
                "ordering": ["session", "player__display_name"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("session", "player"), name="one_check_in_per_player"
                    )
                ],
            },
        ),
    ]
