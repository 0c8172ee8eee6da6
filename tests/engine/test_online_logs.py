"""Mahjong Soul and East-only logs: platform and length, each converter quirk, and replays.

The logs in tests/data/mahjongsoul/ and tests/data/tenhou-east/ are small games written in
the forms the logs take (tenhou.net/6 JSON as Tenhou and the Mahjong Soul converters write
it, and Tenhou's mjlog XML): every hand's point changes and the final scores in them are
worked out by hand, and the engine must reach the same under the log's own preset.

- 玉の間 South game (pretty-printed): a bare 流局 at which all four were tenpai (no
  payments), a 四開槓 abort, a ron by the dealer with a double wind and a riichi stick, and
  a double yakuman (四暗刻単騎) written as one (役満) item: 64,000 + 900 from seat 1, who
  goes below zero.
- 金の間 East-only game (one line): a dealer tsumo, a draw with two tenpai, a double ron
  where the winner nearest the discarder takes the honba and the stick, and a last hand
  that ends the game at 31,900.
- Tenhou East-only game (特東喰赤), JSON and mjlog: nobody has 30,000 after East 4, so it
  runs on into the South round, where a mangan tsumo to 33,000 ends it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import tenhou
from scoring.errors import ScoringError
from scoring.game import score
from scoring.yaku import YAKU
from tenhou import convert, convert_file
from tenhou.names import YAKU_BY_ID, is_dora, yaku_key

DATA = Path(__file__).resolve().parents[1] / "data"
JADE = DATA / "mahjongsoul" / "240612-6c1d9a4e-3b7f-4d21-8e5a-0f2c9b7d3e11.json"
GOLD_EAST = DATA / "mahjongsoul" / "240613-2a9e5d71-84c0-4f3b-b6d2-7e1a0c5f9b42.json"
TENHOU_EAST = DATA / "tenhou-east" / "2024061221gm-0021-0000-5e1f0c3a"
LOGS = [JADE, GOLD_EAST, TENHOU_EAST.with_suffix(".json"), TENHOU_EAST.with_suffix(".xml")]


def doc_of(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def from_doc(doc: dict, *, indent: int | None = None):
    return convert(json.dumps(doc, ensure_ascii=False, indent=indent))


# --- replays against the log's own point changes ---------------------------------------


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_each_hand_made_log_replays_under_its_own_preset_as_the_log_paid(path):
    game = convert_file(path)
    assert tenhou.differences(game) == []
    result = score(game.record)
    assert [hand["deltas"] for hand in result["hands"]] == game.hand_deltas
    assert result["final_scores"] == game.final_scores


@pytest.mark.parametrize(
    "path, platform, length, preset",
    [
        (JADE, "mahjongsoul", "hanchan", "mahjongsoul"),
        (GOLD_EAST, "mahjongsoul", "tonpuusen", "mahjongsoul-east"),
        (TENHOU_EAST.with_suffix(".json"), "tenhou", "tonpuusen", "tenhou-east"),
        (TENHOU_EAST.with_suffix(".xml"), "tenhou", "tonpuusen", "tenhou-east"),
    ],
    ids=lambda v: v.name if isinstance(v, Path) else v,
)
def test_each_record_says_its_platform_and_length_through_its_preset(
    path, platform, length, preset
):
    game = convert_file(path)
    assert (game.platform, game.length, game.preset) == (platform, length, preset)
    assert game.record["rules"] == preset


def test_the_mahjong_soul_south_game_ends_when_a_seat_goes_below_zero():
    game = convert_file(JADE)
    result = score(game.record)
    assert result["ended_by"] == "bust"
    assert result["final_scores"] == [29500, -43400, 24000, 89900]
    assert game.played_under == "Mahjong Soul, South game, 玉の間南喰赤"


def test_the_mahjong_soul_east_game_ends_after_east_4_once_someone_has_30000():
    result = score(convert_file(GOLD_EAST).record)
    assert [hand["round"] for hand in result["hands"]] == ["E1", "E1", "E2", "E3", "E4"]
    assert result["ended_by"] == "last_hand"
    assert result["final_scores"] == [20900, 31900, 29100, 18100]


def test_a_tenhou_east_game_runs_on_into_the_south_round_in_json_and_xml():
    as_json = convert_file(TENHOU_EAST.with_suffix(".json"))
    as_xml = convert_file(TENHOU_EAST.with_suffix(".xml"))
    assert as_json.record == as_xml.record
    assert as_json.hand_deltas == as_xml.hand_deltas
    assert as_json.ruleset == as_xml.ruleset == "特東喰赤"
    result = score(as_json.record)
    # After East 4 the top score is 26,800: below 30,000, so South 1 is played.
    assert [hand["round"] for hand in result["hands"]] == ["E1", "E2", "E3", "E4", "S1"]
    assert result["hands"][3]["scores_after"] == [26800, 25000, 23000, 25200]
    assert result["ended_by"] == "west_round"
    assert result["final_scores"] == [22800, 33000, 21000, 23200]
    assert [str(p) for p in result["match_points"]] == ["-17.2", "43.0", "-29.0", "3.2"]


def test_the_mjlog_game_type_bit_says_south_or_east_only():
    xml = TENHOU_EAST.with_suffix(".xml").read_text(encoding="utf-8")
    assert '<GO type="33"' in xml
    south = convert(xml.replace('<GO type="33"', '<GO type="41"'))
    assert (south.length, south.preset, south.ruleset) == ("hanchan", "tenhou", "特南喰赤")
    # Under South-game rules the same hands would not have ended in South 1.
    assert tenhou.differences(south) != []


# --- each quirk of the Mahjong Soul converters ----------------------------------------


def test_a_bare_draw_with_no_payments_where_all_four_were_tenpai_keeps_the_dealer():
    game = convert_file(JADE)
    assert doc_of(JADE)["log"][0][16] == ["流局", [0, 0, 0, 0]]
    assert game.record["hands"][0] == {"result": "draw", "riichi": [], "tenpai": [0, 1, 2, 3]}
    result = score(game.record)
    assert (result["hands"][1]["round"], result["hands"][1]["honba"]) == ("E1", 1)


def test_a_draw_written_as_only_its_name_reads_tenpai_from_the_tiles_too():
    doc = doc_of(JADE)
    doc["log"][0][16] = ["流局"]
    assert from_doc(doc).record["hands"][0]["tenpai"] == [0, 1, 2, 3]


def test_a_bare_draw_with_no_payments_and_nobody_waiting_is_all_noten():
    doc = doc_of(JADE)
    for seat in range(4):
        # Each seat draws and keeps a tile it cannot use, and throws one of its waits.
        doc["log"][0][4 + 3 * seat] = [11, 14, 17, 21, 24, 27, 31, 34, 37, 41, 42, 43, 44]
        doc["log"][0][6 + 3 * seat] = [60]
    assert from_doc(doc).record["hands"][0]["tenpai"] == []


def test_four_kans_spelt_as_mahjong_soul_spells_them_is_an_abort():
    hand = convert_file(JADE).record["hands"][1]
    assert doc_of(JADE)["log"][1][16] == ["四開槓"]
    assert hand == {"result": "abort", "riichi": [], "reason": "four_kans"}


@pytest.mark.parametrize(
    "name, reason",
    [
        ("四開槓", "four_kans"),
        ("四槓散了", "four_kans"),
        ("三家和", "triple_ron"),
        ("三家和了", "triple_ron"),
        ("九種九牌", "nine_terminals"),
        ("四風連打", "four_winds"),
        ("四家立直", "four_riichi"),
    ],
)
def test_every_spelling_of_an_abort_names_its_reason(name, reason):
    doc = doc_of(JADE)
    doc["log"][1][16] = [name]
    assert from_doc(doc).record["hands"][1]["reason"] == reason


def test_a_double_yakuman_written_as_one_item_takes_its_multiple_from_the_points():
    win = convert_file(JADE).record["hands"][3]["wins"][0]
    assert doc_of(JADE)["log"][3][16][2][3:] == ["役満64000点", "四暗刻単騎(役満)"]
    assert (win["yakuman"], win["yaku"], win["loser"]) == (2, ["suuankou_tanki"], 1)


@pytest.mark.parametrize(
    "points, dealer_wins, tsumo, multiple",
    [
        ("役満32000点", False, False, 1),
        ("役満64000点", False, False, 2),
        ("役満96000点", True, False, 2),
        ("役満8000-16000点", False, True, 1),
        ("役満16000-32000点", False, True, 2),
        ("役満32000点∀", True, True, 2),
    ],
)
def test_the_yakuman_multiple_follows_the_points_of_ron_and_tsumo(
    points, dealer_wins, tsumo, multiple
):
    doc = doc_of(JADE)
    entry = doc["log"][3]
    winner = 0 if dealer_wins else 3
    entry[16] = [
        "和了",
        [0, 0, 0, 0],
        [winner, winner if tsumo else 1, winner, points, "国士無双(役満)"],
    ]
    assert from_doc(doc).record["hands"][3]["wins"][0]["yakuman"] == multiple


def test_pretty_printed_and_one_line_json_convert_alike():
    text = JADE.read_text(encoding="utf-8")
    assert text.startswith("{\n  ")
    pretty = convert(text)
    one_line = from_doc(doc_of(JADE))
    with_crlf = convert(text.replace("\n", "\r\n").encode("utf-8-sig"))
    assert pretty.record == one_line.record == with_crlf.record
    assert pretty.log_id == "240612-6c1d9a4e-3b7f-4d21-8e5a-0f2c9b7d3e11"


def test_at_a_double_ron_only_the_winner_nearest_the_discarder_takes_honba_and_sticks():
    game = convert_file(GOLD_EAST)
    hand = game.record["hands"][2]
    assert [(w["winner"], w["loser"]) for w in hand["wins"]] == [(2, 0), (3, 0)]
    assert hand["riichi"] == [3]
    # 2,000 + 600 honba + seat 3's stick to seat 2; 1,000 to seat 3, whose stick is gone.
    assert game.hand_deltas[2] == [-3600, 0, 3600, 0]


# --- room names -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "disp, platform, length",
    [
        ("銅の間東喰赤", "mahjongsoul", "tonpuusen"),
        ("銀の間東喰赤", "mahjongsoul", "tonpuusen"),
        ("銀の間南喰赤", "mahjongsoul", "hanchan"),
        ("金の間南喰赤", "mahjongsoul", "hanchan"),
        ("玉の間東喰赤", "mahjongsoul", "tonpuusen"),
        ("王座の間南喰赤", "mahjongsoul", "hanchan"),
        ("友人戦南喰赤", "mahjongsoul", "hanchan"),
        ("友人戦東喰", "mahjongsoul", "tonpuusen"),
        ("大会戦東喰赤", "mahjongsoul", "tonpuusen"),
        ("大会戦南喰赤", "mahjongsoul", "hanchan"),
        ("Jade Room South Red Fives", "mahjongsoul", "hanchan"),
        ("Friendly East", "mahjongsoul", "tonpuusen"),
        ("玉之间四人南", "mahjongsoul", "hanchan"),
        ("鳳南喰赤", "tenhou", "hanchan"),
        ("特東喰赤速", "tenhou", "tonpuusen"),
        ("般東喰赤", "tenhou", "tonpuusen"),
        ("上南喰", "tenhou", "hanchan"),
    ],
)
def test_the_rule_name_says_the_platform_and_the_length(disp, platform, length):
    doc = doc_of(GOLD_EAST)
    doc["rule"]["disp"] = disp
    game = from_doc(doc)
    assert (game.platform, game.length) == (platform, length)
    assert game.ruleset == disp


def test_a_rule_name_without_a_length_is_refused_with_the_reason():
    doc = doc_of(GOLD_EAST)
    doc["rule"]["disp"] = "玉の間"
    with pytest.raises(ScoringError, match="whether it was an East-only or a South game"):
        from_doc(doc)


def league_log() -> dict:
    """The 玉の間 South game as a league's game converted to the format: a rule name that
    names no platform and a log id of no platform."""
    doc = doc_of(JADE)
    doc["rule"]["disp"] = "Mリーグ 2024 第12節"
    doc["ref"] = "game-1"
    return doc


def test_a_log_that_names_no_platform_converts_under_the_rules_it_is_given():
    game = convert(json.dumps(league_log(), ensure_ascii=False), rules="mahjongsoul")
    assert game.platform is None
    assert game.record["rules"] == "mahjongsoul"
    assert tenhou.differences(game) == []
    assert game.played_under == "Platform not named, South game, Mリーグ 2024 第12節"


def test_a_log_that_names_no_platform_is_refused_by_no_event_the_replay_decides():
    game = convert(json.dumps(league_log(), ensure_ascii=False), rules="mahjongsoul")
    for preset in ("ari-ari", "tenhou", "mahjongsoul", "mleague"):
        assert game.refusal(preset, "hanchan") is None
    assert tenhou.differences(game, "mahjongsoul") == []
    # Rules where a score below zero plays on: the game would not be over.
    assert tenhou.differences(game, "wrc")


def test_without_rules_a_log_that_names_no_platform_gets_tenhous_preset_of_its_length():
    game = from_doc(league_log())
    assert (game.platform, game.length, game.record["rules"]) == (None, "hanchan", "tenhou")
    doc = league_log()
    doc["rule"]["disp"] = "最高位戦 東風"
    assert from_doc(doc).record["rules"] == "tenhou-east"


def test_a_log_that_names_no_platform_takes_its_length_from_the_rules_given():
    game = convert(json.dumps(league_log()), rules={"preset": "mahjongsoul-east"})
    assert game.length == "tonpuusen"
    assert game.record["rules"] == {"preset": "mahjongsoul-east"}


def test_a_log_that_names_no_platform_keeps_that_when_kept_as_plain_values():
    game = convert(json.dumps(league_log()), rules="mahjongsoul")
    again = tenhou.TenhouGame.from_dict(json.loads(json.dumps(game.to_dict())))
    assert again.platform is None and again.refusal("wrc", "hanchan") is None


def test_unknown_rules_given_to_the_converter_are_refused():
    with pytest.raises(ScoringError, match="unknown rule preset 'm-league'"):
        convert(json.dumps(league_log()), rules="m-league")


def test_two_players_sharing_a_placeholder_name_get_distinct_names():
    doc = doc_of(GOLD_EAST)
    doc["name"] = ["TPlayer1", "TPlayer1", "Aki", "TPlayer1 (2)"]
    game = from_doc(doc)
    assert game.record["players"] == ["TPlayer1", "TPlayer1 (3)", "Aki", "TPlayer1 (2)"]
    assert game.players == game.record["players"]
    assert tenhou.differences(game) == []


def test_shared_names_in_an_mjlog_get_distinct_names_too():
    xml = TENHOU_EAST.with_suffix(".xml").read_text(encoding="utf-8")
    first = re.search(r'n0="([^"]*)"', xml).group(1)
    xml = re.sub(r'n1="[^"]*"', f'n1="{first}"', xml, count=1)
    game = convert(xml)
    names = game.record["players"]
    assert len(set(names)) == 4 and names[1] == names[0] + " (2)"
    assert tenhou.differences(game) == []


def test_mahjong_soul_ranking_points_never_make_scores_round_to_thousands():
    doc = doc_of(GOLD_EAST)
    doc["sc"][1::2] = [-9, 22, 9, -22]
    assert from_doc(doc).record["rules"] == "mahjongsoul-east"


# --- yaku ------------------------------------------------------------------------------


def test_mahjong_soul_yaku_names_become_the_yaku_tables_keys():
    hands = convert_file(JADE).record["hands"]
    # 役牌:場風牌 and 役牌:自風牌: the dealer's pon of East in the East round.
    assert hands[2]["wins"][0]["yaku"] == ["round_wind", "seat_wind"]
    gold = convert_file(GOLD_EAST).record["hands"]
    # 裏ドラ(0飜) and ドラ(1飜) are dora, counted apart from the yaku.
    assert [(w["yaku"], w["dora"]) for w in gold[2]["wins"]] == [
        (["tanyao"], 1),
        (["riichi"], 0),
    ]


@pytest.mark.parametrize(
    "name, key",
    [
        ("ダブル立直", "double_riichi"),
        ("両立直", "double_riichi"),
        ("国士無双十三面待ち", "kokushi_13"),
        ("国士無双１３面", "kokushi_13"),
        ("役牌:自風牌", "seat_wind"),
        ("自風 南", "seat_wind"),
        ("場風 東", "round_wind"),
        ("役牌 發", "hatsu"),
        ("Prevalent Wind", "round_wind"),
    ],
)
def test_both_platforms_names_of_one_yaku_map_to_one_key(name, key):
    assert yaku_key(name) == key


def test_every_tenhou_yaku_id_maps_to_a_key_of_the_table_or_is_dora():
    for name in YAKU_BY_ID:
        assert is_dora(name) or yaku_key(name) in YAKU, name


def test_every_key_a_sample_or_hand_made_log_records_is_in_the_yaku_table():
    paths = [
        *LOGS,
        *sorted((DATA / "tenhou").glob("*.json")),
        *sorted((DATA / "tenhou").glob("*.xml")),
    ]
    keys = {
        key
        for path in paths
        for hand in convert_file(path).record["hands"]
        for win in hand.get("wins", [])
        for key in win["yaku"]
    }
    assert keys and keys <= set(YAKU)


def test_an_unknown_yaku_is_refused_naming_it_and_the_hand():
    doc = doc_of(JADE)
    doc["log"][2][16][2][4] = "燕返し(1飜)"
    with pytest.raises(ScoringError, match="hand 3: unknown yaku '燕返し'"):
        from_doc(doc)


def test_the_fu_of_a_mahjong_soul_mangan_come_from_the_tiles_with_its_yaku_names():
    # Seat 3 rons 4m on a closed kanchan (40 fu). With 4 han the text says only 満貫, so
    # the fu come from the tiles, and ダブル立直 must count as the hand's yaku there.
    doc = doc_of(GOLD_EAST)
    doc["log"][2][16] = [
        "和了",
        [-8600, 0, 0, 9600],
        [3, 0, 3, "満貫8000点", "ダブル立直(2飜)", "ドラ(2飜)"],
    ]
    win = from_doc(doc).record["hands"][2]["wins"][0]
    assert (win["han"], win["fu"], win["yaku"], win["dora"]) == (4, 40, ["double_riichi"], 2)


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_a_converted_game_kept_as_plain_values_reads_back_with_platform_and_length(path):
    game = convert_file(path)
    assert tenhou.TenhouGame.from_dict(game.to_dict()) == game
    # Kept before the platform and length were stored: the record's preset says them.
    older = {k: v for k, v in game.to_dict().items() if k not in ("platform", "length")}
    assert tenhou.TenhouGame.from_dict(older) == game
