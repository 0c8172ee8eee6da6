"""A game's page, its record, its final scores, penalties, and its end or deletion.

Views read the game, let the engine replay it (`services.replay_record`) and hand the
numbers to templates already formatted; every write goes through `services`.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from scoring.errors import HAND_PREFIX
from scoring.game import ALREADY_ENDED, GameResult

from .. import access, pagecache, services, versions, wording
from ..forms.hands import WIND_MARKS, FinalScoresForm, PenaltyForm, SeatLabel, seat_labels
from ..limits import REFEREE_NOTE_LENGTH
from ..models import Game, RefereeCall
from ..reading.games import hand_rows
from ..trail import Actor, trail_rows
from ..wording import formatting
from ..wording.refusals import say, sentence
from .actions import change_game
from .room import open_calls, signal_context
from .rounds import clock_context
from .tables_links import link_context

# The latest changes shown on the game page; the event's trail page has them all.
GAME_TRAIL_SHOWN = 30


def round_name(label: str) -> str:
    """A round as the page's language names it: "E1" in English, 東1局 in Japanese."""
    if len(label) < 2 or label[0] not in WIND_MARKS or not label[1:].isdigit():
        return label
    return _("%(wind)s%(number)s") % {"wind": WIND_MARKS[label[0]], "number": label[1:]}


def round_honba(report_or_state) -> str:
    """The round and its honba: "E1-0" in English, 東1局 0本場 in Japanese."""
    return _("%(round)s-%(honba)s") % {
        "round": round_name(report_or_state.round_label),
        "honba": report_or_state.honba,
    }


def _after_end(err: Exception) -> tuple[int, str] | None:
    """The hand and the reason, when the engine refused a hand after the game's end."""
    phrase = getattr(err, "phrase", None)
    if phrase is None or phrase.template != HAND_PREFIX:
        return None
    problem = phrase.params["problem"]
    if getattr(problem, "template", None) != ALREADY_ENDED:
        return None
    return phrase.params["number"], problem.params["why"].key


def refusal(err: Exception, *, shift: int = 0, adding: bool = False) -> str:
    """The reason for refusing a change, as a sentence that says what to do next.

    `shift` is added to a hand number the engine names, for a deletion that renumbers the
    later hands; `adding` is for a new hand at the end of the game."""
    after_end = _after_end(err)
    if after_end:
        number = after_end[0] + shift
        why = wording.ended_by(after_end[1])
        if adding:
            return _(
                "The game is already over (%(why)s), so there is no hand %(number)s to enter. "
                "Finish the game, or edit or delete an earlier hand if it was entered wrongly."
            ) % {"why": why, "number": number}
        return _(
            "With this change the game would be over before hand %(number)s (%(why)s). "
            "Delete hand %(number)s and the hands after it first (from the last one), then "
            "make this change again; or change it so that the game goes on."
        ) % {"why": why, "number": number}
    if getattr(err, "args", None) and str(err.args[0])[:1].islower():
        # The engine's own words (in English lower case): a clause to correct.
        return _("%(problem)s. Correct it, then check it again.") % {"problem": sentence(err)}
    return say(err)


def _load(game: Game) -> tuple[dict[str, Any], list[str]]:
    """The game's record and its players' names, with the seats fetched once."""
    record = services.record_of(game)
    return record, record["players"]


def replayed(game: Game) -> tuple[dict[str, Any], list[str], GameResult | None]:
    """The game's record, its players' names and the engine's replay (None for final
    scores not entered yet). A record the engine refuses raises `GameChangeRefused`."""
    record, names = _load(game)
    return record, names, _replay(game, record)


def _replay(game: Game, record: dict[str, Any]) -> GameResult | None:
    """The engine's view of the game, or None for final scores not entered yet."""
    if game.awaits_final_scores:
        return None
    return services.replay_record(record)


