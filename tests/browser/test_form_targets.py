"""At 390 px the controls of the director's forms are 44 px targets too: a checkbox field's
label (which ticks it) and every select, on the event form, the seating form and the
standings filter."""

from __future__ import annotations

import datetime

import pytest

from tests.browser.builders import log_in_as
from tournaments import services
from tournaments.models import Event, Session

SMALL_CONTROLS = """() => [...document.querySelectorAll('main input[type=checkbox], main select')]
  .filter(el => el.getBoundingClientRect().width > 0)
  .map(el => {
    const target = el.type === 'checkbox' && !el.closest('label') ? el.labels[0] : el;
    const r = target.getBoundingClientRect();
    return [el.name, Math.round(r.width), Math.round(r.height)];
  })
  .filter(([name, w, h]) => w < 43.5 || h < 43.5)"""


@pytest.mark.parametrize(
    "path",
    [
        "/events/new/",
        "/events/open/sessions/1/seat/",
        "/events/open/standings/",
        "/events/open/roster/",
    ],
)
def test_checkbox_labels_and_selects_are_44_px_targets_on_a_phone(
    live_server, page, django_user_model, path
):
    organiser = django_user_model.objects.create_user(username="dora", password="x")
    event = Event.objects.create(
        name="Open", slug="open", kind="tournament", starts_on=datetime.date(2026, 11, 28)
    )
    event.organisers.add(organiser)
    Session.objects.create(event=event, number=1, date=event.starts_on)
    services.add_names_to_roster(event.pk, [f"Player {n}" for n in range(8)], create=True)
    log_in_as(page, live_server, organiser)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + path)
    assert page.locator("main input[type=checkbox], main select").count() > 0
    assert page.evaluate(SMALL_CONTROLS) == []
