"""Small tenbou-game/1 records for engine tests."""

from __future__ import annotations

from typing import Any


def make_record(hands: list[dict[str, Any]] | None = None, rules: Any = "ari-ari", **extra):
    doc: dict[str, Any] = {
        "format": "tenbou-game/1",
        "rules": rules,
        "players": ["Aki", "Ben", "Chie", "Dan"],
    }
    if hands is not None:
        doc["hands"] = hands
    doc.update(extra)
    return doc


def ron(winner: int, loser: int, riichi=(), **value) -> dict[str, Any]:
    return {
        "result": "ron",
        "riichi": list(riichi),
        "wins": [{"winner": winner, "loser": loser, **(value or {"han": 1, "fu": 30})}],
    }


def tsumo(winner: int, riichi=(), **value) -> dict[str, Any]:
    return {
        "result": "tsumo",
        "riichi": list(riichi),
        "wins": [{"winner": winner, **(value or {"han": 1, "fu": 30})}],
    }


def draw(*tenpai: int, riichi=()) -> dict[str, Any]:
    return {"result": "draw", "riichi": list(riichi), "tenpai": list(tenpai)}


def rules_with(preset: str = "ari-ari", **overrides: Any) -> dict[str, Any]:
    return {"preset": preset, "overrides": overrides}
