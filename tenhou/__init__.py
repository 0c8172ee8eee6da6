"""Tenhou and Mahjong Soul game logs -> tenbou-game/1 records: pure Python, no Django.

Reads both formats Tenhou hands out for one game: the tenhou.net/6 JSON (an object with
a `log` list, `json_log`) and the native mjlog XML (`<mjloggm>`, `mjlog`), either one
gzip-compressed or not; Mahjong Soul games come as tenhou.net/6 JSON from the common
converters. `platforms` tells where and how long a game was played (the record's rules are
that platform's preset: tenhou, tenhou-east, mahjongsoul, mahjongsoul-east), and `names`
maps every platform's yaku names to the keys of `scoring.yaku`. The record says only what
happened (riichi, wins with han/fu or yakuman, draws, aborts); the engine derives every
payment. The log's own point changes and
final result are kept beside the record (`TenhouGame`), and `differences` checks a replay
against them. Where the log leaves the fu or tenpai out, `tiles` reads them from the tiles
with the `mahjong` library, which the engine in `scoring/` never imports.

>>> game = convert_file("tests/data/tenhou/2019103023gm-00a9-0000-f90e0fe9.json")
>>> [(w["winner"], w["loser"], w["han"]) for w in game.record["hands"][3]["wins"]]
[(3, 2, 4), (1, 2, 6)]
>>> differences(game)
[]
"""

from . import platforms
from .check import differences
from .game import TenhouGame
from .reader import convert, convert_file

__all__ = ["TenhouGame", "convert", "convert_file", "differences", "platforms"]
