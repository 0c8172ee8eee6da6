"""Who may see and who may change what.

Everyone may read a public event. Only an event's organisers (and superusers) may write
to it, and a private event does not exist for anyone else (404). A logged-in user who
may read but not write gets 403 on a write; anonymous users are sent to log in.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from .models import Event, Game, Session


def can_read(event: Event, user) -> bool:
    return event.is_public or event.is_organiser(user)


def get_event_for_reader(request: HttpRequest, slug: str) -> Event:
    event = get_object_or_404(Event, slug=slug)
    if not can_read(event, request.user):
        raise Http404("No such event.")
    return event


def get_event_for_organiser(request: HttpRequest, slug: str) -> Event:
    event = get_event_for_reader(request, slug)
    if not event.is_organiser(request.user):
        raise PermissionDenied("Only the organisers of this event can change it.")
    return event


def get_session_for_reader(request: HttpRequest, slug: str, number: int) -> Session:
    event = get_event_for_reader(request, slug)
    return get_object_or_404(Session, event=event, number=number)


def get_session_for_organiser(request: HttpRequest, slug: str, number: int) -> Session:
    event = get_event_for_organiser(request, slug)
    return get_object_or_404(Session, event=event, number=number)


def _game(pk: int) -> Game:
    return get_object_or_404(Game.objects.select_related("session__event"), pk=pk)


def get_game_for_reader(request: HttpRequest, pk: int) -> Game:
    game = _game(pk)
    if not can_read(game.session.event, request.user):
        raise Http404("No such game.")
    return game


def get_game_for_organiser(request: HttpRequest, pk: int) -> Game:
    game = get_game_for_reader(request, pk)
    if not game.session.event.is_organiser(request.user):
        raise PermissionDenied("Only the organisers of this event can change its games.")
    return game
