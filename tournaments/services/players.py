"""Merging two players who are one person: every row that names the merged player moves
to the kept one in one transaction, the merged name stays as an alias, and the stored
totals of every event either played in are recounted.

The rows are found from the model's relations, not from a list: a model added later
that points at a player moves with the others, and its unique constraints are checked
before anything moves.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import UniqueConstraint

from scoring.errors import Phrase, gettext_noop

from .. import totals, versions
from ..models import (
    CheckIn,
    Event,
    GameSeat,
    Player,
    PlayerAlias,
    PlayerTotal,
    RosterEntry,
    StatisticsTotal,
)
from .errors import GameChangeRefused

# Stored from the seats: recounted after the move, never moved (see `totals.rebuild`).
DERIVED = (PlayerTotal, StatisticsTotal)

# The player's details a merge fills in on the kept player where theirs is empty.
DETAILS = ("real_name", "last_name", "first_name", "ema_number", "country")

# The stricter choice wins: merging never shows a real name more widely than one of the
# two players chose.
STRICTNESS = [
    Player.RealNameShown.EVERYONE,
    Player.RealNameShown.SIGNED_IN,
    Player.RealNameShown.ORGANISERS,
]


class MergeRefused(GameChangeRefused):
    """Two players that cannot be one: the message says why."""


@dataclass(frozen=True)
class Moving:
    """What a merge moves of one kind: `label` (the model's plural name) and how many."""

    label: str
    count: int


@dataclass(frozen=True)
class MergePreview:
    kept: Player
    merged: Player
    moving: list[Moving]
    events: list[Event]
    refusals: list[Phrase]
    login_moves: bool
    details: dict[str, str]


def _relations():
    """Every relation of another model to `Player` (reverse foreign keys), hidden ones
    included, apart from the stored totals."""
    return [
        rel
        for rel in Player._meta.get_fields(include_hidden=True)
        if rel.auto_created
        and not rel.concrete
        and rel.one_to_many
        and rel.related_model not in DERIVED
    ]


def _events_of(*players: Player) -> set[int]:
    ids = [p.pk for p in players]
    events = set(
        GameSeat.objects.filter(player__in=ids).values_list("game__session__event_id", flat=True)
    )
    events |= set(RosterEntry.objects.filter(player__in=ids).values_list("event_id", flat=True))
    events |= set(
        CheckIn.objects.filter(player__in=ids).values_list("session__event_id", flat=True)
    )
    return events


def _clashes(rel, kept: Player, merged: Player) -> list[Phrase]:
    """The rows of `rel`'s model that a unique constraint lets only one of the two hold."""
    model, name = rel.related_model, rel.field.name
    refusals = []
    constraints = [
        c for c in model._meta.constraints if isinstance(c, UniqueConstraint) and name in c.fields
    ]
    for constraint in constraints:
        others = [f for f in constraint.fields if f != name]
        rows = model.objects.all()
        if constraint.condition is not None:
            rows = rows.filter(constraint.condition)
        for field in others:
            # NULL never equals NULL in a unique index: such rows never clash.
            rows = rows.filter(**{f"{field}__isnull": False})
        held = set(rows.filter(**{name: kept}).values_list(*others)) if others else set()
        clash = (
            rows.filter(**{name: merged}).exists() and rows.filter(**{name: kept}).exists()
            if not others
            else any(v in held for v in rows.filter(**{name: merged}).values_list(*others))
        )
        if clash:
            refusals.append(
                Phrase(
                    gettext_noop(
                        "Both players have %(things)s that only one player may hold "
                        "(the same %(fields)s): take one of them away first."
                    ),
                    things=str(model._meta.verbose_name_plural),
                    fields=", ".join(str(model._meta.get_field(f).verbose_name) for f in others),
                )
            )
    return refusals


def merge_refusals(kept: Player, merged: Player) -> list[Phrase]:
    """Why these two cannot be one person (nothing: they may be merged)."""
    if kept.pk == merged.pk:
        return [Phrase(gettext_noop("A player cannot be merged with themselves."))]
    names = {"kept": kept.display_name, "merged": merged.display_name}
    together = (
        GameSeat.objects.filter(player=kept, game__seats__player=merged)
        .select_related("game__session__event")
        .first()
    )
    if together is not None:
        game = together.game
        return [
            Phrase(
                gettext_noop(
                    "%(kept)s and %(merged)s sat at the same game (%(event)s, session "
                    "%(session)s, table %(table)s): they are two people."
                ),
                event=game.session.event.name,
                session=game.session.number,
                table=game.table_number,
                **names,
            )
        ]
    refusals: list[Phrase] = []
    same_session = (
        GameSeat.objects.filter(player=kept, game__session__games__seats__player=merged)
        .select_related("game__session__event")
        .first()
    )
    if same_session is not None:
        session = same_session.game.session
        refusals.append(
            Phrase(
                gettext_noop(
                    "%(kept)s and %(merged)s both played in session %(session)s of "
                    "%(event)s: one person plays one game at a time."
                ),
                event=session.event.name,
                session=session.number,
                **names,
            )
        )
    if kept.user_id and merged.user_id:
        refusals.append(
            Phrase(
                gettext_noop(
                    "%(kept)s and %(merged)s each have a login of their own: unlink one of "
                    "them first."
                ),
                **names,
            )
        )
    if kept.ema_number and merged.ema_number and kept.ema_number != merged.ema_number:
        refusals.append(
            Phrase(
                gettext_noop(
                    "%(kept)s and %(merged)s have different EMA numbers (%(first)s and "
                    "%(second)s): correct the wrong one first."
                ),
                first=kept.ema_number,
                second=merged.ema_number,
                **names,
            )
        )
    on_both = (
        RosterEntry.objects.filter(player=kept, event__roster__player=merged)
        .select_related("event")
        .first()
    )
    if on_both is not None:
        refusals.append(
            Phrase(
                gettext_noop(
                    "%(kept)s and %(merged)s are both on the roster of %(event)s: take one "
                    "of them off it first."
                ),
                event=on_both.event.name,
                **names,
            )
        )
    elif not refusals:
        for rel in _relations():
            refusals += _clashes(rel, kept, merged)
    return refusals


def merge_preview(kept: Player, merged: Player) -> MergePreview:
    """What `merge_players` would do, and why it would refuse, without doing it."""
    moving = []
    for rel in _relations():
        count = rel.related_model.objects.filter(**{rel.field.name: merged}).count()
        if count:
            moving.append(Moving(str(rel.related_model._meta.verbose_name_plural), count))
    details = {
        name: getattr(merged, name)
        for name in DETAILS
        if getattr(merged, name) and not getattr(kept, name)
    }
    return MergePreview(
        kept=kept,
        merged=merged,
        moving=moving,
        events=list(Event.objects.filter(pk__in=_events_of(merged)).order_by("-starts_on")),
        refusals=merge_refusals(kept, merged),
        login_moves=bool(merged.user_id and not kept.user_id),
        details=details,
    )


def merge_players(kept_id: int, merged_id: int) -> Player:
    """Make `merged_id` part of `kept_id`: their seats, roster places, registrations,
    check-ins, invitations, aliases and login move to the kept player; empty details are
    filled from the merged one; the merged name becomes an alias; the stored totals of every
    event of either are recounted and their pages replaced. Refused (`MergeRefused`, nothing
    changed) for two people (see `merge_refusals`)."""
    with transaction.atomic():
        # Both rows locked, in id order: two merges of the same pair wait for each other.
        locked = {
            p.pk: p
            for p in Player.objects.select_for_update()
            .filter(pk__in=[kept_id, merged_id])
            .order_by("pk")
        }
        kept, merged = locked.get(kept_id), locked.get(merged_id)
        if kept is None or merged is None:
            raise MergeRefused(gettext_noop("This player was merged or removed meanwhile."))
        refusals = merge_refusals(kept, merged)
        if refusals:
            raise MergeRefused(refusals[0])
        events = _events_of(kept, merged)
        played = set(
            GameSeat.objects.filter(player=merged).values_list("game__session__event_id", flat=True)
        )
        for model in DERIVED:
            model.objects.filter(player=merged).delete()
        for rel in _relations():
            rel.related_model.objects.filter(**{rel.field.name: merged}).update(
                **{rel.field.name: kept}
            )
        login = merged.user_id if not kept.user_id else None
        fields = [name for name in DETAILS if getattr(merged, name) and not getattr(kept, name)]
        for name in fields:
            setattr(kept, name, getattr(merged, name))
        kept.real_name_shown = max(
            kept.real_name_shown, merged.real_name_shown, key=STRICTNESS.index
        )
        PlayerAlias.objects.create(player=kept, name=merged.display_name, former_id=merged.pk)
        # The merged row goes first: its EMA number and login are free for the kept one.
        Player.objects.filter(pk=merged.pk).delete()
        if login:
            kept.user_id = login
        kept.save()
        for event_id in sorted(played):
            totals.rebuild(event_id)
        versions.changed(events, results=True)
    return kept
