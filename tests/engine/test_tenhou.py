"""The Tenhou log converter: both log formats, hands read by hand, and bad logs refused."""

from __future__ import annotations

import copy
import gzip
import json
import re
from decimal import Decimal
from pathlib import Path

import pytest

from scoring.errors import ScoringError
from tenhou import convert, convert_file

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "tenhou"
SHARED = ROOT.parent / "shared" / "samples" / "tenhou"
LOG_SUFFIXES = (".json", ".xml", ".json.gz", ".xml.gz")

DOUBLE_RON = "2019103023gm-00a9-0000-f90e0fe9"
OLD = "2019021004gm-00a9-0000-e2f6516d"
NINE_TERMINALS = "2019080322gm-00a9-0000-81e85e04"
RECENT = "2023053016gm-0029-0000-e54b3b98"
FIRST_RON = "2019123123gm-00a9-0000-f4386d0e"


def sample_paths() -> list[Path]:
    """Every sample log: the repo's copies, and any others in ../shared/samples/tenhou/
    (the repo's copy wins when a file name is in both)."""
    found: dict[str, Path] = {}
    for folder in (DATA, SHARED):
        if folder.is_dir():
            for path in sorted(folder.iterdir()):
                if path.name.endswith(LOG_SUFFIXES):
                    found.setdefault(path.name, path)
    return [found[name] for name in sorted(found)]


def _stem(path: Path) -> str:
    return path.name.split(".")[0]


def sample_pairs() -> list[tuple[Path, Path]]:
    """(JSON, XML) of every game that is there in both formats."""
    by_stem: dict[str, dict[str, Path]] = {}
    for path in sample_paths():
        kind = "json" if ".json" in path.name else "xml"
        by_stem.setdefault(_stem(path), {}).setdefault(kind, path)
    return [(p["json"], p["xml"]) for _, p in sorted(by_stem.items()) if len(p) == 2]


def json_doc(game: str) -> dict:
    return json.loads((DATA / f"{game}.json").read_text(encoding="utf-8"))


def xml_text(game: str) -> str:
    return (DATA / f"{game}.xml").read_text(encoding="utf-8")


def from_json(doc: dict):
    return convert(json.dumps(doc, ensure_ascii=False))


def error_of(data, **kwargs) -> ScoringError:
    with pytest.raises(ScoringError) as info:
        convert(data, **kwargs)
    return info.value


# --- both formats ---------------------------------------------------------------------


@pytest.mark.parametrize("pair", sample_pairs(), ids=lambda pair: _stem(pair[0]))
def test_json_and_xml_of_one_game_convert_to_the_same_record(pair):
    as_json, as_xml = (convert_file(path) for path in pair)
    assert as_json.players == as_xml.players
    assert as_json.record["hands"] == as_xml.record["hands"]
    assert as_json.record == as_xml.record
    assert as_json.hand_deltas == as_xml.hand_deltas
    assert as_json.final_scores == as_xml.final_scores
    assert as_json.match_points == as_xml.match_points
    assert as_json.ruleset == as_xml.ruleset
    assert as_json.log_id == as_xml.log_id == _stem(pair[0])


def test_the_repo_has_all_six_sample_games_in_both_formats():
    games = {DOUBLE_RON, OLD, NINE_TERMINALS, RECENT, FIRST_RON, "2019081518gm-00a9-0000-cce9d00c"}
    for game in games:
        assert (DATA / f"{game}.json").is_file()
        assert (DATA / f"{game}.xml").is_file()


@pytest.mark.parametrize("path", sample_paths(), ids=lambda path: path.name)
def test_every_sample_is_a_tenbou_game_record(path):
    game = convert_file(path)
    assert game.record["format"] == "tenbou-game/1"
    assert game.record["players"] == game.players
    assert len(game.players) == 4
    assert len(game.record["hands"]) == len(game.hand_deltas)
    assert len(game.final_scores) == len(game.match_points) == 4
    assert sum(game.final_scores) == 100_000
    # Points only move between seats, except riichi sticks left on the table.
    on_table = -sum(sum(d) for d in game.hand_deltas)
    assert on_table >= 0 and on_table % 1000 == 0
    assert sum(game.match_points) == 0