def _seat_cards(result: GameResult | None, names: list[str], *, finished: bool):
    if result is None:
        return [
            {"name": name, "wind": "ESWN"[seat], "wind_mark": WIND_MARKS["ESWN"[seat]]}
            for seat, name in enumerate(names)
        ]
    state = result.state
    scores = result.final_scores if finished and result.final_scores else state.scores
    cards = []
    for seat, name in enumerate(names):
        # Once the game is over the seat's own (starting) wind names it best.
        wind = "ESWN"[seat] if finished else state.seat_wind(seat)
        card = {
            "name": name,
            "wind": wind,
            "wind_mark": WIND_MARKS[wind],
            "score": scores[seat],
            "dealer": not finished and seat == state.dealer,
        }
        if finished and result.placements:
            card["place"] = result.placements[seat]
            card["match_points"] = result.match_points[seat]
        cards.append(card)
    return cards


def _mark_substitutes(game: Game, cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for seat, is_substitute in game.seats.order_by().values_list("seat", "is_substitute"):
        cards[seat]["substitute"] = is_substitute
    return cards


def _final_rows(result: GameResult, names: list[str]) -> list[dict[str, Any]]:
    rows = [
        {
            "place": result.placements[seat],
            "name": name,
            "score": result.final_scores[seat],
            "match_points": result.match_points[seat],
            "penalty": result.penalties[seat],
        }
        for seat, name in enumerate(names)
    ]
    return sorted(rows, key=lambda r: r["place"])


# Where a kept game page shows the round clock's time (see `pagecache.page`).
CLOCK_NOW, CLOCK_LEFT = pagecache.slot("clock-now"), pagecache.slot("clock-left")


@access.readable_game
def game_detail(request: HttpRequest, game: Game) -> HttpResponse:
    is_organiser = game.organised
    link = None if is_organiser else access.table_link_for(request, game)
    # Organisers, and the players at the table through its link, change the hands.
    can_enter = is_organiser or access.may_enter_through(link, game)

    def context() -> dict[str, Any]:
        page = _game_page(game, can_enter=can_enter)
        if is_organiser:
            page["table_link"] = link_context(request, game.table_links.live().first())
            page["trail"] = _trail_part(game, page["names"])
        values: dict[str, Any] = {
            **page,
            "game": game,
            "session": game.session,
            "event": game.event,
            "is_organiser": is_organiser,
            "can_enter": can_enter,
            "at_table": link is not None,
            **room,
        }
        if can_enter and not values["finished"] and game.entry_mode == Game.EntryMode.FINAL_SCORES:
            values["final_form"] = _final_scores_form(game, page["names"])
        return values

    # The whole page, kept under all it shows: the game, its session and its event as read
    # (an organiser's page also under the play version: its table link and latest changes),
    # what this reader may do and what the round says to the table now. A reader's page
    # follows the game's own time of change (see `versions`): a hand at another table, or
    # another game's end, leaves it be. The round clock's time is put in as it is served.
    room = room_context(game, may_call=is_organiser or link is not None)
    fresh = {}
    if room["clock"] is not None:
        clock = room["clock"]
        fresh = {CLOCK_NOW: clock["now"], CLOCK_LEFT: clock["left"]}
        room["clock"] = {**clock, "now": CLOCK_NOW, "left": CLOCK_LEFT}
    shown = (
        pagecache.row(game),
        pagecache.row(game.session),
        versions.shown(game.event),
        game.event.play_token if is_organiser else "",
        (is_organiser, can_enter, link is not None),
        [room[name] for name in ("signal", "clock", "referee", "may_call_referee")],
    )
    return pagecache.page(
        request, "game", shown, "tournaments/game_detail.html", context, fresh=fresh
    )


def room_context(game: Game, *, may_call: bool) -> dict[str, Any]:
    """What the round says to this table, read fresh for each request: the director's
    signal, the round clock, and the table's referee call (of the session's open calls)."""
    session = game.session
    call = next((c for c in open_calls(session) if c["game"] == game.pk), None)
    return {
        "signal": signal_context(session),
        "clock": clock_context(session),
        "referee": call,
        "may_call_referee": may_call,
        "referee_reasons": RefereeCall.Reason.choices,
        "referee_note_length": REFEREE_NOTE_LENGTH,
    }


def _game_page(game: Game, *, can_enter: bool) -> dict[str, Any]:
    record, names, result = replayed(game)
    finished = game.is_finished
    over = bool(result and result.finished)
    context: dict[str, Any] = {
        "can_enter": can_enter,
        "finished": finished,
        # Over under the rules but reopened: the organiser may finish it again.
        "may_finish": over and not finished,
        "hands_mode": game.entry_mode == Game.EntryMode.HANDS,
        "has_final_scores": "final_scores" in record and not game.awaits_final_scores,
        "names": names,
        "hands": result is not None and bool(record.get("hands")),
        "next_number": len(record.get("hands", [])) + 1,
        "penalties": [
            {
                "name": names[p["seat"]],
                "points": Decimal(str(p["match_points"])),
                "reason": p["reason"],
            }
            for p in record.get("penalties", [])
        ],
    }
    if result is not None:
        final_only = game.entry_mode == Game.EntryMode.FINAL_SCORES
        reason = result.ended_by or ("final_scores" if final_only and over else "")
        context["ended_by"] = wording.ended_by(reason)
        context["final"] = finished and result.finished
    context.update(_board_parts(game, result, names, context))
    if context["hands_mode"]:
        context["hands_html"] = _hands_part(game, record, result, names, context)
    del context["can_enter"]
    return context


def _board_parts(game: Game, result, names, context) -> dict[str, str]:
    """The head of the game page (round, seats and their scores) and its result."""
    finished = context["finished"]

    def build() -> dict[str, str]:
        over = finished or context["may_finish"]
        part = {
            "game": game,
            "finished": finished,
            "may_finish": context["may_finish"],
            "hands_mode": context["hands_mode"],
            "ended_by": context.get("ended_by"),
            # A game over under its rules but reopened has no dealer and no next hand.
            "seats": _mark_substitutes(game, _seat_cards(result, names, finished=over)),
        }
        if result is not None:
            state = result.state
            part["state"] = {
                "round": round_name(state.round_label),
                "honba": state.honba,
                "sticks": state.sticks,
                "dealer": names[state.dealer],
            }
            if finished and result.finished:
                part["final"] = _final_rows(result, names)
        return {
            "board_html": render_to_string("tournaments/partials/game_board.html", part),
            "final_html": render_to_string("tournaments/partials/game_result.html", part),
        }

    return build()


def _hands_part(game: Game, record, result, names, context) -> str:
    """The list of the game's hands, for readers who may or may not change them."""
    editable = context["can_enter"] and not context["finished"]

    def build() -> str:
        return render_to_string(
            "tournaments/partials/game_hands.html",
            {
                "game": game,
                "names": names,
                "hands": hand_rows(record, result, names, round_words=round_honba),
                "can_enter": editable,
                "finished": context["finished"],
            },
        )

    return build()


def _trail_part(game: Game, names) -> str:
    """The game's latest changes as a rendered table."""
    return render_to_string(
        "tournaments/partials/trail_table.html",
        {"rows": trail_rows(game.trail.all()[:GAME_TRAIL_SHOWN], game=game)},
    )


@access.readable_game
def game_record(request: HttpRequest, game: Game) -> HttpResponse:
    record, _names = _load(game)
    response = HttpResponse(
        json.dumps(record, indent=2, ensure_ascii=False) + "\n",
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="tenbou-game-{game.pk}.json"'
    return response


def _final_scores_form(game: Game, names: list[str], data=None) -> FinalScoresForm:
    initial: dict[str, Any] = {"leftover_sticks": game.leftover_sticks}
    for seat in game.ordered_seats():
        if seat.entered_score is not None:
            initial[f"score_{seat.seat}"] = seat.entered_score
    return FinalScoresForm(data, seats=seat_labels(names, 0), initial=initial)


def sticks_effect(result: GameResult, entered: list[int], names: list[str]) -> str:
    """What the sticks left on the table do to the final scores, in a sentence."""
    sticks = result.leftover_sticks
    if not sticks:
        return ""
    values = {"sticks": sticks, "points": f"{sticks * 1000:,}"}
    final = result.final_scores or tuple(entered)
    changed = [
        _("%(name)s's %(entered)s becomes %(final)s")
        % {
            "name": names[seat],
            "entered": formatting.points(entered[seat]),
            "final": formatting.points(final[seat]),
        }
        for seat in range(len(names))
        if final[seat] != entered[seat]
    ]
    if not changed:
        return ngettext(
            "%(sticks)s riichi stick (%(points)s points) is left on the table and lost: the "
            "final scores stand as entered and add up to %(total)s.",
            "%(sticks)s riichi sticks (%(points)s points) are left on the table and lost: the "
            "final scores stand as entered and add up to %(total)s.",
            sticks,
        ) % {**values, "total": formatting.points(sum(entered))}
    return ngettext(
        "%(sticks)s riichi stick (%(points)s points) is left on the table and goes to first "
        "place: %(changes)s.",
        "%(sticks)s riichi sticks (%(points)s points) are left on the table and go to first "
        "place: %(changes)s.",
        sticks,
    ) % {**values, "changes": _("; ").join(changed)}


def _final_preview_context(
    game: Game, form: FinalScoresForm, result: GameResult, names: list[str]
) -> dict[str, Any]:
    entered = form.scores()
    rows = [
        {
            "wind": "ESWN"[seat],
            "wind_mark": WIND_MARKS["ESWN"[seat]],
            "name": names[seat],
            "entered": entered[seat],
            "score": result.final_scores[seat],
            "changed": result.final_scores[seat] != entered[seat],
            "place": result.placements[seat],
            "match_points": result.match_points[seat],
            "penalty": result.penalties[seat],
        }
        for seat in range(len(names))
    ]
    fields = [(f"score_{seat}", str(entered[seat])) for seat in range(len(names))]
    fields.append(("leftover_sticks", str(form.cleaned_data["leftover_sticks"])))
    return {
        "game": game,
        "rows": rows,
        "sticks": sticks_effect(result, entered, names),
        "in_hundreds": form.in_hundreds,
        "example": (form.cleaned_data["score_0"] // 100, form.cleaned_data["score_0"]),
        "fields": fields,
    }


@access.hand_entry_game
def final_scores(request: HttpRequest, entry: access.HandEntry) -> HttpResponse:
    """The final scores (four, or three): typed, previewed with placements and match
    points, saved; by an organiser or at the table through its link."""
    game = entry.game
    if game.entry_mode != Game.EntryMode.FINAL_SCORES:
        messages.error(
            request, _("This game is entered hand by hand: enter its hands on the game page.")
        )
        return redirect(game)
    if game.is_finished:
        messages.error(
            request,
            _("This game is finished. Reopen it, or clear its final scores, to change them."),
        )
        return redirect(game)
    _record, names = _load(game)
    form = _final_scores_form(game, names, request.POST if request.method == "POST" else None)
    action = request.POST.get("action", "preview")
    if request.method == "POST" and form.is_valid() and action in ("preview", "save"):
        sticks = form.cleaned_data["leftover_sticks"]
        try:
            if action == "save":
                services.set_final_scores(game.pk, form.scores(), sticks, **entry.author(request))
            else:
                result = services.preview_final_scores(game, form.scores(), sticks)
        except services.GameChangeRefused as err:
            form.add_error(None, _sentence(err))
        else:
            if action == "save":
                messages.success(request, _("Final scores saved. The standings include them now."))
                return redirect(game)
            context = _final_preview_context(game, form, result, names)
            return render(request, "tournaments/final_scores_confirm.html", context)
    return render(request, "tournaments/final_scores.html", {"game": game, "form": form})


def _sentence(err: Exception) -> str:
    """The reason for refusing final scores as a sentence that says what to do."""
    return _("%(problem)s. Check the scores and the sticks, then try again.") % {
        "problem": sentence(err)
    }


@require_POST
@access.organiser_game
def final_scores_clear(request: HttpRequest, game: Game) -> HttpResponse:
    return change_game(
        request,
        game,
        services.clear_final_scores,
        gettext_lazy(
            "Final scores cleared: the game waits for its scores again. Enter them, or "
            "delete the game if it was created by mistake."
        ),
    )


@access.organiser_game
def game_delete(request: HttpRequest, game: Game) -> HttpResponse:
    """Delete a game created by mistake; one with results is first cleared of them."""
    session = game.session
    if request.method == "POST":
        try:
            services.delete_game(game.pk, actor=Actor.of(request.user))
        except services.GameChangeRefused as err:
            messages.error(request, str(err))
            return redirect("tournaments:game_delete", pk=game.pk)
        messages.success(
            request,
            _("The game at table %(table)s was deleted, with its seats.")
            % {"table": game.table_number},
        )
        return redirect(session)
    _record, names = _load(game)
    held = services.game_results(game)
    context = {
        "game": game,
        "names": names,
        "held": held,
        "held_text": services.results_in_words(held) if held else "",
        "hands_mode": game.entry_mode == Game.EntryMode.HANDS,
    }
    return render(request, "tournaments/game_delete.html", context)


@require_POST
@access.organiser_game
def game_finish(request: HttpRequest, game: Game) -> HttpResponse:
    return change_game(request, game, services.finish_game, gettext_lazy("Game finished."))


@require_POST
@access.organiser_game
def game_reopen(request: HttpRequest, game: Game) -> HttpResponse:
    return change_game(request, game, services.reopen_game, _reopened)


def _reopened(game: Game) -> str:
    if game.entry_mode == Game.EntryMode.FINAL_SCORES:
        return _("Game reopened: change its final scores, or clear them, then save them again.")
    return _("Game reopened: change or delete its hands, then finish it again.")


@require_POST
@access.organiser_game
def penalty_delete(request: HttpRequest, game: Game, penalty_id: int) -> HttpResponse:
    _record, names = _load(game)
    try:
        penalty = services.delete_penalty(game.pk, penalty_id, actor=Actor.of(request.user))
    except services.GameChangeRefused as err:
        messages.error(request, str(err))
    else:
        messages.success(
            request, _("Penalty for %(name)s removed.") % {"name": names[penalty.seat]}
        )
    return redirect("tournaments:penalty_new", pk=game.pk)


@access.organiser_game
def penalty_new(request: HttpRequest, game: Game) -> HttpResponse:
    _record, names = _load(game)
    seats: list[SeatLabel] = seat_labels(names, 0)
    form = PenaltyForm(seats=seats)
    if request.method == "POST":
        form = PenaltyForm(request.POST, seats=seats)
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.add_penalty(
                    game.pk, data["seat"], data["match_points"], data["reason"], user=request.user
                )
            except services.GameChangeRefused as err:
                form.add_error(None, str(err))
            else:
                messages.success(
                    request,
                    _("Penalty of %(points)s for %(name)s saved.")
                    % {
                        "points": formatting.match_points(data["match_points"]),
                        "name": names[data["seat"]],
                    },
                )
                return redirect(game)
    penalties = [
        {
            "pk": p.pk,
            "name": names[p.seat],
            "points": p.match_points,
            "reason": p.reason,
        }
        for p in game.penalties.order_by("created_at", "pk")
    ]
    return render(
        request,
        "tournaments/penalty_form.html",
        {"game": game, "form": form, "penalties": penalties},
    )
