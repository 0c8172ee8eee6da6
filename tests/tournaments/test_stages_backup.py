"""A backup keeps an event's stages and their entrants; a restore scores each stage's games
under its own rules again and gives the same final placement."""

from __future__ import annotations

import pytest

from tests.security.test_backup import wipe
from tests.tournaments.stage_builders import EVEN, cut, d, play, stage, staged_event
from tests.tournaments.test_stages import _season
from tournaments import backup, services
from tournaments.models import Event, Stage
from tournaments.reading.placement import final_placement

pytestmark = pytest.mark.django_db


def _picture(event: Event) -> list[tuple]:
    return [
        (p.place_label, p.player.display_name, p.points, p.stage, p.eliminated)
        for p in final_placement(event)
    ]


def test_a_restore_brings_back_the_stages_their_entrants_and_the_same_placement(organiser):
    event = staged_event(organiser, "kept", 3)
    stage(event, "Season", 1, 2, tie_breaks=("firsts", "shared"))
    stage(
        event,
        "Final",
        3,
        3,
        entrants="top",
        top=3,
        carry="factor",
        carry_factor=d("0.5"),
        carry_rounding="up",
        rules_preset="tenhou",
        bye_points=d("1.5"),
    )
    _season(event)
    cut(event, 2)
    play(event, 3, (["P5", "P1", "P3", "P4"], EVEN))
    services.hide_stage_totals(Stage.objects.get(event=event, number=2).pk, True)
    before = _picture(event)
    document = backup.dump_site()

    wipe()
    backup.restore_site(document)

    restored = Event.objects.get(slug="kept")
    assert (restored.stage_count, restored.totals_hidden) == (2, True)
    final = restored.stages.get(number=2)
    assert (final.rules_preset, final.carry_factor, final.bye_points) == (
        "tenhou",
        d("0.50"),
        d("1.5"),
    )
    assert [e.player.display_name for e in final.entries.order_by("seed")] == ["P5", "P1", "P3"]
    assert _picture(restored) == before
