"""Ratings across events: the list, a rating's table, a player's trace in it, and the
maker's form to make, change or delete one. Values come from `reading.ratings`."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import access
from ..forms.ratings import RatingForm
from ..models import Player, Rating
from ..reading import ratings as reading
from ..services.ratings import RatingRefused, delete_rating, save_rating

# The ratings list shows at most this many (the newest reckoning first).
LIST_LIMIT = 200


def _rating_for_reader(request: HttpRequest, pk: int) -> Rating:
    rating = reading.readable_ratings(request).filter(pk=pk).first()
    if rating is None:
        raise Http404(_("There is no such rating."))
    return rating


def _rating_for_maker(request: HttpRequest, pk: int) -> Rating:
    """The rating, for its maker (or a superuser); anyone else who may read it is refused,
    and it is not there for anyone who may not."""
    rating = _rating_for_reader(request, pk)
    if rating.created_by_id != request.user.pk and not request.user.is_superuser:
        raise PermissionDenied(_("Only the one who made this rating can change it."))
    return rating


@access.anyone
def rating_list(request: HttpRequest) -> HttpResponse:
    shown = list(reading.readable_ratings(request)[:LIST_LIMIT])
    return render(
        request,
        "tournaments/ratings.html",
        {"ratings": shown, "limited": len(shown) == LIST_LIMIT},
    )


def _save(request: HttpRequest, rating: Rating | None, form: RatingForm) -> HttpResponse | None:
    if not form.is_valid():
        return None
    data = form.cleaned_data
    try:
        saved = save_rating(
            rating,
            user=request.user,
            name=data["name"],
            formula=data["formula"],
            reckoning_date=data["reckoning_date"],
            best_of=data.get("best_of"),
            events=data["events"],
            is_public=data["is_public"],
        )
    except RatingRefused as err:
        form.add_error(None, str(err))
        return None
    return redirect(saved)


@access.signed_in
def rating_create(request: HttpRequest) -> HttpResponse:
    events = access.readable_events(request)
    form = RatingForm(request.POST or None, events=events)
    if request.method == "POST":
        done = _save(request, None, form)
        if done:
            return done
    return render(request, "tournaments/rating_form.html", {"form": form, "rating": None})


@access.signed_in
def rating_edit(request: HttpRequest, pk: int) -> HttpResponse:
    rating = _rating_for_maker(request, pk)
    initial = {
        "name": rating.name,
        "formula": rating.formula,
        "best_of": rating.best_of,
        "reckoning_date": rating.reckoning_date,
        "events": list(rating.events.values_list("pk", flat=True)),
        "is_public": rating.is_public,
    }
    events = access.readable_events(request)
    form = RatingForm(request.POST or None, initial=initial, events=events)
    if request.method == "POST":
        done = _save(request, rating, form)
        if done:
            return done
    return render(request, "tournaments/rating_form.html", {"form": form, "rating": rating})


@require_POST
@access.signed_in
def rating_delete(request: HttpRequest, pk: int) -> HttpResponse:
    rating = _rating_for_maker(request, pk)
    delete_rating(rating)
    messages.success(request, _("The rating is deleted."))
    return redirect("tournaments:ratings")


@access.anyone
def rating_detail(request: HttpRequest, pk: int) -> HttpResponse:
    rating = _rating_for_reader(request, pk)
    values = reading.summary(rating)
    context = {
        "rating": rating,
        "table": values,
        "events": sorted(values.events.values(), key=lambda event: (event.played, event.pk)),
        "is_maker": request.user.is_authenticated
        and (rating.created_by_id == request.user.pk or request.user.is_superuser),
    }
    return render(request, "tournaments/rating_detail.html", context)


@access.anyone
def rating_player(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    rating = _rating_for_reader(request, pk)
    values = reading.table(rating)
    row = values.row_of(player_id)
    if row is None:
        raise Http404(_("This player has no results in this rating."))
    player = get_object_or_404(Player, pk=player_id)
    context = {
        "rating": rating,
        "table": values,
        "row": row,
        "player": player,
        "lines": reading.trace_lines(rating, values, row),
    }
    return render(request, "tournaments/rating_player.html", context)
