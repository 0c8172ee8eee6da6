"""Every write that changes a game's outcome goes through `services/`: no view, form,
admin or command creates, changes or deletes games, seats, hands, wins or penalties by
itself, and none replays a game on its own."""

from __future__ import annotations

import re
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "tournaments"
ALLOWED: set[str] = set()
OUTCOME_MODELS = r"(?:Game|GameSeat|Hand|Win|Penalty)"
WRITES = [
    re.compile(
        rf"\b{OUTCOME_MODELS}\.objects\b[^\n]*\.(?:create|get_or_create|update_or_create|"
        r"bulk_create|bulk_update|update|delete)\("
    ),
    re.compile(r"\.seats\b[^\n]*\.(?:delete|update|create)\("),
    re.compile(r"\brescore_game\(|\b_store_results\(|\bapply_result\("),
    re.compile(r"\bsuper\(\)\.save_model\("),
]


def app_modules() -> list[Path]:
    return [
        path
        for path in sorted(APP.rglob("*.py"))
        if path.name not in ALLOWED and not {"migrations", "services"} & set(path.parts)
    ]


def test_only_services_write_what_happened_in_games():
    offending = []
    for path in app_modules():
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if any(pattern.search(line) for pattern in WRITES):
                offending.append(f"{path.relative_to(APP.parent)}:{number}: {line.strip()}")
    assert offending == []


def test_the_check_would_see_a_write_outside_services():
    lines = [
        "GameSeat.objects.bulk_create(rows)",
        "game.seats.all().delete()",
        "services.rescore_game(game)",
        "super().save_model(request, obj, form, change)",
    ]
    assert all(any(p.search(line) for p in WRITES) for line in lines)
