"""Ratings across events: making, changing and deleting one, each in one transaction.
A rating stores no values (see `reading.ratings`), so none of these touches a game."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

import ratings as formulas
from scoring.errors import gettext_noop

from ..limits import MAX_RATINGS_PER_ACCOUNT
from ..models import Event, Rating
from ..wording.refusals import Refusal


class RatingRefused(Refusal):
    """A rating this account may not make; the message says why."""


@transaction.atomic
def save_rating(
    rating: Rating | None,
    *,
    user,
    name: str,
    formula: str,
    reckoning_date,
    best_of: int | None,
    events: Iterable[Event],
    is_public: bool,
) -> Rating:
    """Make a rating (`rating` None) for `user`, or change one; a new rating (or a changed
    formula) pins the current version of its formula's rules."""
    if rating is None:
        made = Rating.objects.select_for_update().filter(created_by=user)
        if len(made) >= MAX_RATINGS_PER_ACCOUNT:
            raise RatingRefused(
                gettext_noop("You keep %(most)s ratings already: delete one first."),
                most=MAX_RATINGS_PER_ACCOUNT,
            )
        rating = Rating(created_by=user)
    if rating.pk is None or rating.formula != formula:
        rating.formula_version = formulas.VERSIONS[formula]
    rating.name = name
    rating.formula = formula
    rating.reckoning_date = reckoning_date
    rating.best_of = best_of if formula == Rating.Formula.BEST_N else None
    rating.is_public = is_public
    rating.save()
    rating.events.set(list(events))
    return rating


@transaction.atomic
def delete_rating(rating: Rating) -> None:
    rating.delete()
