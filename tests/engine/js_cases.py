"""Records for comparing the browser's engine (static/js/engine.js) with `scoring`.

`generated_records` draws valid records under every preset, with random overrides of every
option; `mutated_records` breaks valid ones at random places, so that some are refused and
some are still valid. `outcome` is what `scoring` makes of a record: its result as JSON, or
the refusal. `coverage` says which option values and kinds of hands a set of records holds.
"""

from __future__ import annotations

import copy
import functools
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from scoring import PRESETS, ScoringError, resolve_rules, score
from scoring.record import FORMAT
from scoring.rules import _BOOLS, _ENUMS, _FIELDS
from scoring.simulate import random_any_record, random_rules

ENGINE_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "engine.js"

# Scores every record of a batch in the page: its result, or the refusal's message.
# Records go in and answers come out as JSON text: far quicker than Playwright's own
# serialisation of large objects.
SCORE_BATCH_JS = """text => JSON.stringify(JSON.parse(text).map(record => {
    try {
        return {result: TenbouEngine.score(record)};
    } catch (err) {
        return {refused: String(err && err.message),
                readable: err instanceof TenbouEngine.ScoringError,
                template: err && err.template};
    }
}))"""


def generated_records(seed: int, *, hands: int) -> list[dict[str, Any]]:
    """Valid records, presets in turn, until they hold at least `hands` hands; four in five
    under random overrides, some with every option spelled out as the record endpoint
    sends them. (Made once for each seed and size: use copies to change them.)"""
    return _generated(seed, hands)


