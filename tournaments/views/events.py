"""Events, sessions, players and setting up games.

Who may read or write is decided by `access` alone; writes that touch a game's outcome
go through `services`, so that the game is replayed in the same transaction.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from django.contrib import messages
from django.db import IntegrityError, transaction
from django.db.models import Case, Count, Exists, OuterRef, Prefetch, Q, When
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

import scoring
from scoring.rules import PRESET_SOURCES

from .. import access, charts, limits, pagecache, services, totals, trail, versions
from ..forms import EventCreateForm, EventForm, GameForm, PlayerForm, RulesForm, SessionForm
from ..limits import MAX_PLAYER_GAME_PAGES
from ..models import WINDS, Event, Game, GameSeat, Player, PlayerAlias, Rating, Session
from ..reading import ema, ratings
from ..reading.placement import final_places
from ..standings import StandingsRow, player_totals
from ..statistics import DEFINITIONS, player_statistics
from ..tables import (
    BoundedRequestConfig,
    CountedRows,
    EventTable,
    GameTable,
    PlayerGamesTable,
    PlayerTable,
    SessionTable,
)
from ..trail import Actor, Kind
from ..wording.refusals import say
from ..wording.rules import PRESET_DESCRIPTIONS, describe_rules, rules_for_reading
from . import room
from .rounds import clock_context

# Events


@access.anyone
def home(request: HttpRequest) -> HttpResponse:
    # distinct: visible_to joins the organisers, which would count each session per
    # organiser of a public event.
    events = Event.objects.visible_to(request.user).annotate(
        session_count=Count("sessions", distinct=True)
    )
    organised = Event.objects.organised_by(request.user).values_list("pk", flat=True)
    table = EventTable(events, organised=set(organised))
    BoundedRequestConfig(request, paginate={"per_page": 50}).configure(table)
    return render(request, "tournaments/home.html", {"table": table})


@access.signed_in
def event_create(request: HttpRequest) -> HttpResponse:
    initial = {"organisers": [request.user.pk], "starts_on": timezone.localdate()}
    # The log import links here with the preset of a log it had to refuse.
    if request.GET.get("rules_preset") in scoring.PRESETS:
        initial["rules_preset"] = request.GET["rules_preset"]
    form = EventCreateForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            event = form.save()
            event.organisers.add(request.user)
            sessions = form.save_sessions(event)
        if sessions:
            message = ngettext(
                "%(event)s created with %(count)s session.",
                "%(event)s created with %(count)s sessions.",
                len(sessions),
            ) % {"event": event, "count": len(sessions)}
        else:
            message = _("%(event)s created. Add its first session when you are ready.") % {
                "event": event
            }
        messages.success(request, message)
        return redirect(event)
    return render(request, "tournaments/event_form.html", {"form": form, "event": None})


@access.readable_event(visitor=True)
def event_detail(request: HttpRequest, event: Event) -> HttpResponse:
    # The visitor's own registration, if any (its id is read with the event).
    own = getattr(event, "own_registration_id", None)
    if own is not None:
        own = event.registrations.select_related("player").filter(pk=own).first()
    is_organiser = access.organises(request, event.pk)

    def games_part() -> str:
        sessions = event.sessions.annotate(
            game_count=Count("games"),
            finished_count=Count("games", filter=Q(games__status=Game.Status.FINISHED)),
        )
        players = (
            Player.objects.filter(seats__game__session__event=event)
            .distinct()
            .order_by("display_name")
        )
        context = {"sessions_table": SessionTable(sessions), "players": players}
        return render_to_string("tournaments/partials/event_games.html", context, request)

    def context() -> dict:
        # Sessions, their games and the players, the same for every reader: rendered once
        # for each play version (which follows games, seats and sessions).
        games_html = versions.cached("event-games", event, versions.PLAY, games_part)
        try:
            rules_words = describe_rules(event.rules_preset, event.rules_overrides)
        except scoring.ScoringError as err:
            rules_words = _("%(preset)s (the stored options are not valid: %(reason)s)") % {
                "preset": event.rules_preset,
                "reason": say(err),
            }
        # The MERS weight of a tournament: read from its final placement, kept with the
        # games part (the play version follows results and sessions alike).
        weight = None
        if event.kind == Event.Kind.TOURNAMENT:
            weight = versions.cached(
                "mers-weight",
                event,
                versions.PLAY,
                lambda: ema.event_weight(event),
                query=f"qualification={event.ema_qualification}",
            )
        return {
            "event": event,
            "is_organiser": is_organiser,
            "games_part": games_html,
            "weight": weight,
            "rules_words": rules_words,
            "preset_description": PRESET_DESCRIPTIONS.get(event.rules_preset, ""),
            "own_registration": own,
        }

    mine = own and (own.pk, own.status, own.player.display_name)
    return versions.page(
        request,
        "event",
        event,
        versions.PLAY,
        "tournaments/event_detail.html",
        context,
        parts=(is_organiser, mine),
    )


@access.organiser_event
def event_edit(request: HttpRequest, event: Event) -> HttpResponse:
    form = EventForm(request.POST or None, instance=event)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            event = form.save()
            if "substitute_rule" in form.changed_data:
                # The replaced players' games count differently: the standings change.
                totals.results_changed(event.pk)
        messages.success(request, _("%(event)s saved.") % {"event": event})
        # Asked again, not from what this request read before the change of organisers.
        if not event.is_public and not event.is_organiser(request.user):
            # The editor handed the event over; a private event is no longer theirs to see.
            return redirect("tournaments:home")
        return redirect(event)
    return render(request, "tournaments/event_form.html", {"form": form, "event": event})


@access.readable_event(organiser_posts=True)
def event_rules(request: HttpRequest, event: Event) -> HttpResponse:
    """The event's rules in words for anyone who may read the event; below them, the
    form that changes them for its organisers."""
    is_organiser = access.organises(request, event.pk)
    form = None
    if is_organiser:
        initial = RulesForm.initial_for(event)
        # The log import links here with the preset of a log it had to refuse.
        if request.GET.get("preset") in scoring.PRESETS:
            initial["preset"] = request.GET["preset"]
        form = RulesForm(request.POST or None, event=event, initial=initial)
    if form is not None and request.method == "POST" and form.is_valid():
        try:
            change = services.change_event_rules(
                event.pk,
                form.cleaned_data["preset"],
                form.cleaned_data["overrides"],
                actor=Actor.of(request.user),
            )
        except services.GameChangeRefused as err:
            form.add_error(None, _("Nothing was changed. %(reason)s") % {"reason": err})
        else:
            messages.success(request, _rules_message(change))
            return redirect(event)
    try:
        groups = rules_for_reading(event.rules_preset, event.rules_overrides)
    except scoring.ScoringError:
        groups = []
    context = {
        "event": event,
        "form": form,
        "is_organiser": is_organiser,
        "rule_groups": groups,
        # The title of the preset's source document, as that document names itself.
        "source": PRESET_SOURCES.get(event.rules_preset, ""),
        "changed_count": len(event.rules_overrides),
        "game_count": Game.objects.filter(session__event=event).count() if is_organiser else 0,
    }
    return render(request, "tournaments/event_rules.html", context)


def _rules_message(change: services.RulesChange) -> str:
    if not change.games:
        return _("Rules saved. There are no games to re-score yet.")
    saved = ngettext(
        "Rules saved. %(count)s game re-scored; %(changed)s changed",
        "Rules saved. %(count)s games re-scored; %(changed)s changed",
        change.games,
    ) % {"count": change.games, "changed": change.changed}
    if not change.reopened:
        return pgettext("rules saved", "%(saved)s.") % {"saved": saved}
    reopened = ngettext(
        "%(count)s reopened because it is no longer over",
        "%(count)s reopened because they are no longer over",
        change.reopened,
    ) % {"count": change.reopened}
    return pgettext("rules saved", "%(saved)s; %(reopened)s.") % {
        "saved": saved,
        "reopened": reopened,
    }


# Sessions


@access.organiser_event
def session_create(request: HttpRequest, event: Event) -> HttpResponse:
    initial = {"number": event.sessions.next_number(), "date": timezone.localdate()}
    form = SessionForm(request.POST or None, event=event, initial=initial)
    if request.method == "POST" and form.is_valid():
        session = _save_session(form)
        if session is not None:
            messages.success(request, _("Session %(number)s created.") % {"number": session.number})
            return redirect(session)
    context = {"event": event, "form": form, "session": None}
    return render(request, "tournaments/session_form.html", context)


@access.organiser_session
def session_edit(request: HttpRequest, session: Session) -> HttpResponse:
    form = SessionForm(request.POST or None, event=session.event, instance=session)
    if request.method == "POST" and form.is_valid():
        saved = _save_session(form)
        if saved is not None:
            messages.success(request, _("Session %(number)s saved.") % {"number": saved.number})
            return redirect(saved)
    context = {"event": session.event, "form": form, "session": session}
    return render(request, "tournaments/session_form.html", context)


def _save_session(form: SessionForm) -> Session | None:
    """Save, or put the refusal on the number field if someone took the number meanwhile."""
    try:
        with transaction.atomic():
            return form.save()
    except IntegrityError:
        form.add_error("number", _("Someone else just created a session with this number."))
        return None


@access.readable_session
def session_detail(request: HttpRequest, session: Session) -> HttpResponse:
    is_organiser = access.organises(request, session.event_id)
    games = session.games.prefetch_related(
        Prefetch("seats", queryset=GameSeat.objects.select_related("player"))
    )
    if is_organiser:  # each table's phone: its last contact and the hands waiting on it
        games = games.select_related("phone_contact")
    games = list(games)
    context = {
        "event": session.event,
        "session": session,
        "is_organiser": is_organiser,
        "table": _games_table(games, session.event, organiser=is_organiser, now=timezone.now()),
        "clock": clock_context(session),
        "signal": room.signal_context(session),
        "calls": room.open_calls(session),
        "quick_minutes": room.QUICK_MINUTES,
        "signal_max_minutes": limits.SIGNAL_MAX_MINUTES,
        "unfinished": any(
            g.status == Game.Status.IN_PROGRESS and g.entry_mode == Game.EntryMode.HANDS
            for g in games
        ),
    }
    return render(request, "tournaments/session_detail.html", context)


# Games


@access.organiser_session
def game_create(request: HttpRequest, session: Session) -> HttpResponse:
    form = GameForm(request.POST or None, session=session, user=request.user)
    if request.method == "POST" and form.is_valid():
        players = form.players()
        if form.cleaned_data["random_seats"]:
            random.SystemRandom().shuffle(players)
        try:
            game = services.create_game(
                session,
                players,
                table_number=form.cleaned_data["table_number"],
                entry_mode=form.cleaned_data["entry_mode"],
                substitutes=_substitute_seats(form, players),
                actor=Actor.of(request.user),
            )
        except services.GameChangeRefused as err:
            form.add_error(None, str(err))
        else:
            seating = ", ".join(
                f"{wind} {player}" for wind, player in zip(WINDS, players, strict=False)
            )
            messages.success(
                request,
                _("Table %(table)s created: %(seating)s.")
                % {"table": game.table_number, "seating": seating},
            )
            return redirect(game)
    context = {"event": session.event, "session": session, "form": form, "game": None}
    return render(request, "tournaments/game_form.html", context)


@access.organiser_game
def game_edit(request: HttpRequest, game: Game) -> HttpResponse:
    session = game.session
    form = GameForm(request.POST or None, session=session, user=request.user, game=game)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                before = _seating(game)
                services.reseat_game(
                    game.pk, form.players(), table_number=form.cleaned_data["table_number"]
                )
                services.set_substitutes(game.pk, form.cleaned_data["substitutes"])
                after = _seating(game)
                if before != after:
                    trail.write(
                        Kind.SEATS_CHANGED,
                        actor=Actor.of(request.user),
                        game=game,
                        before=before,
                        after=after,
                    )
        except IntegrityError:
            form.add_error(
                None,
                _(
                    "Nothing was changed: someone seated one of these players or this table "
                    "meanwhile. Check the session's tables and try again."
                ),
            )
        except services.GameChangeRefused as err:
            form.add_error(None, _("Nothing was changed. %(reason)s") % {"reason": err})
        else:
            messages.success(
                request,
                _("Table %(table)s saved.") % {"table": form.cleaned_data["table_number"]},
            )
            return redirect(game)
    context = {"event": session.event, "session": session, "form": form, "game": game}
    return render(request, "tournaments/game_form.html", context)


def _seating(game: Game) -> dict[str, Any]:
    seats = GameSeat.objects.filter(game=game).select_related("player").order_by("seat")
    return {
        "table": Game.objects.values_list("table_number", flat=True).get(pk=game.pk),
        # Stored in the trail as written, so in one language for all its readers.
        "seats": [
            s.player.display_name + (" (substitute)" if s.is_substitute else "") for s in seats
        ],
    }


def _substitute_seats(form: GameForm, players: list[Player]) -> list[int]:
    """The seats of the players ticked as substitutes, after any random seat draw."""
    chosen = {form.players()[seat].pk for seat in form.cleaned_data["substitutes"]}
    return [seat for seat, player in enumerate(players) if player.pk in chosen]


# Players


@access.anyone
def player_list(request: HttpRequest) -> HttpResponse:
    readable = Event.objects.visible_to(request.user)
    query = " ".join(request.GET.get("q", "").split())[:60]
    found = access.visible_players(request.user)
    if query:
        # A merged player's old name is an alias of the kept one: the search finds it.
        matching = Q(display_name__icontains=query) | Q(aliases__name__icontains=query)
        found = found.filter(pk__in=Player.objects.filter(matching).values("pk"))
    players = found.filter(active=True).annotate(
        games_played=Count("seats", filter=Q(seats__game__session__event__in=readable.values("pk")))
    )
    table = PlayerTable(players)
    BoundedRequestConfig(request, paginate={"per_page": 100}).configure(table)
    return render(request, "tournaments/player_list.html", {"table": table, "query": query})


@access.signed_in
def player_create(request: HttpRequest) -> HttpResponse:
    form = PlayerForm(request.POST or None, known=access.visible_players(request.user))
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                player = form.save(commit=False)
                player.display_name = services.free_name(player.display_name)
                player.save()
        except IntegrityError:
            form.add_error("display_name", _("Someone else just added a player with this name."))
        else:
            messages.success(request, _("%(player)s added.") % {"player": player})
            return redirect(player)
    return render(request, "tournaments/player_form.html", {"form": form})


@access.player_editor
def player_edit(request: HttpRequest, player: Player) -> HttpResponse:
    """A player's names, EMA number and country, for the organisers of an event they
    played in and their own login."""
    form = PlayerForm(
        request.POST or None,
        instance=player,
        known=access.visible_players(request.user),
        privacy=access.may_choose_privacy(request.user, player),
    )
    if request.method == "POST" and form.is_valid():
        try:
            player = services.save_player(form.save(commit=False))
        except IntegrityError:
            form.add_error(
                None, _("Someone else just gave this name or EMA number to another player.")
            )
        else:
            messages.success(request, _("%(player)s saved.") % {"player": player})
            return redirect(player)
    return render(request, "tournaments/player_form.html", {"form": form, "player": player})


def _player_totals(player: Player, seats) -> StandingsRow:
    """Games, match points, average placement and places of finished seats, counted as
    the standings count them."""
    return player_totals(player.pk, player.display_name, seats)


def _games_table(games, event: Event, *, organiser: bool, now=None) -> GameTable:
    """A session's games, with no North column at a three-player event."""
    table = GameTable(games, organiser=organiser, now=now)
    if event.player_count == 3:
        table.columns.hide("north")
    return table


