"""The game page, hand entry and every other change to a game's outcome.

Views read the game, let the engine replay it (`services.replay_record`) and hand the
numbers to templates already formatted; every write goes through `services`.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from handvalue import Options as HandOptions
from handvalue import Situation, parse_tiles, value_hand
from scoring.errors import HAND_PREFIX, ScoringError, gettext_noop
from scoring.game import ALREADY_ENDED, GameResult, HandReport
from scoring.payouts import settle
from scoring.record import parse_hand

from .. import access, formatting, services, versions, wording
from ..forms.hands import (
    WIND_MARKS,
    FinalScoresForm,
    HandForm,
    PenaltyForm,
    SeatLabel,
    initial_from_hand,
    seat_labels,
)
from ..models import Game
from ..refusals import say, sentence
from ..trail import Actor, trail_rows
from ..wording import describe_hand, describe_stats, win_value
from .actions import change_game
from .tables_links import link_context

# The latest changes shown on the game page; the event's trail page has them all.
GAME_TRAIL_SHOWN = 30

# Numbers go to the templates as numbers; the `numbers` filters give them their look.


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


# Refusals as sentences that say what to do.


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


# Reading a game.


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


def _hand_rows(record, result: GameResult | None, names: list[str]) -> list[dict[str, Any]]:
    if result is None or "hands" not in record:
        return []
    rows = []
    for number, (doc, report) in enumerate(zip(record["hands"], result.hands, strict=True), 1):
        rows.append(
            {
                "number": number,
                "round": round_honba(report),
                "summary": describe_hand(doc, names),
                "riichi": ", ".join(names[s] for s in doc["riichi"]),
                "cells": [
                    {
                        "delta": d,
                        "score": after,
                        "sign": (d > 0) - (d < 0),
                        "dealer": seat == report.dealer,
                    }
                    for seat, (d, after) in enumerate(
                        zip(report.deltas, report.scores_after, strict=True)
                    )
                ],
            }
        )
    return rows


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


@access.readable_game
def game_detail(request: HttpRequest, game: Game) -> HttpResponse:
    is_organiser = game.organised
    link = None if is_organiser else access.table_link_for(request, game)
    # Organisers, and the players at the table through its link, change the hands.
    can_enter = is_organiser or access.may_enter_through(link, game)

    # What the game shows, the same for every reader who may (or may not) change its hands
    # and for every organiser (who also sees its table link and latest changes, each made
    # by a change that replaces the play version): rendered once for each play version.
    def build() -> dict[str, Any]:
        page = _game_page(game, can_enter=can_enter)
        if is_organiser:
            page["table_link"] = link_context(request, game.table_links.live().first())
            page["trail"] = _trail_part(game, page["names"])
        return page

    page = versions.cached(
        "game",
        game.event,
        versions.PLAY,
        build,
        parts=(
            game.pk,
            can_enter,
            is_organiser,
            request.build_absolute_uri("/") if is_organiser else "",
        ),
    )
    context: dict[str, Any] = {
        **page,
        "game": game,
        "session": game.session,
        "event": game.event,
        "is_organiser": is_organiser,
        "can_enter": can_enter,
        "at_table": link is not None,
    }
    finished = context["finished"]
    if is_organiser and not finished and game.entry_mode == Game.EntryMode.FINAL_SCORES:
        context["final_form"] = _final_scores_form(game, page["names"])
    return render(request, "tournaments/game_detail.html", context)


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
                "hands": _hand_rows(record, result, names),
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


# Entering and changing hands.


def _refuse_hand_changes(request: HttpRequest, game: Game) -> HttpResponse | None:
    """A redirect with the reason when this game's hands cannot be changed now."""
    if game.entry_mode != Game.EntryMode.HANDS:
        messages.error(request, _("This game records final scores only, not hands."))
        return redirect(game)
    if game.is_finished:
        messages.error(request, _("This game is finished. Reopen it to change its hands."))
        return redirect(game)
    return None


def _posted_fields(request: HttpRequest) -> list[tuple[str, str]]:
    """The form's data, to post again unchanged from the confirm page."""
    skip = {"csrfmiddlewaretoken", "action"}
    return [
        (key, value)
        for key in request.POST
        if key not in skip
        for value in request.POST.getlist(key)
    ]


RESULT_PARTS = {
    "draw": gettext_lazy("noten payments"),
    "nagashi": gettext_lazy("nagashi mangan"),
    "chombo": gettext_lazy("chombo"),
}


