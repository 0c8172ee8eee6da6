"""The trail's kinds of change: registrations, games created and deleted by hand, withdrawals
and referee calls together."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0030_registration"),
    ]

    operations = [
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
                    ("game_created", "Game created"),
                    ("game_deleted", "Game deleted"),
                    ("withdrawn", "Player withdrawn"),
                    ("returned", "Player back"),
                    ("referee_called", "Referee called"),
                    ("referee_coming", "Referee on the way"),
                    ("referee_resolved", "Referee call resolved"),
                ],
                max_length=20,
                verbose_name="kind",
            ),
        ),
    ]