# --- what a log says about the game ---------------------------------------------------


def test_players_come_url_decoded_from_the_xml():
    game = convert_file(DATA / f"{DOUBLE_RON}.xml")
    assert game.players == ["櫻井奏", "たがやす", "高嶺之草高遠惠輔", "1q4d"]
    assert game.record["players"] == game.players


def test_the_log_id_comes_from_ref_or_else_from_the_name():
    assert convert_file(DATA / f"{OLD}.json").log_id == OLD
    xml = xml_text(OLD)
    assert convert(xml).log_id is None
    url = f"https://tenhou.net/0/?log={OLD}&tw=2"
    assert convert(xml, name=url).log_id == OLD
    doc = json_doc(OLD)
    del doc["ref"]
    assert from_json(doc).log_id is None


def test_the_ruleset_is_tenhous_short_rule_name():
    assert convert_file(DATA / f"{OLD}.json").ruleset == "鳳南喰赤"
    assert convert_file(DATA / f"{RECENT}.xml").ruleset == "特南喰赤"


def test_old_logs_with_whole_match_points_round_scores_to_thousands():
    game = convert_file(DATA / f"{OLD}.json")
    assert game.match_points == [Decimal("-46"), Decimal("-33"), Decimal("21"), Decimal("58")]
    assert game.final_scores == [4400, 7100, 40700, 47800]
    assert game.record["rules"] == {"preset": "tenhou", "overrides": {"rounding": "thousands"}}


def test_recent_logs_with_exact_match_points_use_the_plain_preset():
    game = convert_file(DATA / f"{RECENT}.xml")
    assert game.match_points == [Decimal(x) for x in ("63.8", "-23.9", "9.3", "-49.2")]
    assert game.final_scores == [53800, 16100, 29300, 800]
    assert game.record["rules"] == "tenhou"


def test_whole_match_points_on_scores_in_whole_thousands_prove_no_rounding():
    doc = json_doc(OLD)
    doc["sc"] = [5000, -45, 7000, -33, 41000, 21, 47000, 57]
    assert from_json(doc).record["rules"] == "tenhou"


def test_an_east_only_game_says_so_in_its_rules():
    xml = xml_text(RECENT).replace('<GO type="41"', '<GO type="33"')
    game = convert(xml)
    assert game.ruleset == "特東喰赤"
    assert (game.platform, game.length, game.preset) == ("tenhou", "tonpuusen", "tenhou-east")
    assert game.record["rules"] == "tenhou-east"
    doc = json_doc(RECENT)
    doc["rule"]["disp"] = "特東喰赤"
    assert from_json(doc).record["rules"] == "tenhou-east"


# --- hands read by hand ---------------------------------------------------------------


def test_the_double_ron_keeps_both_wins_in_the_logs_order():
    for suffix in ("json", "xml"):
        hand = convert_file(DATA / f"{DOUBLE_RON}.{suffix}").record["hands"][3]
        assert hand["result"] == "ron"
        assert hand["riichi"] == [2]
        wins = [{k: w[k] for k in ("winner", "loser", "han", "fu") if k in w} for w in hand["wins"]]
        assert wins == [
            {"winner": 3, "loser": 2, "han": 4, "fu": 30},
            {"winner": 1, "loser": 2, "han": 6},  # haneman: no fu needed
        ]


def test_the_double_yakuman_tsumo_names_the_liable_seat():
    game = convert_file(DATA / f"{DOUBLE_RON}.json")
    assert game.record["hands"][-1] == {
        "result": "tsumo",
        "riichi": [],
        "wins": [
            {
                "winner": 0,
                "yakuman": 2,
                "pao": 2,
                "yaku": ["daisangen", "tsuuiisou"],
                "dora": 0,
                "open": True,
            }
        ],
    }
    # The liable seat pays both yakuman and the three honba.
    assert game.hand_deltas[-1] == [64900, 0, -64900, 0]


