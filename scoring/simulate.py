"""Random but valid games, for the benchmark and for property tests.

Hands are drawn with rough real-life frequencies (ron and tsumo most often, then draws,
rarely double ron, nagashi, aborts and chombo), and every value is one a real hand can
have, so each generated record replays without error. `random_rules` draws overrides of
every option and `random_any_record` records of every shape (final scores only, penalties,
a game ended early), for comparing the browser's engine with this one.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from .game import next_state, play_hand, start_state
from .payouts import VALID_FU, check_value
from .record import FORMAT, parse_hand
from .rules import _ENUMS, PRESETS, MultiRon, Rules, resolve_rules

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


def random_hand(rng: random.Random, rules: Rules, *, every_kind: bool = False) -> dict[str, Any]:
    """One valid hand document under `rules`.

    With `every_kind`, also the rarer hands and fields a record may hold: three rons on one
    discard (paid, head-bumped, or an abort), a double ron under head bump, the four-riichi
    abort, up to three riichi, and the statistics fields of a win (yaku, dora, open, kita).
    """
    if every_kind:
        return _any_hand(rng, rules)
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
_ABORTS_4 = ("nine_terminals", "four_winds", "four_kans", "four_riichi")
_EVERY_KIND = (*_KINDS, ("triple_ron", 2))
_YAKU = ("riichi", "tanyao", "pinfu", "yakuhai", "honitsu", "toitoi", "chiitoitsu")


def _statistics(rng: random.Random, win: dict[str, Any], players: int) -> dict[str, Any]:
    """Fields a win carries for statistics only; they never change a payment."""
    if rng.random() < 0.3:
        win["yaku"] = rng.sample(_YAKU, rng.randint(1, 3))
        win["dora"] = rng.randint(0, 4)
        win["open"] = rng.random() < 0.4
        if players == 3:
            win["kita"] = rng.randint(0, 4)
    return win


def _any_hand(rng: random.Random, rules: Rules) -> dict[str, Any]:
    kinds = [(k, w) for k, w in _EVERY_KIND if k != "nagashi" or rules.nagashi_mangan]
    if not rules.abortive_draws:
        kinds = [(k, w) for k, w in kinds if k != "abort"]
    kind = rng.choices([k for k, _ in kinds], [w for _, w in kinds])[0]
    n = rules.players
    riichi = sorted(rng.sample(range(n), rng.choice((0, 0, 0, 1, 1, 2, 3))))
    if kind == "triple_ron" and n == 3:
        kind = "double_ron"  # three rons need three players besides the discarder
    if kind == "triple_ron" and rules.multi_ron is MultiRon.DOUBLE:
        if rules.abortive_draws or rng.random() < 0.5:
            # A third ron aborts the hand; the rules' abortive_draws do not matter to it.
            return {"result": "abort", "riichi": riichi, "reason": "triple_ron"}
        kind = "double_ron"
    if kind in ("ron", "double_ron", "triple_ron"):
        loser = rng.randrange(n)
        others = [s for s in range(n) if s != loser]
        count = {"ron": 1, "double_ron": 2, "triple_ron": 3}[kind]
        wins = [
            _statistics(
                rng,
                _maybe_pao(rng, {"winner": w, "loser": loser, **_value(rng, tsumo=False)}, n),
                n,
            )
            for w in rng.sample(others, count)
        ]
        return {"result": "ron", "riichi": riichi, "wins": wins}
    if kind == "tsumo":
        win = _maybe_pao(rng, {"winner": rng.randrange(n), **_value(rng, tsumo=True)}, n)
        return {"result": "tsumo", "riichi": riichi, "wins": [_statistics(rng, win, n)]}
    if kind == "abort":
        reasons = _ABORTS_4 if n == 4 else _ABORTS_3
        return {"result": "abort", "riichi": riichi, "reason": rng.choice(reasons)}
    if kind == "nagashi":
        return {
            "result": "nagashi",
            "riichi": riichi,
            "nagashi": sorted(rng.sample(range(n), rng.choice((1, 1, 1, 2)))),
            "tenpai": sorted(rng.sample(range(n), rng.randint(0, n))),
        }
    if kind == "chombo":
        return {"result": "chombo", "riichi": riichi, "offender": rng.randrange(n)}
    return {
        "result": "draw",
        "riichi": riichi,
        "tenpai": sorted(rng.sample(range(n), rng.randint(0, n))),
    }


def random_record(
    rng: random.Random,
    rules_spec: Any = "ari-ari",
    *,
    complete: bool = True,
    every_kind: bool = False,
) -> dict[str, Any]:
    """A whole game (or, with complete=False, a game stopped at a random hand).

    `every_kind` draws hands of every kind (see `random_hand`).
    """
    rules = resolve_rules(rules_spec)
    state = start_state(rules)
    hands: list[dict[str, Any]] = []
    stop_at = None if complete else rng.randint(0, 12)
    while not state.finished and len(hands) != stop_at:
        doc = random_hand(rng, rules, every_kind=every_kind)
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


# Values `random_rules` draws for the options that are not true/false or a choice of words;
# each is valid for the number of players it is listed under.
_NUMBERS: dict[str, tuple[Any, ...]] = {
    "start_points": (25000, 30000, 35000, 27000),
    "return_points": (25000, 30000, 35000, 40000, 30500),
    "target_points": (None, 30000, 40000, 0),
    "oka": (None, 0, 20, 7.5, -5),
    "chombo_penalty": (0, -20, -30, -7.5),
    "riichi_min_points": (0, 1000, 500, 3000),
}
_BY_PLAYERS: dict[str, dict[int, tuple[Any, ...]]] = {
    "uma": {
        4: ((30, 10, -10, -30), (15, 5, -5, -15), (20, 10, -10, -20), (12.5, 2.5, -2.5, -12.5)),
        3: ((20, 0, -20), (15, 0, -15), (10.5, 0, -10.5), (30, -10, -20)),
    },
    "honba_value": {4: (0, 300, 600, 1500), 3: (0, 200, 400, 1000)},
    "noten_total": {4: (0, 600, 1200, 3000, 3600), 3: (0, 200, 1000, 2000, 3000)},
}


def random_rules(rng: random.Random, preset: str, *, change: float = 0.35) -> dict[str, Any]:
    """`{"preset": preset, "overrides": {...}}` with about `change` of the options drawn at
    random (every value valid), and now and then the other number of players.

    Every option of `Rules` is drawn here: a new option that is neither true/false nor a
    choice of words needs its values in `_NUMBERS` or `_BY_PLAYERS`.
    """
    base = PRESETS[preset]
    players = base.players
    overrides: dict[str, Any] = {}
    if rng.random() < 0.08:
        players = 7 - players
        overrides["players"] = players
        # Options whose valid values depend on the number of players must follow.
        for name, values in _BY_PLAYERS.items():
            if name == "uma" or getattr(base, name) not in values[players]:
                overrides[name] = _json_value(rng.choice(values[players]))
    for field in dataclasses.fields(base):
        name = field.name
        if name in overrides or name == "players" or rng.random() >= change:
            continue
        if field.type == "bool":
            overrides[name] = rng.random() < 0.5
        elif name in _ENUMS:
            overrides[name] = rng.choice([c.value for c in _ENUMS[name]])
        elif name in _NUMBERS:
            overrides[name] = rng.choice(_NUMBERS[name])
        elif name in _BY_PLAYERS:
            overrides[name] = _json_value(rng.choice(_BY_PLAYERS[name][players]))
        else:
            raise ValueError(f"random_rules draws no values for the option {name!r}")
    return {"preset": preset, "overrides": overrides}


def _json_value(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def random_any_record(rng: random.Random, rules_spec: Any) -> dict[str, Any]:
    """A record of any shape the format allows: mostly hands of every kind (a game whole or
    stopped early, now and then ended early by time), sometimes only final scores (often
    tied, with sticks left over), and sometimes penalties."""
    rules = resolve_rules(rules_spec)
    n = rules.players
    roll = rng.random()
    if roll < 0.15:
        # Few transfers leave players tied, often for first with sticks to share.
        sticks = rng.choice((0, 1, 1, 2, 3))
        scores = [rules.start_points] * n
        scores[rng.randrange(n)] -= 1000 * sticks
        for _ in range(rng.choice((0, 0, 1, 2, 3))):
            giver, taker = rng.sample(range(n), 2)
            amount = rng.choice((100, 1000, 8000, 12300))
            scores[giver] -= amount
            scores[taker] += amount
        record: dict[str, Any] = {
            "format": FORMAT,
            "rules": rules_spec,
            "players": ["Aki", "Ben", "Chie", "Dan"][:n],
            "final_scores": scores,
            "leftover_sticks": sticks,
        }
    else:
        record = random_record(rng, rules_spec, complete=rng.random() < 0.85, every_kind=True)
        if record["hands"] and rng.random() < 0.1:
            record["ended_early"] = "time"
    if rng.random() < 0.12:
        record["penalties"] = [
            {
                "seat": rng.randrange(n),
                "match_points": rng.choice((-20.0, -10.0, -2.5, 5.0, -0.1)),
                "reason": "late",
            }
            for _ in range(rng.randint(1, 2))
        ]
    return record
