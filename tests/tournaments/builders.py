"""Small builders for app tests."""

from __future__ import annotations

from tournaments import services


def final_game(session, names, scores, table, penalties=()):
    """A finished final-score game among players named `names` (created if new)."""
    players = services.players_by_name(names, create=True)
    doc = {
        "format": "tenbou-game/1",
        "rules": "ari-ari",
        "players": names,
        "final_scores": scores,
        "leftover_sticks": 0,
    }
    if penalties:
        doc["penalties"] = list(penalties)
    return services.create_game_from_record(session, doc, players, table_number=table)