PLACES_LABEL = {3: gettext_lazy("1st–2nd–3rd"), 4: gettext_lazy("1st–2nd–3rd–4th")}


def _places_shown(events: list[Event]) -> int:
    """How many places a player's page counts for these events: three when every one of
    them is a three-player event, else four (a three-player event's 4th places are 0)."""
    return 3 if events and all(event.player_count == 3 for event in events) else 4


# A chart drawn for a 390 px phone: its words stay readable and its last game in view.
PHONE_CHART_WIDTH = 360


# A player's other names shown under their name (a person merged more often is rare).
MAX_ALIASES_SHOWN = 10


# A player's events, newest first, a page at a time: a club's regular plays one a week.
PLAYER_EVENTS_PER_PAGE = 20


# A player's games, newest first, a page at a time: a league's regular plays hundreds. As
# many games as a page of results shows; rendering the rows is most of the page's first
# view after a change.
PLAYER_GAMES_PER_PAGE = 25


@access.anyone
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    # Read with the player: whether they have merged names, and whether the site has any
    # rating at all (a finer test, over the player's events, costs PostgreSQL more to plan
    # than the ratings' own query), so that a page with neither reads neither.
    player = (
        Player.objects.filter(pk=pk)
        .annotate(
            has_aliases=Exists(PlayerAlias.objects.filter(player=OuterRef("pk"))),
            any_rating=Exists(Rating.events.through.objects.all()),
        )
        .first()
    )
    if player is None:
        # A player merged into another: their old address leads to the one they became.
        alias = get_object_or_404(PlayerAlias, former_id=pk)
        return redirect("tournaments:player", alias.player_id)
    chosen = None
    if request.GET.get("event"):
        # A private event is not there for those who may not read it: 404, as everywhere.
        chosen = access.get_event_for_reader(request, request.GET["event"])
    states = access.readable_versions(request)
    # The record shows the player in the events this reader may read, and changes with any
    # of them: a new game of the player's, like any change of play, replaces the event's
    # play version. So the record is rendered once for each play version of those events.
    request.GET = pagecache.only(
        request.GET,
        {
            "event": lambda slug: chosen.slug if chosen else None,
            "page": pagecache.whole_number(1, MAX_PLAYER_GAME_PAGES),
            "events": pagecache.whole_number(1, MAX_PLAYER_GAME_PAGES),
        },
    )
    record = pagecache.cached(
        "player",
        (player.pk, player.display_name, request.GET.urlencode(), states),
        lambda: _player_record(request, player, chosen, access.readable_events(request)),
    )
    # A player seated in an event this reader may read is known to them; anyone else is
    # checked in full (roster places, players with no games yet, the reader's own).
    if not record["events"] and not access.may_know(request.user, player):
        raise Http404("No such player.")
    organised = access.organised_ids(request)
    organises_one = bool(record["events"]) and (
        organised is None or not organised.isdisjoint(record["events"])
    )
    # `access.may_link_login`, known without asking the database: the record's events are
    # every readable event the player played in, and an organiser reads their own events.
    may_link = request.user.is_authenticated and (request.user.is_superuser or organises_one)
    context = {
        "player": player,
        "chosen": chosen,
        "show_real_name": access.may_see_real_name(request.user, player),
        "aliases": list(player.aliases.values_list("name", flat=True)[:MAX_ALIASES_SHOWN])
        if player.has_aliases
        else [],
        "can_merge": may_link,
        "may_choose_privacy": access.may_choose_privacy(request.user, player),
        "can_link": may_link or access.may_unlink_login(request.user, player),
        "record_html": record["html"],
        # Read fresh: a rating follows events of its own choosing. The page reads with the
        # player whether the site has any rating at all.
        "held": ratings.held_by(request, player) if player.any_rating else [],
    }
    # Kept whole under all it shows: the player as read, the versions of the events the
    # record follows, the chosen event as read and what this reader may do.
    shown = (
        pagecache.row(player),
        states,
        chosen and versions.shown(chosen),
        *(context[name] for name in ("show_real_name", "aliases", "can_merge")),
        *(context[name] for name in ("may_choose_privacy", "can_link")),
        [(one.rating.pk, one.rating.name, one.place, one.value) for one in context["held"]],
        # The login a player is linked to, named to those who may link one.
        player.user.get_username() if context["can_link"] and player.user_id else None,
    )
    return pagecache.page(
        request,
        "player",
        shown,
        "tournaments/player_detail.html",
        lambda: context,
        query=request.GET.urlencode(),
    )


