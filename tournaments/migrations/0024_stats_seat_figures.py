"""Each game seat keeps its player's statistics for the game; those of the games stored
already are counted here from their hand rows, as the statistics page counted them."""

from collections import Counter

from django.db import migrations, models

# Dora as some logs list them among the yaku: never counted as yaku.
NOT_YAKU = frozenset({"ドラ", "裏ドラ", "赤ドラ"})
FIGURES = (
    "hands", "wins", "tsumo", "deal_ins", "riichi", "dealer_hands", "dealer_repeats",
    "won_total", "won_counted", "dealt_total", "dealt_counted",
)  # fmt: skip


def count_seat_figures(apps, schema_editor):
    GameSeat = apps.get_model("tournaments", "GameSeat")
    Hand = apps.get_model("tournaments", "Hand")
    seats = {}  # (game, seat) -> the seat, its figures and its yaku
    for seat in GameSeat.objects.only("pk", "game_id", "seat").iterator(chunk_size=2000):
        seat.figures, seat.counted_yaku = dict.fromkeys(FIGURES, 0), Counter()
        seats[(seat.game_id, seat.seat)] = seat
    # One row per win, or one row for a hand without wins (a left join).
    rows = (
        Hand.objects.exclude(result="chombo")
        .order_by("game_id", "number", "wins__order")
        .values_list(
            "game_id", "number", "result", "riichi_mask", "dealer", "deltas",
            "wins__winner", "wins__loser", "wins__yaku",
        )
    )  # fmt: skip
    current = previous = None
    dealt_in = False
    for game_id, number, result, riichi_mask, dealer, deltas, winner, loser, yaku in rows.iterator(
        chunk_size=2000
    ):
        if (game_id, number) != current:
            current = (game_id, number)
            for seat in range(4):
                if (game_id, seat) in seats:
                    row = seats[(game_id, seat)].figures
                    row["hands"] += 1
                    row["riichi"] += riichi_mask >> seat & 1
            if dealer is not None and (game_id, dealer) in seats:
                row = seats[(game_id, dealer)].figures
                row["dealer_hands"] += 1
                row["dealer_repeats"] += previous == (game_id, dealer)
            previous = (game_id, dealer) if dealer is not None else None
            dealt_in = False
        if winner is None:
            continue
        deltas = deltas if len(deltas or []) == 4 else None
        seat = seats.get((game_id, winner))
        if seat is not None:
            row = seat.figures
            row["wins"] += 1
            row["tsumo"] += result == "tsumo"
            seat.counted_yaku.update(
                k for k in yaku or [] if isinstance(k, str) and k not in NOT_YAKU
            )
            if deltas:
                row["won_total"] += deltas[winner] + 1000 * (riichi_mask >> winner & 1)
                row["won_counted"] += 1
        seat = seats.get((game_id, loser)) if loser is not None else None
        if seat is not None and not dealt_in:
            dealt_in = True  # a double ron is one deal-in
            row = seat.figures
            row["deal_ins"] += 1
            if deltas:
                row["dealt_total"] -= deltas[loser] + 1000 * (riichi_mask >> loser & 1)
                row["dealt_counted"] += 1
    # A row at a time: bulk_update's CASE expressions cost far more to build for many rows.
    for seat in seats.values():
        if seat.figures["hands"]:
            GameSeat.objects.filter(pk=seat.pk).update(
                **seat.figures, yaku=dict(sorted(seat.counted_yaku.items()))
            )


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0023_game_round_now'),
    ]

    operations = [
        migrations.AddField(
            model_name='gameseat',
            name='deal_ins',
            field=models.PositiveIntegerField(default=0, editable=False, verbose_name='deal-ins'),
        ),
        migrations.AddField(
            model_name='gameseat',
            name='dealer_hands',
            field=models.PositiveIntegerField(default=0, editable=False, verbose_name='dealer hands'),
        ),
        migrations.AddField(
            model_name='gameseat',
            name='dealer_repeats',
            field=models.PositiveIntegerField(default=0, editable=False, verbose_name='dealer repeats'),
        ),
        migrations.AddField(
            model_name='gameseat',
            name='dealt_counted',
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.AddField(
            model_name='gameseat',
            name='dealt_total',
            field=models.IntegerField(default=0, editable=False, verbose_name='points dealt in'),
        ),
        migrations.AddField(
            model_name='gameseat',
            name='hands',
            field=models.PositiveIntegerField(default=0, editable=False, verbose_name='hands'),
        ),
        migrations.AddField(
            model_name='gameseat',
            name='riichi',
            field=models.PositiveIntegerField(default=0, editable=False, verbose_name='riichi'),
        ),
        migrations.AddField(
            model_name='gameseat',
            name='tsumo',
            field=models.PositiveIntegerField(default=0, editable=False, verbose_name='tsumo'),
        ),
        migrations.AddField(
            model_name='gameseat',
            name='wins',
            field=models.PositiveIntegerField(default=0, editable=False, verbose_name='wins'),
        ),
        migrations.AddField(
            model_name='gameseat',
            name='won_counted',
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.AddField(
            model_name='gameseat',
            name='won_total',
            field=models.IntegerField(default=0, editable=False, verbose_name='points won'),
        ),
        migrations.AddField(
            model_name='gameseat',
            name='yaku',
            field=models.JSONField(blank=True, default=dict, editable=False, verbose_name='yaku'),
        ),
        migrations.RunPython(count_seat_figures, migrations.RunPython.noop),
    ]
