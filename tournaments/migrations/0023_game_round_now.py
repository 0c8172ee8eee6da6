"""A game keeps the round and honba of its next hand beside its results, so that the live
screen replays nothing. Games already going at this upgrade show no round on the live
screen until their next hand is entered, which writes it; new games start at E1-0."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0022_two_versions"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="round_now",
            field=models.CharField(blank=True, default="", max_length=8),
        ),
        migrations.AlterField(
            model_name="game",
            name="round_now",
            field=models.CharField(
                blank=True,
                default="E1-0",
                help_text=(
                    "The round and honba of the next hand (E3-1); empty once the game is over."
                ),
                max_length=8,
                verbose_name="round now",
            ),
        ),
    ]
