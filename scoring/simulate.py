"""Random but valid games, for the benchmark and for property tests.

Hands are drawn with rough real-life frequencies (ron and tsumo most often, then draws,
rarely double ron, nagashi, aborts and chombo), and every value is one a real hand can
have, so each generated record replays without error.
"""

from __future__ import annotations

import random
from typing import Any

from .game import next_state, play_hand, start_state
from .payouts import VALID_FU, check_value
from .record import FORMAT, parse_hand
from .rules import MultiRon, Rules, resolve_rules

_KINDS = (
    ("ron", 44),
    ("tsumo", 30),
    ("draw", 15),
    ("double_ron", 2),
    ("nagashi", 1),
    ("abort", 3),
    ("chombo", 1),
)


def _value(rng: random.Random, *, tsumo: bool) -> dict[str, int]:
    roll = rng.random()
    if roll < 0.02:
        return {"yakuman": rng.choice((1, 1, 1, 2))}
    if roll < 0.2:
        return {"han": rng.randint(5, 14)}
    while True:
        han, fu = rng.randint(1, 4), rng.choice(VALID_FU)
        try:
            check_value(han=han, fu=fu, yakuman=None, tsumo=tsumo)
        except ValueError:
            continue
        return {"han": han, "fu": fu}


def _maybe_pao(rng: random.Random, win: dict[str, Any], players: int = 4) -> dict[str, Any]:
    """Half of the yakuman wins get a liable player, some liable for one yakuman only."""
    if "yakuman" in win and rng.random() < 0.5:
        win["pao"] = rng.choice([s for s in range(players) if s != win["winner"]])
        if win["yakuman"] > 1 and rng.random() < 0.5:
            win["pao_yakuman"] = 1
    return win


def random_hand(rng: random.Random, rules: Rules) -> dict[str, Any]:
    """One valid hand document under `rules`."""
    kinds = [(k, w) for k, w in _KINDS if k != "nagashi" or rules.nagashi_mangan]
    if not rules.abortive_draws:
        kinds = [(k, w) for k, w in kinds if k != "abort"]
    kind = rng.choices([k for k, _ in kinds], [w for _, w in kinds])[0]
    n = rules.players
    riichi = sorted(rng.sample(range(n), rng.choice((0, 0, 0, 1, 1, 2))))
    if kind in ("ron", "double_ron"):
        loser = rng.randrange(n)
        others = [s for s in range(n) if s != loser]
        count = 2 if kind == "double_ron" and rules.multi_ron is not MultiRon.HEAD_BUMP else 1
        wins = [
            _maybe_pao(rng, {"winner": w, "loser": loser, **_value(rng, tsumo=False)}, n)
            for w in rng.sample(others, count)
        ]
        return {"result": "ron", "riichi": riichi, "wins": wins}
    if kind == "tsumo":
        win = _maybe_pao(rng, {"winner": rng.randrange(n), **_value(rng, tsumo=True)}, n)
        return {"result": "tsumo", "riichi": riichi, "wins": [win]}
    if kind == "draw":
        return {
            "result": "draw",
            "riichi": riichi,
            "tenpai": sorted(rng.sample(range(n), rng.randint(0, n))),
        }
    if kind == "nagashi":
        return {
            "result": "nagashi",
            "riichi": riichi,
            "nagashi": [rng.randrange(n)],
            "tenpai": sorted(rng.sample(range(n), rng.randint(0, n))),
        }
    if kind == "abort":
        # Four winds need a fourth player.
        reasons = ("nine_terminals", "four_winds", "four_kans") if n == 4 else _ABORTS_3
        reason = rng.choice(reasons)
        return {"result": "abort", "riichi": [], "reason": reason}
    return {"result": "chombo", "riichi": [], "offender": rng.randrange(n)}


_ABORTS_3 = ("nine_terminals", "four_kans")


def random_record(
    rng: random.Random, rules_spec: Any = "ari-ari", *, complete: bool = True
) -> dict[str, Any]:
    """A whole game (or, with complete=False, a game stopped at a random hand)."""
    rules = resolve_rules(rules_spec)
    state = start_state(rules)
    hands: list[dict[str, Any]] = []
    stop_at = None if complete else rng.randint(0, 12)
    while not state.finished and len(hands) != stop_at:
        doc = random_hand(rng, rules)
        # Only a player with enough points may declare riichi.
        doc["riichi"] = [s for s in doc["riichi"] if state.scores[s] >= rules.riichi_min_points]
        hand = parse_hand(doc, len(hands) + 1)
        report, settlement = play_hand(state, hand, rules, number=len(hands) + 1)
        state = next_state(state, report, settlement, rules)
        hands.append(doc)
    return {
        "format": FORMAT,
        "rules": rules_spec,
        "players": ["Aki", "Ben", "Chie", "Dan"][: rules.players],
        "hands": hands,
    }
