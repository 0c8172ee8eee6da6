"""A game keeps the round and honba of its next hand beside its results (the live screen
reads them instead of replaying every table's game); games still going get theirs here."""

from django.db import migrations, models


def fill_round_now(apps, schema_editor):
    # The engine replays each game still going from its record, built by the app's own
    # model (the record's shape lives there), once, at this upgrade.
    import scoring
    from tournaments.models import Game

    for game in Game.objects.filter(status="in_progress", entry_mode="hands").prefetch_related(
        "seats__player", "hands__wins", "penalties"
    ):
        try:
            result = scoring.replay(scoring.parse_record(game.to_record()))
        except scoring.ScoringError:
            continue
        if not result.finished:
            label = f"{result.state.round_label}-{result.state.honba}"
            Game.objects.filter(pk=game.pk).update(round_now=label)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0022_two_versions"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="round_now",
            field=models.CharField(
                blank=True,
                default="E1-0",
                help_text="The round and honba of the next hand (E3-1); empty once the game is over.",
                max_length=8,
                verbose_name="round now",
            ),
        ),
        migrations.RunPython(fill_round_now, migrations.RunPython.noop),
    ]
