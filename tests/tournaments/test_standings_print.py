"""Printed standings say which event, which day and which rules they are."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.tournaments.builders import small_league

pytestmark = pytest.mark.django_db


def test_the_standings_carry_a_printed_heading_with_event_date_and_rules(client, organiser):
    event = small_league(organiser)

    html = client.get(f"/events/{event.slug}/standings/").content.decode()

    today = timezone.localdate()
    assert f'<p class="print-only print-head">League · standings of {today:%-d %B %Y}' in html
    assert "rules: ari-ari" in html
