"""The full-hand calculator: every win of the sample Tenhou logs, judged from its tiles,
has the han and fu the log gives; and hands written by hand."""

from __future__ import annotations

import doctest
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from mahjong.meld import Meld

import handvalue
from handvalue import Call, Options, Situation, parse_call, value_hand
from scoring.counting import count_yaku
from scoring.errors import ScoringError
from tenhou.json_log import _JsonHand
from tenhou.tiles import tile_kind

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "tenhou"
HAN = re.compile(r"\((\d+)飜\)$")
FU = re.compile(r"(\d+)符")
CONDITIONS = {
    "立直": "riichi", "両立直": "double_riichi", "一発": "ippatsu", "海底摸月": "haitei",
    "河底撈魚": "houtei", "嶺上開花": "rinshan", "槍槓": "chankan", "天和": "tenhou",
    "地和": "chiihou",
}  # fmt: skip
# The log's names of a few yaku, to check the keys too.
NAMES = {"平和": "pinfu", "断幺九": "tanyao", "七対子": "chiitoitsu", "対々和": "toitoi",
         "混一色": "honitsu", "清一色": "chinitsu", "一盃口": "iipeikou",
         "門前清自摸和": "menzen_tsumo", "役牌 中": "chun", "役牌 白": "haku",
         "役牌 發": "hatsu", "三色同順": "sanshoku", "一気通貫": "ittsu"}  # fmt: skip
SHAPES = {Meld.CHI: "chi", Meld.PON: "pon", Meld.KAN: "kan"}


def sample_wins():
    for path in sorted(SAMPLES.glob("*.json")):
        doc = json.loads(path.read_text())
        for number, entry in enumerate(doc["log"], start=1):
            if entry[16][0] != "和了":
                continue
            hand = _JsonHand.parse(entry, number)
            for info in entry[16][2::2]:
                yield pytest.param(entry, hand, info, id=f"{path.stem[-8:]}-{number}-{info[0]}")


def log_win(entry, hand: _JsonHand, info):
    """The tiles and situation of a win as a player would enter them, and the log's value."""
    winner, source = info[0], info[1]
    tiles = hand._tiles(winner)
    counts = list(tiles.counts)
    tsumo = winner == source
    win = tiles.concealed_last if tsumo else hand._ronned_tile(source)
    if not tsumo:
        counts[win] += 1
    concealed = [kind for kind, n in enumerate(counts) for _ in range(n)]
    calls = []
    for meld in tiles.melds:
        kinds = (
            [meld.kind, meld.kind + 1, meld.kind + 2]
            if meld.shape == Meld.CHI
            else ([meld.kind] * (4 if meld.shape == Meld.KAN else 3))
        )
        kind = SHAPES[meld.shape] if meld.is_open or meld.shape != Meld.KAN else "ankan"
        calls.append(Call(kind, tuple(kinds)))
    names = {str(item).partition("(")[0]: str(item) for item in info[4:]}
    flags = {flag: True for name, flag in CONDITIONS.items() if name in names}
    red = int(HAN.search(names["赤ドラ"]).group(1)) if "赤ドラ" in names else 0
    riichi = flags.get("riichi") or flags.get("double_riichi")
    situation = Situation(
        tsumo=tsumo,
        seat_wind=(winner - hand.dealer) % 4,
        round_wind=hand.round_index // 4,
        dora_indicators=tuple(tile_kind(t) for t in entry[2]),
        ura_indicators=tuple(tile_kind(t) for t in entry[3]) if riichi else (),
        **flags,
    )
    yakuman = sum(str(item).endswith("(役満)") for item in info[4:])
    han = sum(int(m.group(1)) for item in info[4:] if (m := HAN.search(str(item))))
    fu = FU.search(str(info[3]))
    return concealed, win, calls, situation, red, names, yakuman, han, fu