def change_parts(
    doc: dict[str, Any], report: HandReport, rules, names: list[str]
) -> list[list[tuple[str, int]]]:
    """Each seat's change in a hand broken into its parts, for a seat with more than one:
    its riichi stick, what each win pays on its own, and the rest (honba and the sticks
    on the table, or a draw's payments). Every seat's parts add up to its change."""
    parts: list[list[tuple[str, int]]] = [[] for _ in range(4)]
    for seat in doc.get("riichi", []):
        parts[seat].append((_("riichi stick"), -1000))
    for win in doc.get("wins", []):
        alone = {"result": doc["result"], "riichi": [], "wins": [win]}
        settled = settle(parse_hand(alone, 1), dealer=report.dealer, honba=0, sticks=0, rules=rules)
        label = _("%(name)s's %(value)s") % {
            "name": names[win["winner"]],
            "value": win_value(win, rules),
        }
        for seat, amount in enumerate(settled.deltas):
            if amount:
                parts[seat].append((label, amount))
    rest = _("honba and riichi sticks") if doc.get("wins") else RESULT_PARTS.get(doc["result"], "")
    for seat in range(4):
        left = report.deltas[seat] - sum(amount for _, amount in parts[seat])
        if left:
            parts[seat].append((rest or _("the rest"), left))
    return [seat_parts if len(seat_parts) > 1 else [] for seat_parts in parts]


def _preview_context(
    preview: services.HandPreview, doc: dict[str, Any], names: list[str]
) -> dict[str, Any]:
    report: HandReport = preview.report
    result = preview.result
    seats = sorted(seat_labels(names, report.dealer), key=lambda s: "ESWN".index(s.wind))
    parts = change_parts(doc, report, result.rules, names)
    rows = [
        {
            "name": seat.name,
            "wind": seat.wind,
            "wind_mark": seat.wind_mark,
            "dealer": seat.seat == report.dealer,
            "before": report.scores_before[seat.seat],
            "delta": report.deltas[seat.seat],
            "sign": (report.deltas[seat.seat] > 0) - (report.deltas[seat.seat] < 0),
            "after": report.scores_after[seat.seat],
            "parts": parts[seat.seat],
        }
        for seat in seats
    ]
    context: dict[str, Any] = {
        "number": preview.number,
        "round": round_honba(report),
        "summary": describe_hand(doc, names, rules=result.rules),
        "stats_lines": describe_stats(doc, names),
        "riichi": [names[seat] for seat in doc.get("riichi", [])],
        "rows": rows,
        "sticks_before": report.sticks_before,
        "sticks_after": report.sticks_after,
        "later_hands": len(result.hands) - preview.number,
    }
    if preview.number < len(result.hands):
        after = result.hands[preview.number]
        context["next"] = {"round": round_honba(after), "dealer": names[after.dealer]}
    elif not result.finished:
        state = result.state
        context["next"] = {"round": round_honba(state), "dealer": names[state.dealer]}
    if result.finished:
        # After an edit the end may come only with a later hand; it is shown all the same.
        context["ends"] = wording.ended_by(result.ended_by)
        context["final"] = _final_rows(result, names)
    elif context["later_hands"]:
        context["scores_now"] = [
            {"name": name, "score": score}
            for name, score in zip(names, result.state.scores, strict=True)
        ]
    return context


def _hand_taken(request: HttpRequest, game: Game, message: str) -> HttpResponse:
    return render(
        request, "tournaments/hand_taken.html", {"game": game, "message": message}, status=409
    )


def _taken_message(number: int, count: int) -> str:
    if number <= count:
        return ngettext(
            "Someone entered hand %(number)s already: the game now has %(count)s hand. "
            "Check the list of hands before entering it again.",
            "Someone entered hand %(number)s already: the game now has %(count)s hands. "
            "Check the list of hands before entering it again.",
            count,
        ) % {"number": number, "count": count}
    return ngettext(
        "The game changed while you were entering hand %(number)s: it now has %(count)s hand. "
        "Check the list of hands before entering it again.",
        "The game changed while you were entering hand %(number)s: it now has %(count)s hands. "
        "Check the list of hands before entering it again.",
        count,
    ) % {"number": number, "count": count}


def _hand_form_page(
    request, game, form, *, number, table, editing, version="", status=200
) -> HttpResponse:
    return render(
        request,
        "tournaments/hand_form.html",
        {
            "game": game,
            "form": form,
            "number": number,
            "table": table,
            "editing": editing,
            "wins": form.win_groups(),
            "version": version,
        },
        status=status,
    )