def _placed(event: Event, player: Player) -> dict[str, Any] | None:
    """The player's place in the event's final ranking and how many are ranked; None
    while a stage hides the totals (from everyone here: this part of the page is the same
    for every reader) or when the ranking does not hold the player."""
    if event.totals_hidden:
        return None
    # Worked out once for each results version of the event, for every player in it.
    places = versions.cached("places", event, versions.RESULTS, lambda: _places(event))
    place = places["players"].get(player.pk)
    if place is None:
        return None
    return {"place": place[0], "shared": place[1], "of": places["count"]}


def _places(event: Event) -> dict[str, Any]:
    places = final_places(event)
    return {"count": len(places), "players": places}


# What the player page's table reads of each seat it shows, with its game, session and
# event: a page of rows at a time.
PLAYER_SEAT_FIELDS = (
    *("seat", "score", "placement", "match_points", "penalty_points", "player_id"),
    *("game__status", "game__table_number", "game__entry_mode"),
    *("game__session__date", "game__session__number", "game__session__event_id"),
)


@dataclasses.dataclass(frozen=True, slots=True)
class _Seat:
    """What the totals, the events and the chart count of one of the player's seats."""

    event_id: int
    finished: bool
    score: int | None
    placement: int | None
    match_points: Any
    penalty_points: Any