@pytest.mark.parametrize(("entry", "hand", "info"), list(sample_wins()))
def test_every_sample_win_has_the_logs_han_and_fu(entry, hand, info):
    concealed, win, calls, situation, red, names, yakuman, han, fu = log_win(entry, hand, info)
    value = value_hand(concealed, win, calls, situation, Options(open_tanyao=True), red=red)
    if yakuman:
        assert value.yakuman >= yakuman
        count = count_yaku(value.yaku, is_open=value.is_open, tsumo=situation.tsumo)
        assert count.yakuman == value.yakuman
        return
    assert value.han == han
    if fu is not None and han <= 4:
        assert value.fu == int(fu.group(1))
    for name, key in NAMES.items():
        assert (key in value.yaku) == (name in names), (name, value.yaku)
    assert value.is_open == any(c.is_open for c in calls)
    # The checklist accepts every real hand and counts it the same.
    count = count_yaku(value.yaku, is_open=value.is_open, dora=value.dora, tsumo=situation.tsumo)
    assert count.han == han


def test_the_samples_hold_enough_wins_to_mean_something():
    assert len(list(sample_wins())) > 40


def test_riichi_tsumo_pinfu_with_a_dora_indicator_and_a_red_five():
    situation = Situation(tsumo=True, riichi=True, dora_indicators=(1,), seat_wind=1)
    value = value_hand("234m406p678s22m567s", "2m", [], situation)
    # 3m is dora (indicator 2m), plus the red 5p.
    assert (value.han, value.fu, value.dora) == (6, 20, 2)
    assert value.yaku == ("menzen_tsumo", "riichi", "pinfu", "tanyao")
    assert value.details[-1] == ("dora", 2)


def test_an_open_hand_with_calls_counts_open_values():
    value = value_hand(
        "234p456p99p", "9p", ["pon:777z", "chi:789p"], Situation(tsumo=False, seat_wind=2)
    )
    # Honitsu (open 2) and chun (1); 20 fu, 4 for the open chun pon, 2 for the pair wait.
    assert (value.han, value.fu, value.is_open) == (3, 30, True)
    assert set(value.yaku) == {"honitsu", "chun"}


def test_open_tanyao_follows_the_events_rules():
    closed = value_hand("234m456p678s55p234s", "5p", [], Situation(tsumo=False, riichi=True))
    assert (closed.han, closed.yaku) == (2, ("riichi", "tanyao"))
    hand = ("234m456p55p678s", "8s", ["pon:888m"], Situation(tsumo=False))
    assert value_hand(*hand, Options(open_tanyao=True)).yaku == ("tanyao",)
    with pytest.raises(ScoringError, match="no yaku"):
        value_hand(*hand, Options(open_tanyao=False))


def test_a_yakuman_gives_its_multiple():
    value = value_hand("119m19p19s1234567z", "9m", [], Situation(tsumo=True, seat_wind=1))
    assert (value.yakuman, value.han, value.yaku) == (1, None, ("kokushi",))
    value = value_hand(
        "11m444z", "4z", ["pon:111z", "pon:222z", "ankan:3333z"], Situation(tsumo=False)
    )
    assert (value.yakuman, value.yaku) == (2, ("daisuushii",))


@pytest.mark.parametrize(
    ("concealed", "win", "calls", "situation", "reason"),
    [
        ("234m456p678s22m", "2m", [], Situation(tsumo=True), "holds 11 tiles"),
        ("234m456p678s22m567s", "9m", [], Situation(tsumo=True), "must be one of the hand"),
        ("11111m456p678s567s", "1m", [], Situation(tsumo=True), "only four of each tile"),
        (
            "234m456p678s22m567s",
            "2m",
            [],
            Situation(tsumo=False, ippatsu=True),
            "only after riichi",
        ),
        (
            "234m456p678s22m",
            "2m",
            ["pon:777p"],
            Situation(tsumo=False, riichi=True),
            "cannot riichi",
        ),
        ("234m456p678s22m567q", "2m", [], Situation(tsumo=True), "Could not read the tiles"),
        ("234m456p678s22m567s", "2m", [], Situation(tsumo=True, ura_indicators=(1,)), "Ura dora"),
        ("234m456p678s22z567s", "2z", [], Situation(tsumo=False, seat_wind=2), "no yaku"),
    ],
)
def test_hands_that_cannot_be_are_refused_with_the_reason(concealed, win, calls, situation, reason):
    with pytest.raises(ScoringError, match=reason):
        value_hand(concealed, win, calls, situation)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("chi:124m", "three tiles in a row"),
        ("pon:556z", "the same tile"),
        ("pung:555z", "Unknown call"),
        ("kan:111m", "4 tiles"),
        ("chi:111z", "three tiles in a row"),
    ],
)
def test_bad_calls_are_refused(text, reason):
    with pytest.raises(ScoringError, match=reason):
        parse_call(text)