@functools.cache
def _generated(seed: int, hands: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    records: list[dict[str, Any]] = []
    count = 0
    names = sorted(PRESETS)
    while count < hands:
        for name in names:
            roll = rng.random()
            if roll < 0.1:
                spec: Any = name
            elif roll < 0.2:
                resolved = resolve_rules(random_rules(rng, name)).to_dict()
                spec = {"preset": name, "overrides": resolved}
            else:
                spec = random_rules(rng, name)
            record = random_any_record(rng, spec)
            records.append(record)
            count += len(record.get("hands", ()))
    return records


# Values a mutation puts in place of another (no whole numbers written as floats such as
# 3.0: JSON in a browser cannot tell them from 3).
_POOL: tuple[Any, ...] = (
    -1,
    0,
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    13,
    20,
    25,
    35,
    110,
    120,
    1000,
    25000,
    -25000,
    12.5,
    0.05,
    None,
    True,
    False,
    "",
    " ",
    "x",
    "ron",
    "time",
    "ari-ari",
    "split",
    [],
    [0],
    [0, 0],
    [5],
    [1, 2, 3],
    {},
    {"winner": 0},
)


def _places(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _places(item, (*path, index))


def mutate(rng: random.Random, record: dict[str, Any]) -> dict[str, Any]:
    """A copy of `record` with one random change: a value replaced, a field or list item
    removed, or a field added."""
    out = copy.deepcopy(record)
    path = rng.choice(list(_places(out))[1:])
    parent = out
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    roll = rng.random()
    if roll < 0.7:
        parent[last] = copy.deepcopy(rng.choice(_POOL))
    elif roll < 0.85:
        del parent[last]
    else:
        target = parent if isinstance(parent, dict) else out
        key = rng.choice(("loser", "tenpai", "wins", "hands", "offender", "extra", "pao"))
        target[key] = copy.deepcopy(rng.choice(_POOL))
    return out


# Plausible values for a field, by its name: a tweak keeps a record well formed, so that
# the engines' checks of what can happen (not only of the document's shape) are compared.
_SEAT = (-1, 0, 1, 2, 3, 4)
_PLAUSIBLE: dict[str, tuple[Any, ...]] = {
    "winner": _SEAT,
    "loser": (*_SEAT, None),
    "pao": (*_SEAT, None),
    "offender": _SEAT,
    "seat": _SEAT,
    "han": (None, 0, 1, 2, 3, 4, 5, 6, 8, 11, 13, 14),
    "fu": (None, 15, 20, 25, 30, 35, 40, 70, 110, 120),
    "yakuman": (None, 0, 1, 2, 3, 6, 7),
    "pao_yakuman": (None, 0, 1, 2, 3),
    "dora": (-1, 0, 2),
    "kita": (-1, 0, 2),
    "result": ("ron", "tsumo", "draw", "nagashi", "abort", "chombo"),
    "reason": ("nine_terminals", "four_winds", "four_kans", "four_riichi", "triple_ron"),
    "match_points": (-20.0, -2.5, -2.55, 0.1, 7),
    "ended_early": ("time", None),
    "leftover_sticks": (-1, 0, 1, 2),
    "start_points": (-100, 0, 250, 25000, 30000, 35000),
    "return_points": (-100, 0, 250, 30000, 40000),
    "target_points": (None, -100, 250, 30000),
    "riichi_min_points": (-100, 0, 250, 1000, 30000),
    "honba_value": (-300, 0, 200, 250, 300, 600),
    "noten_total": (-600, 0, 200, 1000, 2000, 3000),
    "players": (2, 3, 4, 5),
    "oka": (None, 0, 20, 0.05, "7.5", "x"),
    "chombo_penalty": (-20, 0, 20, -2.55, "-5"),
    "uma": ([30, 10, -10, -30], [20, 0, -20], [15, 5, -5], [10.05, 0, -10.05], [1, 2]),
}
_SEAT_LISTS = ("riichi", "tenpai", "nagashi")
_LISTS = ("wins", "hands", "final_scores", "players")


def tweak(rng: random.Random, record: dict[str, Any]) -> dict[str, Any]:
    """A copy of `record` with one plausible change that may or may not break it: a seat,
    han, fu, yakuman, result or option value swapped for a likely one, a seat added to or
    taken from a list, a win repeated or dropped, a hand played again after the last, a
    final score moved."""
    out = copy.deepcopy(record)
    places = [
        path
        for path in _places(out)
        if path
        and (
            path[-1] in _PLAUSIBLE
            or path[-1] in _SEAT_LISTS
            or path[-1] in _LISTS
            or (len(path) >= 2 and path[-2] == "overrides")
        )
    ]
    path = rng.choice(places)
    parent = out
    for step in path[:-1]:
        parent = parent[step]
    key = path[-1]
    value = parent[key]
    if key in _SEAT_LISTS or (key == "players" and isinstance(value, list)):
        if value and rng.random() < 0.4:
            value.pop(rng.randrange(len(value)))
        elif value and rng.random() < 0.3:
            value.append(value[0])
        else:
            value.append(rng.randrange(4) if key != "players" else "Eve")
    elif key in _PLAUSIBLE:
        parent[key] = copy.deepcopy(rng.choice(_PLAUSIBLE[key]))
    elif len(path) >= 2 and path[-2] == "overrides":
        parent[key] = rng.choice((True, False, "first", "split", "on", 0, 1, None))
    elif key == "wins":
        if rng.random() < 0.6:
            value.append(copy.deepcopy(rng.choice(value)))
            value[-1]["winner"] = rng.randrange(4)
        else:
            value.pop()
    elif key == "hands":
        if value:
            value.append(copy.deepcopy(rng.choice(value)))
    elif value:  # final_scores
        value[rng.randrange(len(value))] += rng.choice((-1000, -100, 50, 100, 1000))
    return out


def override(rng: random.Random, record: dict[str, Any]) -> dict[str, Any]:
    """A copy of `record` under one more override: any option, a plausible value (which
    may be refused, or may refuse a hand the record holds)."""
    out = copy.deepcopy(record)
    spec = out["rules"]
    if isinstance(spec, str):
        spec = out["rules"] = {"preset": spec, "overrides": {}}
    name = rng.choice(sorted(_FIELDS))
    if name in _ENUMS:
        value: Any = rng.choice([*(c.value for c in _ENUMS[name]), "other", 1])
    elif name in _BOOLS:
        value = rng.choice((True, False, 0, "true"))
    else:
        value = copy.deepcopy(rng.choice(_PLAUSIBLE[name]))
    spec.setdefault("overrides", {})[name] = value
    return out


def mutated_records(seed: int, sources: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """`count` records, each one of `sources` with one change: a random one (`mutate`), a
    plausible one (`tweak`) or one more rule option (`override`)."""
    rng = random.Random(seed)
    changes = (mutate, tweak, tweak, override)
    return [rng.choice(changes)(rng, rng.choice(sources)) for _ in range(count)]


def outcome(record: dict[str, Any]) -> dict[str, Any]:
    """`scoring`'s result for a record as JSON text would carry it, or its refusal."""
    try:
        return {"result": json.loads(json.dumps(score(record)))}
    except ScoringError as err:
        # The template of the problem (without "hand N: "), by which a page translates it.
        return {"refused": str(err), "template": err.problem.template}
    except (TypeError, ValueError, ArithmeticError) as err:
        # Not a refusal worded for people, but a refusal all the same (e.g. a list as the
        # preset's name).
        return {"refused": f"{type(err).__name__}: {err}"}


def same(python: dict[str, Any], browser: dict[str, Any]) -> bool:
    """The same result, or both refused, naming the same hand when `scoring` names one,
    in the words of the same template."""
    if "refused" in python:
        hand = re.match(r"hand \d+: ", python["refused"])
        return (
            "refused" in browser
            and (not hand or browser["refused"].startswith(hand[0]))
            and browser.get("template") == python.get("template", browser.get("template"))
        )
    return "result" in browser and browser["result"] == python["result"]


def edge_records() -> list[dict[str, Any]]:
    """Valid records at corners the generator seldom reaches."""
    players = ["Aki", "Ben", "Chie", "Dan"]

    def game(hands: list[dict[str, Any]], rules: Any = "ari-ari") -> dict[str, Any]:
        return {"format": FORMAT, "rules": rules, "players": players, "hands": hands}

    def win(result: str, **value: Any) -> dict[str, Any]:
        loser = {"loser": 0} if result == "ron" else {}
        return {"result": result, "riichi": [], "wins": [{"winner": 1, **loser, **value}]}

    draw = {"result": "draw", "riichi": [], "tenpai": []}
    to_target = {"preset": "tenhou", "overrides": {"length": "tonpuusen", "target_points": 27400}}
    return [
        game([win("ron", yakuman=6), win("tsumo", yakuman=6)], "club"),  # club: no busting
        game([win("ron", han=5, fu=20), win("tsumo", han=13, fu=25), win("ron", han=4, fu=110)]),
        # Liable for every multiple of a double yakuman, under both scopes.
        game([win("tsumo", yakuman=2, pao=2, pao_yakuman=2)], "mahjongsoul"),
        game([win("ron", yakuman=2, pao=2, pao_yakuman=2)], "mahjongsoul"),
        game([win("ron", yakuman=3, pao=0, pao_yakuman=1)], "mahjongsoul"),  # pao dealt in
        # The all-last dealer wins and leads with exactly the target score: agari-yame.
        game(
            [
                draw,
                draw,
                draw,
                {
                    **win("ron", han=1, fu=30),
                    "wins": [{"winner": 3, "loser": 0, "han": 1, "fu": 30}],
                },
            ],
            to_target,
        ),
        # Nobody reaches the target: the west round is played to its last hand.
        game([draw] * 12, "tenhou"),
        {**game([draw] * 9, "tenhou-sanma"), "players": players[:3]},
        # Match points of exactly 0.0 and whole numbers.
        {
            "format": FORMAT,
            "rules": "mahjongsoul-sanma",
            "players": players[:3],
            "final_scores": [50000, 35000, 20000],
        },
        # Four players tied, sticks shared; three tied with sticks that do not divide.
        {
            "format": FORMAT,
            "rules": "club",
            "players": players,
            "final_scores": [24500, 24500, 24500, 24500],
            "leftover_sticks": 2,
        },
        {
            "format": FORMAT,
            "rules": {"preset": "club", "overrides": {"rounding": "thousands"}},
            "players": players,
            "final_scores": [26000, 26000, 26000, 21000],
            "leftover_sticks": 1,
        },
    ]


def first_mismatch(
    records: list[dict[str, Any]], python: list[dict[str, Any]], browser: list[dict[str, Any]]
) -> str | None:
    """The first record the two engines disagree on, told readably, or None."""
    for index, (record, want, got) in enumerate(zip(records, python, browser, strict=True)):
        if same(want, got):
            continue
        lines = [f"record {index} of {len(records)}: rules {json.dumps(record.get('rules'))}"]
        if "result" in want and "result" in got:
            for number, (a, b) in enumerate(
                zip(want["result"]["hands"], got["result"]["hands"], strict=False), start=1
            ):
                if a != b:
                    hand = record["hands"][number - 1]
                    lines += [
                        f"hand {number}: {json.dumps(hand)}",
                        f"  scoring:    {json.dumps(a)}",
                        f"  engine.js:  {json.dumps(b)}",
                    ]
                    break
            else:
                rest_a = {k: v for k, v in want["result"].items() if k != "hands"}
                rest_b = {k: v for k, v in got["result"].items() if k != "hands"}
                lines += [
                    f"  scoring:   {json.dumps(rest_a)}",
                    f"  engine.js: {json.dumps(rest_b)}",
                ]
        else:
            lines += [
                f"  scoring:   {json.dumps(want)[:600]}",
                f"  engine.js: {json.dumps(got)[:600]}",
            ]
        lines.append(f"record: {json.dumps(record)[:3000]}")
        return "\n".join(lines)
    return None


def coverage(records: list[dict[str, Any]], results: list[dict[str, Any]]) -> dict[str, set]:
    """What the records exercise: each choice and true/false option's values, the other
    options' values, the presets, the kinds of hands and wins, and how the games ended."""
    seen: dict[str, set] = {"preset": set(), "hand": set(), "ended_by": set(), "record": set()}
    for record, result in zip(records, results, strict=True):
        spec = record["rules"]
        seen["preset"].add(spec if isinstance(spec, str) else spec["preset"])
        for name, value in resolve_rules(spec).to_dict().items():
            seen.setdefault(name, set()).add(json.dumps(value))
        seen["ended_by"].add(result["ended_by"])
        if "final_scores" in record:
            seen["record"].add("final_scores")
        if "penalties" in record:
            seen["record"].add("penalties")
        if "ended_early" in record:
            seen["record"].add("ended_early")
        if result["placements"] and len(set(result["placements"])) < len(result["placements"]):
            seen["record"].add("shared place")
        if result["final_scores"] and any(s % 100 for s in result["final_scores"]):
            seen["record"].add("sticks shared unevenly")
        rules = resolve_rules(spec)
        if rules.players == 3:
            seen["record"].add(f"three players, tsumo_loss {rules.tsumo_loss}")
        for hand in record.get("hands", ()):
            kind = hand["result"]
            if kind == "ron":
                kind += f" x{len(hand['wins'])}"
            if kind == "abort":
                kind += f" {hand['reason']}"
            seen["hand"].add(kind)
            for win in hand.get("wins", ()):
                for key in ("pao", "pao_yakuman", "yakuman", "kita", "yaku"):
                    if key in win:
                        seen["hand"].add(f"{hand['result']} with {key}")
    if any(min(r["scores_after"]) < 0 for result in results for r in result["hands"]):
        seen["record"].add("below zero")
    return seen


def every_choice() -> dict[str, set]:
    """Each choice and true/false option's values, as `coverage` writes them."""
    wanted = {name: {json.dumps(c.value) for c in enum} for name, enum in _ENUMS.items()}
    wanted.update({name: {"true", "false"} for name in _BOOLS})
    wanted["players"] = {"3", "4"}
    return wanted