def test_nine_terminals_is_an_abort():
    for game in (NINE_TERMINALS, DOUBLE_RON):
        hands = convert_file(DATA / f"{game}.xml").record["hands"]
        assert {"result": "abort", "riichi": [], "reason": "nine_terminals"} in hands
    assert convert_file(DATA / f"{NINE_TERMINALS}.json").record["hands"][1]["reason"] == (
        "nine_terminals"
    )


def test_an_exhaustive_draw_lists_the_tenpai_seats_and_riichi():
    hand = convert_file(DATA / f"{NINE_TERMINALS}.json").record["hands"][6]
    assert hand == {"result": "draw", "riichi": [3], "tenpai": [2, 3]}


def test_all_tenpai_and_all_noten_draws_need_no_point_changes():
    doc = json_doc(NINE_TERMINALS)
    doc["log"][6][16] = ["全員聴牌"]
    doc["log"][12][16] = ["全員不聴"]
    hands = from_json(doc).record["hands"]
    assert hands[6]["tenpai"] == [0, 1, 2, 3]
    assert hands[12]["tenpai"] == []


def test_a_win_records_its_yaku_dora_and_whether_it_was_open():
    win = convert_file(DATA / f"{OLD}.xml").record["hands"][1]["wins"][0]
    assert win == {
        "winner": 3,
        "han": 7,
        "yaku": ["riichi", "menzen_tsumo", "tanyao"],  # dora are counted, not listed
        "dora": 4,
        "open": False,
    }


def test_a_mangan_of_four_han_gets_its_fu_from_the_tiles_in_json():
    # The JSON text says only "満貫"; the XML says 40 fu.
    win = convert_file(DATA / f"{DOUBLE_RON}.json").record["hands"][0]["wins"][0]
    assert (win["han"], win["fu"]) == (4, 40)
    win = convert_file(DATA / f"{OLD}.json").record["hands"][2]["wins"][0]
    assert (win["han"], win["fu"]) == (4, 40)


@pytest.mark.parametrize("path", [p for p, _ in sample_pairs()], ids=lambda path: path.name)
def test_fu_read_from_the_tiles_agree_with_the_fu_tenhou_wrote(path):
    doc = json.loads(path.read_text(encoding="utf-8"))
    stripped = copy.deepcopy(doc)
    for entry in stripped["log"]:
        if entry[16][0] == "和了":
            for info in entry[16][2::2]:
                info[3] = re.sub(r"\d+符", "", info[3])
    assert from_json(stripped).record == from_json(doc).record


@pytest.mark.parametrize("path", [p for p, _ in sample_pairs()], ids=lambda path: path.name)
def test_riichi_sticks_explain_the_gap_between_json_results_and_scores(path):
    doc = json.loads(path.read_text(encoding="utf-8"))
    game = from_json(doc)
    for entry, hand, deltas in zip(doc["log"], game.record["hands"], game.hand_deltas, strict=True):
        changes = [0, 0, 0, 0]
        for payment in entry[16][1::2] if entry[16][0] == "和了" else entry[16][1:2]:
            changes = [a + b for a, b in zip(changes, payment, strict=True)]
        sticks = [1000 * (seat in hand["riichi"]) for seat in range(4)]
        assert deltas == [c - s for c, s in zip(changes, sticks, strict=True)]


def _one_win_by_south(haipai: list[int], tile: int, result: list, *, ron: bool = False) -> dict:
    """A game of one hand (East 1): seat 1 wins on `tile`, drawn or discarded by seat 0."""
    doc = json_doc(OLD)
    seats = [[[], [], [tile] if ron else []], [haipai, [] if ron else [tile], []]]
    seats += [[[], [], []], [[], [], []]]
    entry: list = [[0, 0, 0], [25000] * 4, [11], []]
    for seat in seats:
        entry += seat
    payment = [-8000, 8000, 0, 0] if ron else [-4000, 8000, -2000, -2000]
    doc["log"] = [[*entry, ["和了", payment, [1, 0 if ron else 1, 1, *result]]]]
    return doc