def _player_record(request, player: Player, chosen: Event | None, readable) -> dict[str, Any]:
    """The player's events, totals, chart, statistics and games as the page shows them
    (`html`), and the ids of the events this reader may read that the player played in
    (`events`)."""
    own = GameSeat.objects.filter(player=player, game__session__event__in=readable.values("pk"))
    # Every readable seat of the player as numbers, in the order the games were played:
    # the event list, totals and chart are made from them; the table reads a page of rows.
    seats = [
        _Seat(event_id, status == Game.Status.FINISHED, *numbers)
        for event_id, status, *numbers in own.order_by(
            "game__session__date", "game__session__number", "game__table_number", "game"
        ).values_list(
            "game__session__event_id",
            "game__status",
            *("score", "placement", "match_points", "penalty_points"),
        )
    ]
    by_event: dict[int, list[_Seat]] = {}
    for seat in seats:
        by_event.setdefault(seat.event_id, []).append(seat)
    known = Event.objects.in_bulk(list(by_event))
    events = sorted(
        (
            {
                "event": known[event_id],
                "chosen": chosen is not None and event_id == chosen.pk,
                "in_progress": sum(not s.finished for s in event_seats),
                "totals": _player_totals(player, [s for s in event_seats if s.finished]),
            }
            for event_id, event_seats in by_event.items()
        ),
        key=lambda row: (-row["event"].starts_on.toordinal(), row["event"].name),
    )
    places = _places_shown([row["event"] for row in events])
    for row in events:
        row["places"] = row["totals"].placement_counts[:places]
    # The events a page at a time, newest first; the place in each is worked out for the
    # page's events only.
    event_pages = max(1, -(-len(events) // PLAYER_EVENTS_PER_PAGE))
    events_page = min(int(request.GET.get("events", 1)), event_pages)
    start = (events_page - 1) * PLAYER_EVENTS_PER_PAGE
    events_shown = events[start : start + PLAYER_EVENTS_PER_PAGE]
    for row in events_shown:
        row["placed"] = _placed(row["event"], player)
    # The record below counts the places of the event chosen, or of every event.
    shown_places = _places_shown([chosen]) if chosen else places
    shown = by_event.get(chosen.pk, []) if chosen else seats
    player_stats = player_statistics(
        player, Event.objects.filter(pk=chosen.pk) if chosen else readable
    )
    if player_stats is not None and shown_places == 3:
        # No bar for a 4th place nobody can take at a table of three.
        player_stats = dataclasses.replace(player_stats, places=player_stats.places[:3])
    finished = [seat for seat in shown if seat.finished]
    # Finished games first, newest first; then the games still going on, newest first.
    rows = (own.filter(game__session__event=chosen) if chosen else own).order_by(
        Case(When(game__status=Game.Status.FINISHED, then=0), default=1),
        *("-game__session__date", "-game__session__number", "-game__table_number", "-game"),
    )
    rows = rows.select_related("game__session__event").only(
        *PLAYER_SEAT_FIELDS, *(f"game__session__event__{f}" for f in ("name", "slug"))
    )
    table = PlayerGamesTable(CountedRows(rows, len(shown)))
    BoundedRequestConfig(request, paginate={"per_page": PLAYER_GAMES_PER_PAGE}).configure(table)
    totals = _player_totals(player, finished)
    overall = _player_totals(player, [s for s in seats if s.finished])
    context = {
        "player": player,
        "chosen": chosen,
        "events": events_shown,
        "events_count": len(events),
        "events_page": events_page,
        "events_pages": event_pages,
        "totals": totals,
        "totals_places": totals.placement_counts[:shown_places],
        "overall": overall,
        "overall_places": overall.placement_counts[:places],
        # The words over the places: "1st–2nd–3rd–4th", or three of them.
        "places_label": PLACES_LABEL[places],
        "shown_places_label": PLACES_LABEL[shown_places],
        "chart": charts.cumulative_chart([seat.match_points for seat in finished]),
        "chart_phone": charts.cumulative_chart(
            [seat.match_points for seat in finished], width=PHONE_CHART_WIDTH
        ),
        "table": table,
        "stats": player_stats,
        "definitions": DEFINITIONS,
    }
    return {
        "html": render_to_string("tournaments/partials/player_record.html", context, request),
        "events": frozenset(by_event),
    }
