"""A win of a three-player game keeps the Norths its winner set aside (kita), which its
`dora` already counts; empty for every win stored before and for four-player games."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0025_stored_statistics"),
    ]

    operations = [
        migrations.AddField(
            model_name="win",
            name="kita",
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="kita"),
        ),
    ]