# 111222333m 789p and a North: three concealed triplets, or three 123m.
TRIPLETS_OR_RUNS = [11, 11, 11, 12, 12, 12, 13, 13, 13, 27, 28, 29, 44]


def test_a_mangan_gets_the_fu_of_the_reading_tenhou_showed_when_two_tie():
    # With one dora, tsumo sanankou (4 han 40 fu) and tsumo iipeikou chanta (5 han 30 fu)
    # are both mangan. Whichever reading Tenhou showed, the record pays a mangan.
    doc = _one_win_by_south(
        TRIPLETS_OR_RUNS, 44, ["満貫2000-4000点", "門前清自摸和(1飜)", "三暗刻(2飜)", "ドラ(1飜)"]
    )
    win = from_json(doc).record["hands"][0]["wins"][0]
    assert (win["han"], win["fu"], win["dora"]) == (4, 40, 1)
    doc = _one_win_by_south(
        TRIPLETS_OR_RUNS,
        44,
        ["満貫2000-4000点", "門前清自摸和(1飜)", "一盃口(1飜)", "混全帯幺九(2飜)", "ドラ(1飜)"],
    )
    win = from_json(doc).record["hands"][0]["wins"][0]
    assert (win["han"], "fu" in win) == (5, False)


def test_the_fu_are_those_of_the_reading_with_the_yaku_not_the_most_fu_of_any_reading():
    # 666777888m 789p 發發, ron on 8m: three 678m (iipeikou, 40 fu) score more than 666m
    # 777m 888m (no sanankou, as the ron opens 888m: 50 fu but one han less).
    doc = _one_win_by_south(
        [16, 16, 16, 17, 17, 17, 18, 18, 27, 28, 29, 46, 46],
        18,
        ["満貫8000点", "立直(1飜)", "一盃口(1飜)", "ドラ(2飜)"],
        ron=True,
    )
    win = from_json(doc).record["hands"][0]["wins"][0]
    assert (win["han"], win["fu"], win["loser"]) == (4, 40, 0)


# --- riichi declared on a tile that was ronned ----------------------------------------


def _last_discard_declares_riichi(doc: dict, hand: int, seat: int) -> None:
    discards = doc["log"][hand][6 + 3 * seat]
    assert not any(isinstance(d, str) for d in discards)
    discards[-1] = f"r{discards[-1]}"


def test_a_riichi_ronned_on_its_declaration_tile_puts_out_no_stick():
    doc = json_doc(FIRST_RON)  # hand 1: seat 0 rons seat 2's last discard
    _last_discard_declares_riichi(doc, 0, 2)
    game = from_json(doc)
    assert game.record["hands"][0]["riichi"] == []


def test_a_riichi_declared_with_a_discard_that_passed_puts_out_a_stick():
    doc = json_doc(FIRST_RON)
    _last_discard_declares_riichi(doc, 0, 1)
    assert from_json(doc).record["hands"][0]["riichi"] == [1]


def test_a_triple_ron_on_a_riichi_declaration_puts_out_no_stick():
    # Turn the ron into a triple ron abort: the turn order says seat 2 discarded last.
    doc = json_doc(FIRST_RON)
    doc["log"][0][16] = ["三家和了"]
    _last_discard_declares_riichi(doc, 0, 2)
    assert from_json(doc).record["hands"][0] == {
        "result": "abort",
        "riichi": [],
        "reason": "triple_ron",
    }
    doc = json_doc(FIRST_RON)
    doc["log"][0][16] = ["三家和了"]
    _last_discard_declares_riichi(doc, 0, 3)
    assert from_json(doc).record["hands"][0]["riichi"] == [3]


