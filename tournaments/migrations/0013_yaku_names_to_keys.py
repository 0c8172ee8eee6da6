"""Wins imported before the converter mapped the logs' yaku names to the yaku table's keys
keep Tenhou's and Mahjong Soul's own names ("立直", "役牌 白", "ドラ"): map them to keys with
the converter's own mapping (`tenhou.names`), so that statistics count them with the rest.

Dora, ura dora and red fives are no yaku: they are already counted in the win's `dora`,
so their names leave the list. A name the mapping does not know is left as it is.
"""

from django.db import migrations

from tenhou import names

BATCH = 1000


def keys_of(yaku: list) -> list:
    mapped = []
    for name in yaku:
        if not isinstance(name, str):
            mapped.append(name)
        elif names.is_dora(name):
            continue
        else:
            mapped.append(names.yaku_key(name) or name)
    return mapped


def yaku_names_to_keys(apps, schema_editor):
    Win = apps.get_model("tournaments", "Win")
    changed = []
    for win in Win.objects.only("pk", "yaku").order_by("pk").iterator(chunk_size=BATCH):
        if not isinstance(win.yaku, list) or not win.yaku:
            continue
        mapped = keys_of(win.yaku)
        if mapped != win.yaku:
            win.yaku = mapped
            changed.append(win)
        if len(changed) >= BATCH:
            Win.objects.bulk_update(changed, ["yaku"])
            changed = []
    if changed:
        Win.objects.bulk_update(changed, ["yaku"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0012_win_pao_yakuman"),
    ]

    operations = [
        migrations.RunPython(yaku_names_to_keys, migrations.RunPython.noop, elidable=True),
    ]
