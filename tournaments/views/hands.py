"""Entering, previewing, editing, deleting and undoing hands, and the tile picker."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from handvalue import Options as HandOptions
from handvalue import Situation, parse_tiles, value_hand
from scoring.errors import ScoringError, gettext_noop
from scoring.game import GameResult, HandReport
from scoring.payouts import settle
from scoring.record import parse_hand

from .. import access, pagecache, services, wording
from ..forms.hands import HandForm, initial_from_hand, seat_labels
from ..models import Game
from ..wording import describe_hand, describe_stats, win_value
from ..wording.refusals import say
from .games import _final_rows, _load, refusal, replayed, round_honba


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
    """The form's data, to post again unchanged from the confirm page, with the entry's id:
    the one the page's script made when the player confirmed, else one made here, so that
    the save, however often it is sent, is applied once."""
    skip = {"csrfmiddlewaretoken", "action", "entry"}
    fields = [
        (key, value)
        for key in request.POST
        if key not in skip
        for value in request.POST.getlist(key)
    ]
    try:
        entry = services.entry_id(_posted_entry(request))
    except services.GameChangeRefused:  # not an id of ours: a new one, as for none
        entry = services.entry_id(None)
    return [*fields, ("entry", str(entry))]


def _posted_entry(request: HttpRequest) -> str:
    """The entry id the form posts ("" for none), as sent."""
    return request.POST.get("entry", "")[:64].strip()


SAVED_AGAIN = {
    "add": gettext_lazy("Hand %(number)s saved."),
    "edit": gettext_lazy("Hand %(number)s changed."),
    "undo": gettext_lazy("Hand %(number)s undone."),
}


def _stored_already(request: HttpRequest, game: Game, receipt) -> HttpResponse:
    """The answer to an entry sent again: the page its first save led to, with the same
    word, whatever happened to the game since (never "someone entered it already")."""
    text = str(SAVED_AGAIN[receipt.kind]) % {"number": receipt.number}
    if receipt.kind == "undo":
        messages.success(request, text)
    else:
        _saved_message(request, game, text)
    return redirect(game)


def _resent(request: HttpRequest, game: Game, *, action: str = "save") -> HttpResponse | None:
    """The stored answer when the form saves an entry the game holds already (`action`:
    what a post that names none does)."""
    if request.method != "POST" or request.POST.get("action", action) != "save":
        return None
    entry = _posted_entry(request)
    receipt = services.entry_receipt(game.pk, entry) if entry else None
    return _stored_already(request, game, receipt) if receipt is not None else None


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
    parts: list[list[tuple[str, int]]] = [[] for _ in names]
    for seat in doc.get("riichi", []):
        parts[seat].append((_("riichi stick"), -1000))
    bumped = wording.head_bump_winner(doc, rules, len(names))
    for win in doc.get("wins", []):
        if bumped is not None and win["winner"] != bumped:
            continue  # not paid under head bump: the summary says so
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
    for seat in range(len(names)):
        left = report.deltas[seat] - sum(amount for _, amount in parts[seat])
        if left:
            parts[seat].append((rest or _("the rest"), left))
    return [seat_parts if len(seat_parts) > 1 else [] for seat_parts in parts]


def _preview_summary(doc: dict[str, Any], report: HandReport, names: list[str], rules) -> str:
    """The hand in words; a chombo paid at the table says what the offender pays, so that
    the table sees the penalty recorded (a match-point one says its points already)."""
    paid = -report.deltas[doc["offender"]] if doc["result"] == "chombo" else 0
    if paid > 0:
        return _("Chombo · %(player)s pays a reverse mangan: %(points)s") % {
            "player": names[doc["offender"]],
            "points": wording.formatting.points(paid),
        }
    return describe_hand(doc, names, rules=rules)


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
        "summary": _preview_summary(doc, report, names, result.rules),
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
    wins = form.win_groups()
    if not form.is_bound and not editing:
        # The empty form for the next hand: nothing is ticked in any winner's count help.
        for win in wins:
            win["count_help_html"] = _empty_count_help(win, form.rules)
    return render(
        request,
        "tournaments/hand_form.html",
        {
            "game": game,
            "form": form,
            "number": number,
            "table": table,
            "editing": editing,
            "wins": wins,
            "version": version,
            # One button per seat in a row: four, or three at a three-player table.
            "seat_cols": len(form.seats),
            "seat_or_nobody_cols": len(form.seats) + 1,
        },
        status=status,
    )


def _empty_count_help(win: dict[str, Any], rules) -> str:
    """A winner's "Count it for me" in an empty form: the same in every empty form under
    the same rules and language, and a quarter of the time of the form's page, so drawn
    once for each winner's place, rules and language."""

    def build() -> str:
        return render_to_string("tournaments/partials/hand_count_help.html", {"win": win})

    return pagecache.cached("count-help", (win["index"], repr(rules)), build)


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
        saved = services.add_hand(
            game.pk, number, hand, entry=_posted_entry(request), **entry.author(request)
        )
    except services.EntrySentBefore as sent:
        return _stored_already(request, game, sent.receipt)
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
        # The save answers an entry the game holds already, checked under the game's lock.
        saved = _save_posted_hand(request, entry)
        if isinstance(saved, HttpResponse):
            return saved
        # Nothing was stored: the page below draws the form with the reason.
        refused_save = saved
    else:
        resent = _resent(request, game, action="preview")
        if resent:
            return resent
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
    # Past the refusal the game is open for hands, so it was read and replayed above.
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
                hand = services.add_hand(
                    game.pk, number, doc, entry=_posted_entry(request), **entry.author(request)
                )
            except services.EntrySentBefore as sent:
                return _stored_already(request, game, sent.receipt)
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
                preview = services.preview_hand(game, doc, record=record)
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
    resent = _resent(request, game, action="preview")
    if resent:
        return resent
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
    options = {
        "seats": seats,
        "rules": current.rules,
        "scores": report.scores_before,
        "least_wins": len(old.get("wins", [])),
    }
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
                    entry=_posted_entry(request),
                    **entry.author(request),
                )
            except services.EntrySentBefore as sent:
                return _stored_already(request, game, sent.receipt)
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
                preview = services.preview_hand(game, doc, number=number, record=record)
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
            services.delete_hand(game.pk, number, **entry.author(request))
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


