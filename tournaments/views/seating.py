"""Seating a session from the roster, and the seating list players find their seat on."""

from __future__ import annotations

import json
import random

from django.contrib import messages
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

import seating

from .. import access, limits, seat_plans, services, versions
from ..forms.seating import SeatingConfirmForm, SeatingForm
from ..models import WINDS, Game, GameSeat, LineUp, Session, TableLink, Team
from ..reading.stages import stage_of_session
from ..reading.teams import lineups_open
from ..trail import Actor
from ..wording.refusals import say
from .tables_links import link_context


def _default_rounds(session) -> int:
    return max(session.event.sessions.count(), session.number)


def _initial(session) -> dict:
    """The form's first values: the rounds ahead, and a stage's own seating method."""
    initial = {"rounds": _default_rounds(session)}
    stage = stage_of_session(session.event, session.number)
    if stage is not None and stage.seating_method:
        initial["method"] = stage.seating_method
    return initial


def _wants_fill(request: HttpRequest) -> bool:
    return request.method == "POST" and request.POST.get("fill") in ("on", "1", "True", "true")


@access.organiser_session
def seat_players(request: HttpRequest, session: Session) -> HttpResponse:
    """Choose a method, see the tables with their repeat counts, then create the games.
    Once check-in has begun, the players present are seated; substitutes of the pool fill
    a short table when the director asks."""
    players = seat_plans.playing(session)
    size = session.event.player_count
    has_results = services.session_has_results(session)
    fill = _wants_fill(request)
    free = seat_plans.free_substitutes(session)
    # Whom a plan may seat: with "fill", any free substitute too (a fixed plan names them).
    seatable = sorted(players + free, key=lambda p: p.pk) if fill else players
    context = {
        "event": session.event,
        "session": session,
        "players": players,
        "has_results": has_results,
        "already_seated": session.games.exists(),
        "table_size": size,
        "check_in": seat_plans.check_in_count(session),
        "free_substitutes": free,
        "team_lineups": _team_lineups(session),
    }
    if request.method == "POST" and "confirm" in request.POST:
        confirm = SeatingConfirmForm(
            request.POST, player_ids=[p.pk for p in seatable], table_size=size
        )
        if confirm.is_valid():
            try:
                games = services.seat_session(
                    session.pk,
                    confirm.cleaned_data["plan"],
                    actor=Actor.of(request.user),
                    entry_mode=confirm.cleaned_data["entry_mode"],
                )
            except services.GameChangeRefused as err:
                messages.error(request, str(err))
            else:
                messages.success(
                    request,
                    ngettext(
                        "Session %(number)s is seated at %(count)s table.",
                        "Session %(number)s is seated at %(count)s tables.",
                        len(games),
                    )
                    % {"number": session.number, "count": len(games)},
                )
                return redirect("tournaments:seating_list", session.event.slug, session.number)
        else:
            messages.error(
                request, " ".join(str(e) for errors in confirm.errors.values() for e in errors)
            )
    form = SeatingForm(
        request.POST if request.method == "POST" and "preview" in request.POST else None,
        request.FILES or None,
        players=seatable,
        table_size=size,
        initial=_initial(session),
    )
    context["form"] = form
    waiting = seat_plans.awaiting_cut(session)
    if session.event.team_event and lineups_open(session, timezone.now()):
        # Seating shows who plays: the line-ups would be out before their deadline.
        context["refusal"] = _(
            "Captains may send line-ups for session %(number)s until %(deadline)s: seat it "
            "after the deadline, or clear the deadline on the line-ups page."
        ) % {
            "number": session.number,
            "deadline": date_format(timezone.localtime(session.lineup_deadline), "DATETIME_FORMAT"),
        }
    elif waiting is not None:
        context["refusal"] = _(
            "Session %(number)s belongs to %(stage)s, which nobody has entered yet: cut to "
            "it on its stage page first."
        ) % {"number": session.number, "stage": waiting.name}
    elif has_results:
        context["refusal"] = _(
            "Session %(number)s has results entered already, so it cannot be seated "
            "again. Seat a new session, or delete its hands and final scores first."
        ) % {"number": session.number}
    elif len(seatable) < size:
        refusal = (
            _(
                "%(count)s player(s) on the roster take part in session %(number)s; "
                "a plan needs at least 4. Add players on the roster page."
            )
            if size == 4
            else _(
                "%(count)s player(s) on the roster take part in session %(number)s; a plan of "
                "this three-player event needs at least 3. Add players on the roster page."
            )
        )
        context["refusal"] = refusal % {"count": len(seatable), "number": session.number}
    elif form.is_bound and form.is_valid() and not _too_large_for_the_page(form, session):
        data = form.cleaned_data
        to_seat = players
        if data["method"] == "fixed":
            typed = {p.pk for table in data["fixed"] for p in table}
            to_seat = sorted(players + [p for p in free if p.pk in typed], key=lambda p: p.pk)
        elif data["fill"]:
            to_seat, _added, missing = seat_plans.fill_short_tables(session, players)
            if missing:
                form.add_error(
                    "fill",
                    ngettext(
                        "The last table is short of %(missing)s player, but the substitute "
                        "pool has %(free)s free: add substitutes on the roster page, or "
                        "untick this box to let players sit out.",
                        "The last table is short of %(missing)s players, but the substitute "
                        "pool has %(free)s free: add substitutes on the roster page, or "
                        "untick this box to let players sit out.",
                        missing,
                    )
                    % {"missing": missing, "free": len(free)},
                )
        if not form.errors:
            try:
                proposal = seat_plans.propose(
                    session,
                    data["method"],
                    rounds=data["rounds"],
                    fixed=data.get("fixed"),
                    seed=random.SystemRandom().randrange(1 << 30),
                    players=to_seat,
                )
            except seating.SeatingError as err:
                form.add_error(None, say(err))
            else:
                context["proposal"] = proposal
                context["plan_json"] = json.dumps(proposal.plan())
                context["entry_mode"] = data["entry_mode"]
                context["fill"] = data["fill"]
                pool = set(session.event.roster.substitutes().values_list("player_id", flat=True))
                context["substitutes_seated"] = [
                    player
                    for table in proposal.tables
                    for _w, player in table.seats
                    if player.pk in pool
                ]
    return render(request, "tournaments/seating_form.html", context)


