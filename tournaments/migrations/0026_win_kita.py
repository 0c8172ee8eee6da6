"""A win of a three-player game keeps the Norths its winner set aside (kita), which its
`dora` already counts; empty for every win stored before and for four-player games."""

from django.db import migrations, models


class Migration(migrations.Migration):
    # After 0025 once both are merged; 0024 is the latest migration on this branch.
    dependencies = [
        ("tournaments", "0024_stats_seat_figures"),
    ]

    operations = [
        migrations.AddField(
            model_name="win",
            name="kita",
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="kita"),
        ),
    ]