def test_the_module_examples_hold():
    assert doctest.testmod(handvalue).failed == 0


def test_the_calculator_needs_no_django():
    code = (
        "import sys, handvalue\n"
        "handvalue.value_hand('234m456p678s22m567s', '2m', [], handvalue.Situation(tsumo=True))\n"
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules)\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


# Three-player games: the wall without 2m to 8m, and Norths set aside (kita).

SANMA = Options(three_player=True)
PINFU_ITTSU = "123456789p99m789s"  # closed; 9s completes 78s


def test_a_three_player_hand_counts_each_kita_as_one_dora():
    plain = value_hand(PINFU_ITTSU, "9s", [], Situation(tsumo=True), SANMA)
    with_kita = value_hand(PINFU_ITTSU, "9s", [], Situation(tsumo=True, kita=3), SANMA)
    assert (with_kita.han - plain.han, with_kita.dora, with_kita.kita) == (3, 3, 3)
    assert with_kita.yaku == plain.yaku


def test_a_kita_is_a_dora_again_when_the_indicator_makes_north_the_dora():
    # West (3z) shows North; ura dora count only after riichi.
    situation = Situation(tsumo=True, riichi=True, kita=2, dora_indicators=(29,))
    assert value_hand(PINFU_ITTSU, "9s", [], situation, SANMA).dora == 4
    situation = Situation(tsumo=True, riichi=True, kita=2, ura_indicators=(29,))
    assert value_hand(PINFU_ITTSU, "9s", [], situation, SANMA).dora == 4


def test_in_a_three_player_wall_1m_shows_9m_and_9m_shows_1m():
    shows_9m = Situation(tsumo=True, dora_indicators=(0,))
    assert value_hand(PINFU_ITTSU, "9s", [], shows_9m, SANMA).dora == 2
    assert value_hand(PINFU_ITTSU, "9s", [], shows_9m).dora == 0  # four players: 2m
    shows_1m = Situation(tsumo=True, dora_indicators=(8,))
    assert value_hand(PINFU_ITTSU, "9s", [], shows_1m, SANMA).dora == 0


@pytest.mark.parametrize(
    ("tiles", "calls", "indicators", "tile"),
    [
        ("123456789p55m789s", [], (), "5m"),
        ("123456789p99m789s", [], (1,), "2m"),
        ("123456p99m789s", ["pon:222m"], (), "2m"),
    ],
)
def test_a_three_player_hand_refuses_2m_to_8m_wherever_they_are(tiles, calls, indicators, tile):
    with pytest.raises(ScoringError) as refused:
        value_hand(tiles, "9s", calls, Situation(tsumo=True, dora_indicators=indicators), SANMA)
    assert str(refused.value).startswith(f"{tile} is not in a three-player game")


def test_a_three_player_hand_has_no_chi():
    with pytest.raises(ScoringError, match="A three-player game has no chi"):
        value_hand("123789p99m789s", "9s", ["chi:456p"], Situation(tsumo=False), SANMA)


def test_kita_are_refused_at_four_players_and_beyond_the_four_norths():
    with pytest.raises(ScoringError, match="only for three-player games"):
        value_hand(PINFU_ITTSU, "9s", [], Situation(tsumo=True, kita=1))
    with pytest.raises(ScoringError, match="there are only four"):
        value_hand("123456789p44z789s", "9s", [], Situation(tsumo=True, kita=3), SANMA)