@access.hand_entry_game
def hand_undo(request: HttpRequest, entry: access.HandEntry) -> HttpResponse:
    """Undo the last hand, named: the page asks first (on a phone too, without script) and
    the POST carries the hand's number and version, so that a second tap or a stale page
    is refused rather than undoing the hand after it."""
    game = entry.game
    resent = _resent(request, game)
    if resent:
        return resent
    refused = _refuse_hand_changes(request, game)
    if refused:
        return refused
    posted = request.POST.get("number", "") if request.method == "POST" else ""
    if request.method == "POST" and posted.isdigit():
        version = request.POST.get("version", "")[:64]
        try:
            number = services.undo_last_hand(
                game.pk,
                number=int(posted),
                version=version or None,
                entry=_posted_entry(request),
                **entry.author(request),
            )
        except services.EntrySentBefore as sent:
            return _stored_already(request, game, sent.receipt)
        except services.GameChangeRefused as err:
            messages.error(request, say(err))
        else:
            messages.success(request, _("Hand %(number)s undone.") % {"number": number})
        return redirect(game)
    # A GET, or a POST that does not name its hand (a page from before hands were named):
    # the confirmation, naming the hand that would be undone.
    record, names = _load(game)
    if not record["hands"]:
        messages.error(request, _("There is no hand to undo."))
        return redirect(game)
    result = services.replay_record(record)
    number = len(record["hands"])
    last = record["hands"][-1]
    context = {
        "game": game,
        "number": number,
        "round": round_honba(result.hands[-1]),
        "summary": describe_hand(last, names, rules=result.rules),
        "version": services.hand_version(last),
        # The undo's id, made as it is asked for: a second tap undoes nothing more.
        "entry": services.entry_id(None),
    }
    return render(request, "tournaments/hand_undo.html", context)


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


def _kita(value: str | None) -> int:
    """The Norths set aside, as the picker counts them (none when not given)."""
    if not value:
        return 0
    if not value.isdigit() or not value.isascii() or len(value) > 2:
        raise ScoringError(gettext_noop("Kita is a number of Norths set aside, from 0 to 4."))
    return int(value)


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
            kita=_kita(query.get("kita")),
            **{flag: query.get(flag) == "1" for flag in CONDITION_FLAGS},
        )
        options = HandOptions(
            open_tanyao=getattr(rules, "open_tanyao", True),
            kiriage=rules.kiriage,
            double_yakuman=rules.double_yakuman,
            three_player=rules.players == 3,
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
    # Three-player games: how many of the dora are kita, for the kita counter.
    kita = {"kita": value.kita} if rules.players == 3 else {}
    return JsonResponse(
        {
            **kita,
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
