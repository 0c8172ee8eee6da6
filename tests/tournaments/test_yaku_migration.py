"""The data migration that maps the yaku names of games imported before the converter
stored keys ("立直", "役牌 白") to the yaku table's keys, run on a database at the
migration before it."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournaments", "0012_win_pao_yakuman")]
AFTER = [("tournaments", "0013_yaku_names_to_keys")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def old_wins(transactional_db):
    """Wins as the converter stored them before it mapped names: Tenhou's names with the
    dora among them, a Mahjong Soul name, a name no table knows, and a hand-entered win
    that has keys already."""
    apps = migrate(BEFORE)
    Event = apps.get_model("tournaments", "Event")
    Session = apps.get_model("tournaments", "Session")
    Game = apps.get_model("tournaments", "Game")
    Hand = apps.get_model("tournaments", "Hand")
    Win = apps.get_model("tournaments", "Win")
    day = datetime.date(2026, 1, 1)
    event = Event.objects.create(name="Old", slug="old", starts_on=day)
    session = Session.objects.create(event=event, number=1, date=day)
    game = Game.objects.create(session=session, table_number=1)
    wins = {}
    for number, yaku in enumerate(
        [
            ["立直", "一発", "門前清自摸和", "役牌 白", "ドラ", "裏ドラ", "赤ドラ"],
            ["役牌:場風牌", "ダブル立直", "国士無双十三面待ち"],
            ["立直", "some house yaku"],
            ["riichi", "pinfu"],
            [],
        ],
        start=1,
    ):
        hand = Hand.objects.create(game=game, number=number, result="tsumo")
        wins[number] = Win.objects.create(hand=hand, winner=0, han=3, fu=30, yaku=yaku, dora=2)
    yield {number: win.pk for number, win in wins.items()}
    migrate(migrate_latest())


def migrate_latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


@pytest.mark.slow
def test_the_migration_maps_stored_yaku_names_to_keys_and_leaves_unknown_names(old_wins):
    apps = migrate(AFTER)
    Win = apps.get_model("tournaments", "Win")
    yaku = {number: Win.objects.get(pk=pk).yaku for number, pk in old_wins.items()}
    # The dora are counted in `dora` already: they leave the list of yaku.
    assert yaku[1] == ["riichi", "ippatsu", "menzen_tsumo", "haku"]
    assert yaku[2] == ["round_wind", "double_riichi", "kokushi_13"]
    assert yaku[3] == ["riichi", "some house yaku"]
    assert yaku[4] == ["riichi", "pinfu"]
    assert yaku[5] == []
    assert Win.objects.get(pk=old_wins[1]).dora == 2