def _table_before(report_or_state, names: list[str], sticks: int) -> dict[str, Any]:
    """The table as the hand being entered starts: round, honba, sticks, dealer."""
    return {
        "round": round_honba(report_or_state),
        "sticks": sticks,
        "dealer": names[report_or_state.dealer],
        # For the tile picker: the round wind, 0 east to 3 north.
        "round_wind": "ESWN".index(report_or_state.round_label[0]),
    }


def _taken_since(request: HttpRequest, game: Game, count: int | None = None) -> HttpResponse | None:
    """The "someone entered it already" page when the posted hand number is taken
    (`count` is the game's number of hands, if known)."""
    posted = request.POST.get("number", "")
    if count is None:
        count = game.hands.count()
    if posted.isdigit() and 1 <= int(posted) <= count:
        return _hand_taken(request, game, _taken_message(int(posted), count))
    return None


def _author(request: HttpRequest, entry: access.HandEntry) -> dict[str, Any]:
    """The `actor` and `table_link` arguments of a hand change by this request."""
    if entry.link is not None:
        return {"actor": Actor.of(table_link=entry.link), "table_link": entry.link}
    return {"actor": Actor.of(request.user)}


class _FormNotSaved(Exception):
    """The posted hand does not pass its form: nothing is stored, the form page says why."""


def _save_posted_hand(
    request: HttpRequest, entry: access.HandEntry
) -> HttpResponse | services.GameChangeRefused | None:
    """Save the posted hand: its form is checked by `services.add_hand` against the game
    as read under the game's lock, so the game is read once. When nothing was stored the
    form page says why: the refusal, or (None) the form's errors."""
    game = entry.game
    posted = request.POST.get("number", "")
    if not posted.isdigit():
        return None
    number = int(posted)

    def hand(current: GameResult, names: list[str]) -> dict[str, Any]:
        form = HandForm(
            request.POST,
            seats=seat_labels(names, current.state.dealer),
            rules=current.rules,
            scores=current.state.scores,
            with_number=True,
        )
        if not form.is_valid() or form.cleaned_data["number"] != number:
            raise _FormNotSaved
        return form.to_hand()

    try:
        saved = services.add_hand(game.pk, number, hand, **_author(request, entry))
    except services.HandAlreadyEntered as err:
        return _hand_taken(request, game, str(err))
    except services.GameChangeRefused as err:
        return err
    except _FormNotSaved:
        return None
    text = _("Hand %(number)s saved.") % {"number": number}
    _saved_message(request, saved.game, text, current=True)
    return redirect(game)


@access.hand_entry_game
def hand_new(request: HttpRequest, entry: access.HandEntry) -> HttpResponse:
    game = entry.game
    saving = request.method == "POST" and request.POST.get("action") == "save"
    refused_save = None
    if saving and game.entry_mode == Game.EntryMode.HANDS and not game.is_finished:
        saved = _save_posted_hand(request, entry)
        if isinstance(saved, HttpResponse):
            return saved
        # Nothing was stored: the page below draws the form with the reason.
        refused_save = saved
    # A game open for hands is read first: its record gives the count of hands.
    read = game.entry_mode == Game.EntryMode.HANDS and not game.is_finished
    record, names, current = replayed(game) if read else (None, [], None)
    # A hand that another organiser's entry has overtaken (even one that ended the game)
    # gets the clear message rather than "this game is finished".
    if request.method == "POST":
        taken = _taken_since(request, game, len(record["hands"]) if read else None)
        if taken:
            return taken
    refused = _refuse_hand_changes(request, game)
    if refused:
        return refused
    if current is None:
        current = services.replay_record(record)
    count = len(record["hands"])
    seats = seat_labels(names, current.state.dealer)
    table = _table_before(current.state, names, current.state.sticks)
    if current.finished:
        table["over"] = wording.ended_by(current.ended_by)
    options = {
        "seats": seats,
        "rules": current.rules,
        "scores": current.state.scores,
        "with_number": True,
    }
    if request.method != "POST":
        form = HandForm(initial={"number": count + 1}, **options)
        return _hand_form_page(request, game, form, number=count + 1, table=table, editing=False)

    form = HandForm(request.POST, **options)
    action = request.POST.get("action", "preview")
    number = count + 1
    if form.is_valid():
        number = form.cleaned_data["number"]
        doc = form.to_hand()
        if action == "save":
            try:
                if refused_save is not None:
                    raise refused_save  # the save tried above, not tried again
                hand = services.add_hand(game.pk, number, doc, **_author(request, entry))
            except services.HandAlreadyEntered as err:
                return _hand_taken(request, game, str(err))
            except services.GameChangeRefused as err:
                taken = _taken_since(request, game)
                if taken:
                    return taken
                form.add_error(None, refusal(err, adding=True))
            else:
                text = _("Hand %(number)s saved.") % {"number": number}
                _saved_message(request, hand.game, text, current=True)
                return redirect(game)
        elif action == "preview":
            if number != count + 1:
                # Only a number ahead of the game is left: someone undid or deleted a hand.
                return _hand_taken(request, game, _taken_message(number, count))
            try:
                preview = services.preview_hand(game, doc)
            except services.GameChangeRefused as err:
                form.add_error(None, refusal(err, adding=True))
            else:
                context = _preview_context(preview, doc, names)
                context.update(game=game, fields=_posted_fields(request), editing=False)
                return render(request, "tournaments/hand_confirm.html", context)
    return _hand_form_page(request, game, form, number=number, table=table, editing=False)


