"""Players carry an EMA number (8 digits, one player per number), a country code and the
last and first names the EMA lists; events say whether players had to qualify (for the
MERS weight) and which substitute rule they keep."""

from collections import Counter

from django.conf import settings
from django.db import migrations, models

import tournaments.models


def tidy_ema_numbers(apps, schema_editor):
    """EMA numbers written with spaces ("0401 0001") lose them, as the player form has always
    stored them. Two players with one number stop the migration with their names: which of
    them holds the number is for a person to decide, in the admin, before migrating."""
    Player = apps.get_model("tournaments", "Player")
    for player in Player.objects.exclude(ema_number=""):
        tidy = "".join(player.ema_number.split())
        if tidy != player.ema_number:
            player.ema_number = tidy
            player.save(update_fields=["ema_number"])
    numbers = Counter(Player.objects.exclude(ema_number="").values_list("ema_number", flat=True))
    shared = sorted(number for number, count in numbers.items() if count > 1)
    if shared:
        names = Player.objects.filter(ema_number__in=shared).order_by("ema_number", "pk")
        held = ", ".join(f"{p.ema_number}: {p.display_name}" for p in names)
        raise RuntimeError(
            "Players share EMA numbers (" + held + "). Give each number to one player in "
            "the admin, then migrate again."
        )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0034_stages_and_entrants"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="ema_qualification",
            field=models.BooleanField(
                default=False,
                help_text="Players had to qualify to take part: the MERS weight counts one more.",
                verbose_name="qualification needed",
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="substitute_rule",
            field=models.CharField(
                choices=[
                    ("unranked", "A substitute is not ranked; the replaced player misses the game"),
                    ("ema", "EMA: the replaced player's game counts −30 match points"),
                ],
                default="unranked",
                help_text="What a game a substitute played counts for the player they replaced.",
                max_length=10,
                verbose_name="substitute rule",
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="country",
            field=models.CharField(
                blank=True,
                help_text="Two letters of ISO 3166-1, e.g. DE, FR or JP.",
                max_length=2,
                validators=[tournaments.models.validate_country],
                verbose_name="country",
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="first_name",
            field=models.CharField(
                blank=True,
                help_text="As the EMA lists the player; empty: the real name before its last word.",
                max_length=60,
                verbose_name="first name",
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="last_name",
            field=models.CharField(
                blank=True,
                help_text="As the EMA lists the player; empty: the last word of the real name.",
                max_length=60,
                verbose_name="last name",
            ),
        ),
        migrations.AlterField(
            model_name="player",
            name="ema_number",
            field=models.CharField(
                blank=True,
                help_text="European Mahjong Association ID: 8 digits.",
                max_length=20,
                validators=[tournaments.models.validate_ema_number],
                verbose_name="EMA number",
            ),
        ),
        migrations.RunPython(tidy_ema_numbers, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                condition=models.Q(("ema_number", ""), _negated=True),
                fields=("ema_number",),
                name="one_player_per_ema_number",
                violation_error_message="Another player has this EMA number already.",
            ),
        ),
    ]
