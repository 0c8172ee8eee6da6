"""Deleting a finished game or a session (in the admin) changes an event's standings;
deleting a game still going, or saving a game or a session, changes what the event's pages
of games in progress show (and a session, its list of sessions)."""

from __future__ import annotations

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from .models import Event, Game, Session


@receiver(post_delete, sender=Game)
@receiver(post_delete, sender=Session)
def _results_changed(sender, instance, **kwargs) -> None:
    if sender is Game:
        # In a cascade the session may be gone already; its own signal then covers it.
        events = Event.objects.filter(sessions=instance.session_id)
        if instance.status == Game.Status.FINISHED:
            events.results_changed()
        else:
            # The standings count finished games only: their stored totals still agree.
            events.games_changed()
    else:
        Event.objects.filter(pk=instance.event_id).sessions_changed(results=True)


@receiver(post_save, sender=Game)
@receiver(post_save, sender=Session)
def _games_changed(sender, instance, created=False, update_fields=None, **kwargs) -> None:
    if sender is Game and not created and (update_fields is None or "session" in update_fields):
        # A game saved whole may have moved to another session: what the standings count
        # per session is then recounted (the services never move a game).
        Event.objects.filter(sessions__games=instance).results_changed()
    if sender is Game and Game.session.is_cached(instance):
        Event.objects.filter(pk=instance.session.event_id).games_changed()
    elif sender is Game:
        Event.objects.filter(sessions=instance.session_id).games_changed()
    else:
        Event.objects.filter(pk=instance.event_id).sessions_changed()
