"""Changes made outside the services (the admin, a cascade): a game saved changes what is
at its tables; a game deleted changes its players' totals when it was finished;
a session saved or deleted changes the list of sessions the standings offer."""

from __future__ import annotations

from django.db.models.signals import post_delete, post_save, pre_delete
from django.dispatch import receiver

from . import totals, versions
from .models import Event, Game, GameSeat, Session


def _deleted_alone(origin) -> bool:
    """Whether a deletion started from games themselves (not from their session or event,
    whose own signal then counts what they took along)."""
    model = origin if isinstance(origin, type) else getattr(origin, "model", type(origin))
    return model is Game


@receiver(pre_delete, sender=Game)
def _game_leaving(sender, instance, origin=None, **kwargs) -> None:
    if not _deleted_alone(origin):
        return
    # What its deletion changes, read while its session and seats are still there.
    instance._leaving = (
        totals.event_of(instance),
        list(GameSeat.objects.filter(game_id=instance.pk).values_list("player_id", flat=True)),
        totals.counted(instance),
    )


@receiver(post_delete, sender=Game)
def _game_deleted(sender, instance, origin=None, **kwargs) -> None:
    if not _deleted_alone(origin):
        return
    event_id, players, was_counted = instance._leaving
    # The statistics count a finished game even when its every seat was a substitute's.
    if instance.status == Game.Status.FINISHED:
        totals.game_removed(event_id, instance.session_id, players, was_counted=was_counted)
    else:
        versions.changed(event_id)


@receiver(post_save, sender=Game)
def _game_saved(sender, instance, created=False, update_fields=None, **kwargs) -> None:
    event_id = totals.event_of(instance)
    moved = not created and (update_fields is None or "session" in update_fields)
    if moved and instance.status == Game.Status.FINISHED:
        # Saved whole (in the admin) or moved: it may count in another session now.
        totals.results_changed(event_id)
    else:
        versions.changed(event_id)


# What a session holds that the standings do not show.
AT_THE_TABLES = frozenset(
    {"clock_minutes", "clock_ends_at", "signal", "signal_minutes", "signal_at"}
)


@receiver(post_save, sender=Event)
def _event_saved(sender, instance, created=False, **kwargs) -> None:
    # Its name and rules are on its pages; and a whole save writes the versions it read,
    # which the new ones replace.
    if not created:
        versions.changed(instance.pk, results=True)


@receiver(post_save, sender=Session)
def _session_saved(sender, instance, update_fields=None, **kwargs) -> None:
    at_tables = update_fields is not None and set(update_fields) <= AT_THE_TABLES
    versions.changed(instance.event_id, results=not at_tables)


@receiver(post_delete, sender=Session)
def _session_deleted(sender, instance, origin=None, **kwargs) -> None:
    if isinstance(origin, Event) or getattr(origin, "model", None) is Event:
        return  # the whole event went
    totals.results_changed(instance.event_id)
