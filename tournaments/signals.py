"""Deleting games or sessions (in the admin) changes an event's standings."""

from __future__ import annotations

from django.db.models.signals import post_delete
from django.dispatch import receiver

from .models import Event, Game, Session


@receiver(post_delete, sender=Game)
@receiver(post_delete, sender=Session)
def _results_changed(sender, instance, **kwargs) -> None:
    if sender is Game:
        # In a cascade the session may be gone already; its own signal then covers it.
        Event.objects.filter(sessions=instance.session_id).results_changed()
    else:
        Event.objects.filter(pk=instance.event_id).results_changed()