@require_POST
@access.organiser_game
def game_entry_mode(request: HttpRequest, game: Game) -> HttpResponse:
    """Switch a seated game with nothing entered to hand by hand or final scores only."""
    mode = request.POST.get("entry_mode", "")
    try:
        services.set_entry_mode(game.pk, mode)
    except services.GameChangeRefused as err:
        messages.error(request, str(err))
    else:
        messages.success(
            request,
            _("This game is entered hand by hand now.")
            if mode == Game.EntryMode.HANDS
            else _("This game records its final scores only now."),
        )
    return redirect(game.get_absolute_url())


def _team_lineups(session) -> dict | None:
    """For a team event: how many of its teams sent a line-up for the session."""
    if not session.event.team_event:
        return None
    return {
        "sent": LineUp.objects.filter(session=session).count(),
        "teams": Team.objects.filter(event_id=session.event_id).count(),
    }


def _too_large_for_the_page(form: SeatingForm, session) -> bool:
    """Refuse, on the form, a balanced plan too large to make within a request."""
    data = form.cleaned_data
    players = len(form.players)
    rounds = max(data["rounds"], session.number)
    if data["method"] != "balanced" or players * rounds <= limits.MAX_PAGE_SEATINGS:
        return False
    form.add_error(
        "rounds",
        _(
            "A balanced plan for %(players)s players over %(rounds)s rounds is too large to "
            "make here (at most %(limit)s players × rounds). Make it on the command line with "
            "“python manage.py seating_plan --players %(players)s --rounds %(rounds)s”, then "
            "seat each session with the fixed method; or plan fewer rounds here."
        )
        % {"players": players, "rounds": rounds, "limit": f"{limits.MAX_PAGE_SEATINGS:,}"},
    )
    return True


@access.readable_session
def seating_list(request: HttpRequest, session: Session) -> HttpResponse:
    """Where everyone sits: by table, and by name A-Z with the table and wind."""
    is_organiser = access.organises(request, session.event_id)

    def build() -> str:
        # Only organisers see table links: a code lets its holder enter the table's hands.
        links = TableLink.objects.live().filter(game__session=session) if is_organiser else []
        return render_to_string(
            "tournaments/partials/seating_lists.html",
            _seating_lists(request, session, list(links)),
            request,
        )

    # The lists are rendered once for each play version of the event (seats, games, the
    # roster and table links), for readers, and for organisers with the live table links.
    lists = versions.cached(
        "seating",
        session.event,
        versions.PLAY,
        build,
        parts=(session.pk, is_organiser, request.build_absolute_uri("/") if is_organiser else ""),
    )
    context = {
        "event": session.event,
        "session": session,
        "is_organiser": is_organiser,
        "seat_url": reverse("tournaments:seat_players", args=[session.event.slug, session.number]),
        "lists": lists,
    }
    return render(request, "tournaments/seating_list.html", context)


def _seating_lists(request: HttpRequest, session, links: list[TableLink]) -> dict:
    # A club table may play several games in a session: its first game says where its
    # players sit down.
    games = list(
        {
            game.table_number: game
            for game in reversed(
                session.games.order_by("table_number", "pk").prefetch_related(
                    Prefetch("seats", queryset=GameSeat.objects.select_related("player"))
                )
            )
        }.values()
    )
    games.sort(key=lambda game: game.table_number)
    by_name = sorted(
        (
            {"player": seat.player, "table": game.table_number, "wind": WINDS[seat.seat]}
            for game in games
            for seat in game.seats.all()
        ),
        key=lambda row: (row["player"].display_name.casefold(), row["table"]),
    )
    live = {link.game_id: link for link in links}
    for game in games:
        game.table_link = link_context(request, live.get(game.pk), scale=3)
    seated = {row["player"].pk for row in by_name}
    sitting_out = [p for p in seat_plans.playing(session) if p.pk not in seated] if games else []
    return {
        # The header's winds: East to West only in a three-player event.
        "winds": WINDS[: session.event.player_count],
        "games": games,
        "by_name": by_name,
        "sitting_out": sorted(sitting_out, key=lambda p: p.display_name.casefold()),
    }