def _saved_message(request: HttpRequest, game: Game, text: str, *, current: bool = False) -> None:
    """Say the change was saved, and whether it ended the game (`current`: `game` is read
    after the change already)."""
    if not current:
        game.refresh_from_db(fields=["status", "ended_by"])
    if game.is_finished:
        text += " " + _("The game is over: %(why)s.") % {"why": wording.ended_by(game.ended_by)}
    messages.success(request, text)


@access.hand_entry_game
def hand_edit(request: HttpRequest, entry: access.HandEntry, number: int) -> HttpResponse:
    game = entry.game
    refused = _refuse_hand_changes(request, game)
    if refused:
        return refused
    record, names = _load(game)
    if not 1 <= number <= len(record["hands"]):
        raise Http404(_("This game has no such hand."))
    old = record["hands"][number - 1]
    current = services.replay_record(record)
    report = current.hands[number - 1]
    seats = seat_labels(names, report.dealer)
    table = _table_before(report, names, report.sticks_before)
    options = {"seats": seats, "rules": current.rules, "scores": report.scores_before}
    # The version of the hand the editor started from: a save over a change made by
    # someone else meanwhile is refused.
    version = services.hand_version(old)
    if request.method != "POST":
        form = HandForm(initial=initial_from_hand(old), **options)
        return _hand_form_page(
            request, game, form, number=number, table=table, editing=True, version=version
        )

    form = HandForm(request.POST, **options)
    action = request.POST.get("action", "preview")
    posted_version = request.POST.get("version", "")[:64]
    if form.is_valid():
        doc = form.to_hand(keep_from=old)
        if action == "save":
            try:
                services.replace_hand(
                    game.pk,
                    number,
                    doc,
                    version=posted_version or None,
                    **_author(request, entry),
                )
            except services.HandChanged as err:
                form.add_error(
                    None,
                    _(
                        "Someone else changed hand %(number)s while you were editing it; your "
                        "change was not saved. It is now: %(hand)s. Check it, then save your "
                        "change again if it is still needed."
                    )
                    % {
                        "number": number,
                        "hand": wording.describe_hand(err.hand, names, rules=current.rules),
                    },
                )
                # Saving again (after reading the message) changes the hand as it is now.
                return _hand_form_page(
                    request,
                    game,
                    form,
                    number=number,
                    table=table,
                    editing=True,
                    version=version,
                    status=409,
                )
            except services.GameChangeRefused as err:
                form.add_error(None, refusal(err))
            else:
                _saved_message(request, game, _("Hand %(number)s changed.") % {"number": number})
                return redirect(game)
        elif action == "preview":
            try:
                preview = services.preview_hand(game, doc, number=number)
            except services.GameChangeRefused as err:
                form.add_error(None, refusal(err))
            else:
                context = _preview_context(preview, doc, names)
                context.update(game=game, fields=_posted_fields(request), editing=True)
                return render(request, "tournaments/hand_confirm.html", context)
    return _hand_form_page(
        request,
        game,
        form,
        number=number,
        table=table,
        editing=True,
        version=posted_version or version,
    )


@access.hand_entry_game
def hand_delete(request: HttpRequest, entry: access.HandEntry, number: int) -> HttpResponse:
    game = entry.game
    refused = _refuse_hand_changes(request, game)
    if refused:
        return refused
    if request.method == "POST":
        try:
            services.delete_hand(game.pk, number, **_author(request, entry))
        except services.GameChangeRefused as err:
            messages.error(request, refusal(err, shift=1))
        else:
            messages.success(request, _("Hand %(number)s deleted.") % {"number": number})
        return redirect(game)
    record, names = _load(game)
    if not 1 <= number <= len(record["hands"]):
        raise Http404(_("This game has no such hand."))
    report = services.replay_record(record).hands[number - 1]
    context = {
        "game": game,
        "number": number,
        "round": round_honba(report),
        "summary": describe_hand(record["hands"][number - 1], names),
        "later_hands": len(record["hands"]) - number,
    }
    return render(request, "tournaments/hand_delete.html", context)