def test_in_xml_only_a_placed_riichi_stick_counts():
    # Hand 2: seat 1's riichi stick went out, then seat 3 dealt in. Drop the stick and let
    # seat 1 deal in on its declaration tile instead.
    xml = xml_text(DOUBLE_RON)
    xml = xml.replace('<REACH who="1" ten="210,220,330,230" step="2"/>', "")
    xml = xml.replace('who="2" fromWho="3" sc="210,0,220,0', 'who="2" fromWho="1" sc="210,0,220,0')
    hand = convert(xml).record["hands"][1]
    assert hand["riichi"] == []
    assert hand["wins"][0]["loser"] == 1


# --- nagashi mangan -------------------------------------------------------------------


def test_nagashi_mangan_reads_tenpai_from_the_tiles_in_json_as_xml_shows_them():
    # Hand 8 of the 2023 game was a draw with seats 0, 1 and 2 tenpai; pretend seat 3
    # made nagashi mangan instead.
    doc = json_doc(RECENT)
    doc["log"][7][16] = ["流し満貫", [-4000, -2000, -2000, 8000]]
    xml = xml_text(RECENT).replace(
        '<RYUUKYOKU ba="1,1" sc="477,10,181,10,264,10,68,-30"',
        '<RYUUKYOKU type="nm" ba="1,1" sc="477,-40,181,-20,264,-20,68,80"',
    )
    expected = {"result": "nagashi", "riichi": [2], "nagashi": [3], "tenpai": [0, 1, 2]}
    assert from_json(doc).record["hands"][7] == expected
    assert convert(xml).record["hands"][7] == expected


@pytest.mark.parametrize(
    ("haipai", "takes", "discards", "tenpai"),
    [
        # 1111m 234p 567p 789s: only a fifth 1m would complete it.
        ([11, 11, 11, 11, 22, 23, 24, 25, 26, 27, 37, 38, 39], [19], [60], False),
        # 1112m 234p 567p 789s: waits on 2m and 3m.
        ([11, 11, 11, 12, 22, 23, 24, 25, 26, 27, 37, 38, 39], [19], [60], True),
        # A kan of 3m beside 12m: the edge wait is on a 3m the seat holds all four of.
        ([11, 12, 13, 13, 13, 22, 23, 24, 25, 26, 27, 39, 39], ["m13131313", 41], [0, 60], False),
        # A kan of 3m beside 23m: 1m and 4m are still to come.
        ([12, 13, 13, 13, 13, 22, 23, 24, 25, 26, 27, 39, 39], ["m13131313", 41], [0, 60], True),
    ],
    ids=["1111m", "1112m", "kan 3m, 12m", "kan 3m, 23m"],
)
def test_a_seat_waiting_only_on_tiles_it_holds_all_four_of_is_not_tenpai(
    haipai, takes, discards, tenpai
):
    doc = json_doc(RECENT)
    doc["log"][7][16] = ["流し満貫", [-4000, -2000, -2000, 8000]]
    doc["log"][7][4:7] = [haipai, takes, discards]
    expected = [0, 1, 2] if tenpai else [1, 2]
    assert from_json(doc).record["hands"][7]["tenpai"] == expected


# --- input forms ----------------------------------------------------------------------


@pytest.mark.parametrize("suffix", ["json", "xml"])
def test_gzip_compressed_logs_convert_like_plain_ones(suffix, tmp_path):
    plain = DATA / f"{OLD}.{suffix}"
    packed = tmp_path / f"{OLD}.{suffix}.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    assert convert_file(packed) == convert_file(plain)
    assert convert(gzip.compress(plain.read_bytes())).record == convert_file(plain).record


def test_text_and_bytes_convert_alike():
    path = DATA / f"{RECENT}.xml"
    assert convert(path.read_text(encoding="utf-8")) == convert(path.read_bytes())


# --- bad logs -------------------------------------------------------------------------


