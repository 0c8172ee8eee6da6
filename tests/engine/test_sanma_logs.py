"""Three-player logs: Tenhou's tenhou.net/6 JSON and mjlog, and Mahjong Soul's JSON as the
common converters write it, replayed against their own point changes.

The logs are self-made, in the forms the logs take (arrays of four seats with the fourth
empty; `n3=""` and the three-player game-type bit in the mjlog); every point change and
final score in them was worked out by hand:

- tests/data/tenhou-sanma/ (三鳳南喰赤, JSON and mjlog of one game, tenhou-sanma rules):
  E1 seat 1 sets a North aside and tsumos 4 han 30 fu with 抜きドラ (2,000 + 3,900, the
  North's 2,000 lost); E2 a draw with two tenpai seats (seat 0 pays 2,000) and a riichi;
  E2-1 seat 0 tsumos 2 han 30 fu with the stick (500 + 1,000 and 100 a honba from each
  payer, + 1,000); E3 only the dealer tenpai; E3-1 a riichi and a ron of 3,900 + 200 for
  the honba; S1 a yakuman ron of 32,000 takes the dealer below zero.
- tests/data/mahjongsoul-sanma/ (玉の間三人南喰赤, mahjongsoul-sanma rules): a bare 流局 at
  which nobody was tenpai (the tiles tell, a North set aside among them), a tsumo of
  3 han 40 fu with 抜きドラ after a honba (1,300 + 100 and 2,600 + 100), a draw with one
  tenpai seat, and a dealer yakuman ron (48,000 + 200 + a stick) that ends the game.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tenhou
from scoring.game import score
from tenhou import convert, convert_file
from tenhou.tiles import Tiles

DATA = Path(__file__).resolve().parents[1] / "data"
TENHOU_SANMA = DATA / "tenhou-sanma" / "2024070112gm-00b9-0000-3a5c7e11"
TENHOU_JSON = TENHOU_SANMA.with_suffix(".json")
TENHOU_XML = TENHOU_SANMA.with_suffix(".xml")
SOUL = DATA / "mahjongsoul-sanma" / "240715-1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d.json"
LOGS = [TENHOU_JSON, TENHOU_XML, SOUL]


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_each_three_player_log_replays_as_the_log_paid(path):
    game = convert_file(path)
    assert tenhou.differences(game) == []
    result = score(game.record)
    assert [hand["deltas"] for hand in result["hands"]] == game.hand_deltas
    assert result["final_scores"] == game.final_scores
    assert result["ended_by"] == "bust"


@pytest.mark.parametrize(
    "path, platform, length, preset",
    [
        (TENHOU_JSON, "tenhou", "hanchan", "tenhou-sanma"),
        (TENHOU_XML, "tenhou", "hanchan", "tenhou-sanma"),
        (SOUL, "mahjongsoul", "hanchan", "mahjongsoul-sanma"),
    ],
    ids=lambda v: v.name if isinstance(v, Path) else v,
)
def test_the_platform_length_and_three_seats_come_from_the_log(path, platform, length, preset):
    game = convert_file(path)
    assert (game.platform, game.length, game.seats, game.preset) == (
        platform,
        length,
        3,
        preset,
    )
    assert game.record["rules"] == preset
    assert len(game.record["players"]) == len(game.players) == len(game.final_scores) == 3


def test_the_json_and_the_mjlog_of_one_three_player_game_give_one_record():
    assert convert_file(TENHOU_JSON).record == convert_file(TENHOU_XML).record


def test_the_tenhou_game_pays_tsumo_loss_honba_and_noten_as_its_rules_say():
    game = convert_file(TENHOU_JSON)
    deltas = game.hand_deltas
    assert deltas[0] == [-3900, 5900, -2000]  # 30 fu 4 han: 3,900 + 2,000, North's lost
    assert deltas[1] == [-2000, 1000, 0]  # two tenpai; seat 2's riichi stick on the table
    assert deltas[2] == [2700, -1100, -600]  # 1,000 + 100 and 500 + 100, + the stick
    assert deltas[4] == [-4100, 4100, 0]  # 3,900 + 200; the riichi stick back
    hands = game.record["hands"]
    assert [h["result"] for h in hands] == ["tsumo", "draw", "tsumo", "draw", "ron", "ron"]
    assert (hands[1]["tenpai"], hands[1]["riichi"], hands[3]["tenpai"]) == ([1, 2], [2], [2])
    rounds = [h["round"] for h in score(game.record)["hands"]]
    assert rounds == ["E1", "E2", "E2", "E3", "E3", "S1"]


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_a_north_set_aside_is_counted_as_dora_and_kept_as_kita(path):
    wins = [w for h in convert_file(path).record["hands"] for w in h.get("wins", [])]
    kita = [w for w in wins if "kita" in w]
    assert len(kita) == 1 and kita[0]["kita"] == 1
    assert kita[0]["dora"] >= 1  # the 抜きドラ han are among the dora
    assert "kita" not in kita[0]["yaku"]


def test_the_tiles_of_a_seat_that_set_a_north_aside_add_up_without_it():
    entry = json.loads(TENHOU_JSON.read_text(encoding="utf-8"))["log"][0]
    tiles = Tiles.from_json(entry[7], entry[8], entry[9], 1)
    north = 30
    assert tiles.counts[north] == 0
    assert sum(tiles.counts) == 14  # the winning hand, the North set aside


def test_a_bare_draw_in_a_three_player_game_reads_tenpai_from_three_seats_of_tiles():
    hand = convert_file(SOUL).record["hands"][0]
    assert hand == {"result": "draw", "riichi": [], "tenpai": []}


def test_a_three_player_game_is_refused_by_four_player_rules_and_another_platform():
    game = convert_file(TENHOU_JSON)
    assert game.refusal("tenhou-sanma", "hanchan") is None
    assert game.refusal("tenhou", "hanchan") == (
        "This log is of a Tenhou three-player South game (三鳳南喰赤); this event plays the"
        " tenhou rules, not an online platform's three-player game. Import it into an event"
        " with the tenhou-sanma preset."
    )
    assert game.refusal("mahjongsoul-sanma", "hanchan") == (
        "This log is of a Tenhou three-player South game (三鳳南喰赤); this event plays"
        " Mahjong Soul three-player South games (rules preset mahjongsoul-sanma). Import it"
        " into an event with the tenhou-sanma preset."
    )
    assert game.refusal("tenhou-sanma-east", "tonpuusen") is not None
    assert game.played_under == "Tenhou, three-player South game, 三鳳南喰赤"
    assert tenhou.differences(game, "tenhou")[0].startswith(
        "the rules of this event cannot settle it: 'players' has 3 names"
    )


def test_a_three_player_game_kept_as_plain_values_reads_back_with_its_seats():
    game = convert_file(SOUL)
    again = tenhou.TenhouGame.from_dict(json.loads(json.dumps(game.to_dict())))
    assert again == game


@pytest.mark.parametrize(
    "disp, platform, length",
    [
        ("三鳳南喰赤", "tenhou", "hanchan"),
        ("三般東喰赤", "tenhou", "tonpuusen"),
        ("玉の間三人南喰赤", "mahjongsoul", "hanchan"),
        ("金の間三人東喰赤", "mahjongsoul", "tonpuusen"),
        ("友人戦三人南", "mahjongsoul", "hanchan"),
        ("玉之间三人东", "mahjongsoul", "tonpuusen"),
    ],
)
def test_the_rule_name_says_the_platform_and_length_of_a_three_player_game(disp, platform, length):
    doc = json.loads(SOUL.read_text(encoding="utf-8"))
    doc["rule"]["disp"] = disp
    game = convert(json.dumps(doc, ensure_ascii=False))
    assert (game.platform, game.length, game.seats) == (platform, length, 3)


def test_a_converter_that_writes_three_names_and_three_scores_reads_alike():
    doc = json.loads(SOUL.read_text(encoding="utf-8"))
    doc["name"] = doc["name"][:3]
    doc["sc"] = doc["sc"][:6]
    for entry in doc["log"]:
        entry[1] = entry[1][:3]
        if len(entry[16]) > 1:
            entry[16][1] = entry[16][1][:3]
    game = convert(json.dumps(doc, ensure_ascii=False))
    assert game.record == convert_file(SOUL).record
    assert tenhou.differences(game) == []


def test_a_three_player_log_that_pays_the_empty_fourth_seat_is_refused():
    doc = json.loads(SOUL.read_text(encoding="utf-8"))
    doc["log"][1][16][1] = [-1400, -2700, 4100, 100]
    with pytest.raises(tenhou.game.ScoringError, match="pays the empty fourth seat"):
        convert(json.dumps(doc, ensure_ascii=False))


def test_kita_in_english_is_counted_as_kita():
    doc = json.loads(SOUL.read_text(encoding="utf-8"))
    doc["log"][1][16][2][6] = "Kita(1飜)"
    win = convert(json.dumps(doc, ensure_ascii=False)).record["hands"][1]["wins"][0]
    assert (win["kita"], win["dora"]) == (1, 1)


def test_a_three_player_mjlog_with_a_fourth_score_is_refused():
    xml = TENHOU_XML.read_text(encoding="utf-8").replace(
        'ten="350,350,350,0"', 'ten="350,350,350,250"'
    )
    with pytest.raises(tenhou.game.ScoringError, match="lists 4 seats' scores in a 3-player"):
        convert(xml)