@require_POST
@access.hand_entry_game
def hand_undo(request: HttpRequest, entry: access.HandEntry) -> HttpResponse:
    game = entry.game
    try:
        number = services.undo_last_hand(game.pk, **_author(request, entry))
    except services.GameChangeRefused as err:
        messages.error(request, str(err))
    else:
        messages.success(request, _("Hand %(number)s undone.") % {"number": number})
    return redirect(game)


# Final scores, finishing, penalties.


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
        for seat in range(4)
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
        for seat in range(4)
    ]
    fields = [(f"score_{seat}", str(entered[seat])) for seat in range(4)]
    fields.append(("leftover_sticks", str(form.cleaned_data["leftover_sticks"])))
    return {
        "game": game,
        "rows": rows,
        "sticks": sticks_effect(result, entered, names),
        "in_hundreds": form.in_hundreds,
        "example": (form.cleaned_data["score_0"] // 100, form.cleaned_data["score_0"]),
        "fields": fields,
    }


@access.organiser_game
def final_scores(request: HttpRequest, game: Game) -> HttpResponse:
    """The four final scores: typed, previewed with placements and match points, saved."""
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
                services.set_final_scores(
                    game.pk, form.scores(), sticks, actor=Actor.of(request.user)
                )
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
            services.delete_game(game.pk)
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


# The full hand: tiles in, yaku, han and fu out (for hand-picker.js)

CONDITION_FLAGS = (
    "riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan", "tenhou",
    "chiihou",
)  # fmt: skip
MAX_CALLS = 4


def _wind(value: str | None) -> int:
    if value not in ("0", "1", "2", "3"):
        raise ScoringError(
            gettext_noop("Choose the seat and round winds again: East, South, West or North.")
        )
    return int(value)


def _indicators(text: str) -> tuple[int, ...]:
    kinds, _red = parse_tiles(text or "")
    return tuple(kinds)


@access.hand_entry_game
def hand_count(request: HttpRequest, entry: access.HandEntry) -> JsonResponse:
    """Judge a whole hand picked tile by tile, for whoever may enter the game's hands (the
    table's phones too). Stores nothing; the answer fills the form."""
    rules = entry.game.session.event.rules()
    query = request.GET
    try:
        calls = [c for c in query.get("calls", "").split() if c]
        if len(calls) > MAX_CALLS:
            raise ScoringError(gettext_noop("A hand has at most %(most)s calls."), most=MAX_CALLS)
        situation = Situation(
            tsumo=query.get("tsumo") == "1",
            seat_wind=_wind(query.get("seat_wind")),
            round_wind=_wind(query.get("round_wind")),
            dora_indicators=_indicators(query.get("dora", "")),
            ura_indicators=_indicators(query.get("ura", "")),
            **{flag: query.get(flag) == "1" for flag in CONDITION_FLAGS},
        )
        options = HandOptions(
            open_tanyao=getattr(rules, "open_tanyao", True),
            kiriage=rules.kiriage,
            double_yakuman=rules.double_yakuman,
        )
        value = value_hand(
            query.get("tiles", "")[:200], query.get("win", "")[:8], calls, situation, options
        )
    except ScoringError as err:
        return JsonResponse({"ok": False, "error": say(err)})
    if value.yakuman:
        text = wording.YAKUMAN_NAMES.get(value.yakuman) or _("%(count)s× yakuman") % {
            "count": value.yakuman
        }
    elif value.han <= 4:
        text = _("%(han)s han %(fu)s fu") % {"han": value.han, "fu": value.fu}
    else:
        text = _("%(han)s han") % {"han": value.han}
    names = _(", ").join(wording.yaku_name(k) for k in value.yaku)
    return JsonResponse(
        {
            "ok": True,
            "han": value.han,
            "fu": value.fu,
            "yakuman": value.yakuman,
            "yaku": list(value.yaku),
            "dora": value.dora,
            "open": value.is_open,
            "text": (
                _("%(value)s: %(yaku)s and %(dora)s dora")
                if value.dora
                else _("%(value)s: %(yaku)s")
            )
            % {"value": text, "yaku": names, "dora": value.dora},
        }
    )
