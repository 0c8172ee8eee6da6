"""Whole pages kept in the cache: each reader gets their own form token and sees only
what is theirs, a page with messages is drawn for them, an address the page does not
write is drawn without being kept, and a running clock shows the time of the request."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tournaments import pagecache, services
from tournaments.models import Event

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def _kept_pages() -> int:
    return sum(1 for name in cache._cache if ":page:page:" in name)


def test_a_kept_page_carries_each_readers_own_form_token(event, game):
    url = reverse("tournaments:standings", args=[event.slug])
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    first.get(url)
    kept = _kept_pages()
    page = second.get(url).content.decode()
    assert _kept_pages() == kept  # served from the cache
    assert pagecache.TOKEN_SLOT not in page
    token = TOKEN.search(page).group(1)
    # The token in the kept page is the second reader's: their language switch goes through.
    answer = second.post(
        reverse("set_language"), {"language": "ja", "next": url, "csrfmiddlewaretoken": token}
    )
    assert answer.status_code == 302
    assert second.cookies["django_language"].value == "ja"


def test_signed_in_readers_share_one_kept_page_each_named_in_it(event, game, organiser, stranger):
    url = reverse("tournaments:standings", args=[event.slug])
    stranger.first_name = "<b>Sam</b>"
    stranger.save()
    mine, theirs = Client(), Client()
    mine.force_login(organiser)
    theirs.force_login(stranger)
    assert ">Olive<" in mine.get(url).content.decode()
    kept = _kept_pages()
    page = theirs.get(url).content.decode()
    assert _kept_pages() == kept  # the same page, with the other reader's name
    assert ">&lt;b&gt;Sam&lt;/b&gt;<" in page and "Olive" not in page
    assert pagecache.READER_SLOT not in page
    page = Client().get(url).content.decode()
    assert "Olive" not in page and "Sam" not in page and "Log in" in page


def test_text_a_user_types_is_never_taken_for_a_slot(event, game, players):
    # A slot carries a mark from the site's secret key: a name cannot spell one.
    players[0].display_name = "slot-csrf-token"
    players[0].save()
    url = reverse("tournaments:game", args=[game.pk])
    client = Client()
    client.get(url)
    assert "slot-csrf-token" in client.get(url).content.decode()
    assert pagecache.TOKEN_SLOT.startswith("slot-csrf-token-")


def test_a_page_with_a_message_draws_it_once_and_is_not_kept_with_it(organiser_client, event):
    url = reverse("tournaments:event", args=[event.slug])
    organiser_client.get(url)  # kept without a message
    edit = {
        "name": event.name,
        "slug": event.slug,
        "kind": event.kind,
        "starts_on": "2026-09-03",
        "description": "Bring a pen.",
        "is_public": "on",
        "substitute_rule": event.substitute_rule,
        "ema_qualification": event.ema_qualification,
    }
    answer = organiser_client.post(
        reverse("tournaments:event_edit", args=[event.slug]), edit, follow=True
    )
    assert answer.redirect_chain[-1][0] == url
    page = answer.content.decode()
    assert "Thursday League saved." in page and "Bring a pen." in page
    again = organiser_client.get(url).content.decode()
    assert "Bring a pen." in again and "saved." not in again


def test_an_address_the_page_does_not_write_is_drawn_but_not_kept(event, game):
    url = reverse("tournaments:results", args=[event.slug])
    client = Client()
    plain = client.get(url).content.decode()
    kept = _kept_pages()
    for n in range(5):
        page = client.get(url, {"utm": f"x{n}", "page": "900"}).content.decode()
        assert page.count("<tr") == plain.count("<tr")
        assert f"x{n}" in page  # the language switch returns to the address asked for
    assert _kept_pages() == kept


def test_a_running_clock_shows_the_time_of_each_request_on_a_kept_game_page(game):
    started = datetime.datetime(2026, 9, 3, 19, 0, tzinfo=datetime.UTC)
    services.start_round_clock(game.session_id, 60, now=started)
    url = reverse("tournaments:game", args=[game.pk])
    client = Client()
    first = client.get(url).content.decode()
    kept = _kept_pages()
    second = client.get(url).content.decode()
    assert _kept_pages() == kept
    for page in (first, second):
        assert pagecache.slot("clock-now") not in page
        assert pagecache.slot("clock-left") not in page
    now = re.compile(r'data-clock-now="([^"]+)"')
    assert now.search(first).group(1) != now.search(second).group(1)
    # Long past its end: "Time", escaped as any text is.
    assert "data-clock-time>Time<" in first


def test_a_change_to_the_events_row_alone_shows_at_once(event, game):
    url = reverse("tournaments:standings", args=[event.slug])
    client = Client()
    assert "Thursday League" in client.get(url).content.decode()
    # Written without a signal, as a bulk change would be.
    Event.objects.filter(pk=event.pk).update(name="Renamed League")
    assert "Renamed League" in client.get(url).content.decode()


def test_what_only_an_organiser_sees_is_never_served_to_another_signed_in_reader(
    event, game, organiser, stranger
):
    url = reverse("tournaments:game", args=[game.pk])
    mine, theirs = Client(), Client()
    mine.force_login(organiser)
    theirs.force_login(stranger)
    assert 'id="link-title"' in mine.get(url).content.decode()
    page = theirs.get(url).content.decode()
    assert 'id="link-title"' not in page and ">stranger<" in page