def test_garbage_is_not_a_tenhou_log():
    assert str(error_of(b"\x00\x01\x02 garbage")) == "not a Tenhou log: neither JSON nor XML"
    assert str(error_of("hello")) == "not a Tenhou log: neither JSON nor XML"


def test_an_empty_file_is_refused():
    assert str(error_of(b"")) == "not a Tenhou log: it is empty"
    assert str(error_of(" \n")) == "not a Tenhou log: it is empty"


def test_json_or_xml_that_is_not_a_tenhou_log_is_refused():
    assert "not a Tenhou log" in str(error_of(b'{"hands": []}'))
    assert "not a Tenhou log" in str(error_of(b"<html><body/></html>"))
    assert "not a Tenhou log" in str(error_of(b'{"log": [], oops}'))


@pytest.mark.parametrize("suffix", ["json", "xml"])
@pytest.mark.parametrize("cut", [0.1, 0.5, 0.99])
def test_a_truncated_log_is_refused(suffix, cut):
    data = (DATA / f"{OLD}.{suffix}").read_bytes()
    err = error_of(data[: int(len(data) * cut)])
    assert str(err).startswith("truncated log")


def test_truncated_gzip_is_refused():
    data = gzip.compress((DATA / f"{OLD}.json").read_bytes())
    assert str(error_of(data[: len(data) // 2])).startswith("truncated log")


def test_a_json_log_without_final_scores_is_truncated():
    doc = json_doc(OLD)
    del doc["sc"]
    assert str(error_of(json.dumps(doc))) == "truncated log: no final scores ('sc')"


def test_a_json_hand_without_result_names_the_hand():
    doc = json_doc(OLD)
    del doc["log"][3][16]
    err = error_of(json.dumps(doc))
    assert err.hand == 4
    assert str(err).startswith("hand 4: truncated log")


def test_an_xml_hand_without_result_names_the_hand():
    xml = xml_text(OLD)
    end = xml.rindex("<AGARI")
    xml = xml[:end] + "</mjloggm>"
    err = error_of(xml)
    assert str(err) == "hand 10: truncated log: the hand has no result"


def test_a_four_player_json_log_marked_as_three_player_is_refused():
    doc = json_doc(OLD)
    doc["rule"]["disp"] = "三鳳南喰赤"
    assert str(error_of(json.dumps(doc))) == (
        "the rule name '三鳳南喰赤' is a three-player game's, but the log names four players"
    )
    doc = json_doc(OLD)
    doc["name"][3] = ""
    assert str(error_of(json.dumps(doc))) == (
        "hand 1: malformed hand in the log: a three-player hand has a fourth seat"
    )


def test_a_four_player_mjlog_marked_as_three_player_is_refused():
    xml = xml_text(OLD)
    sanma = xml.replace('<GO type="169"', f'<GO type="{169 | 0x10}"')
    message = "the game type and the names disagree on whether three or four played"
    assert str(error_of(sanma)) == message
    no_fourth = re.sub(r' n3="[^"]*"', ' n3=""', xml, count=1)
    assert str(error_of(no_fourth)) == message


def test_an_unknown_json_result_names_the_hand_and_the_result():
    doc = json_doc(OLD)
    doc["log"][4][16] = ["xyz", [0, 0, 0, 0]]
    err = error_of(json.dumps(doc))
    assert str(err) == "hand 5: unknown result 'xyz'"
    assert err.hand == 5


def test_an_unknown_xml_draw_type_names_the_hand_and_the_result():
    xml = xml_text(OLD).replace("<RYUUKYOKU ba=", '<RYUUKYOKU type="xyz" ba=')
    assert str(error_of(xml)) == "hand 5: unknown result 'xyz'"


def test_a_tsumo_beside_a_ron_in_one_hand_is_refused():
    doc = json_doc(DOUBLE_RON)
    doc["log"][3][16][4][1] = 1  # the second winner "ronned" himself: a tsumo
    assert str(error_of(json.dumps(doc))) == (
        "hand 4: a tsumo cannot share the hand with other wins"
    )
