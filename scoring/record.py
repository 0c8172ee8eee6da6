"""The tenbou-game/1 document: parse and validate it, and dump it back unchanged."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from .endings import EndReason
from .errors import Phrase, ScoringError, gettext_noop
from .payouts import AbortReason, Hand, Result, Win, check_value
from .rules import MultiRon, Rules, resolve_rules

FORMAT = "tenbou-game/1"
# Why a game may end before its rules end it: the organiser called time.
ENDED_EARLY = (EndReason.TIME,)
TENTH = Decimal("0.1")

# The fields each kind of hand may carry besides `result` and `riichi`.
_HAND_FIELDS: dict[Result, tuple[str, ...]] = {
    Result.RON: ("wins",),
    Result.TSUMO: ("wins",),
    Result.DRAW: ("tenpai",),
    Result.NAGASHI: ("nagashi", "tenpai"),
    Result.ABORT: ("reason",),
    Result.CHOMBO: ("offender",),
}
# Each result by its name, found without the enum's own (slower) lookup.
_RESULTS: dict[Any, Result] = {result.value: result for result in Result}
# `_check_keys`' allowed fields as sets, made once for each tuple of fields.
_ALLOWED: dict[Sequence[str], frozenset[str]] = {}
A_WIN = Phrase(gettext_noop("a win"))
_WIN_FIELDS = (
    "winner",
    "loser",
    "han",
    "fu",
    "yakuman",
    "pao",
    "pao_yakuman",
    "yaku",
    "dora",
    "open",
    "kita",
)
# Aborts that need a fourth player: four winds discarded, four riichi declared.
_FOUR_PLAYER_ABORTS = (AbortReason.FOUR_WINDS, AbortReason.FOUR_RIICHI)


@dataclass(frozen=True)
class Penalty:
    seat: int
    match_points: Decimal
    reason: str = ""


@dataclass(frozen=True)
class GameRecord:
    """A parsed record. `hands` is None for a final-score-only record."""

    rules_spec: Any  # the `rules` field as written, kept for dumping
    rules: Rules
    players: tuple[str, ...]  # four names, or three in a three-player game
    hands: tuple[Hand, ...] | None
    final_scores: tuple[int, ...] | None = None
    leftover_sticks: int = 0
    penalties: tuple[Penalty, ...] = ()
    # "time" when the organiser ended the game after its last hand; None otherwise.
    ended_early: str | None = None


def _int(value: Any, what: str | Phrase, *, hand: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoringError(
            gettext_noop("%(what)s must be a whole number, not %(value)s"),
            hand=hand,
            what=what,
            value=repr(value),
        )
    return value


def _seat(value: Any, what: str | Phrase, *, hand: int | None = None) -> int:
    if value.__class__ is int and 0 <= value <= 3:
        return value  # the usual case, without building the messages' checks
    seat = _int(value, what, hand=hand)
    if not 0 <= seat <= 3:
        raise ScoringError(
            gettext_noop("%(what)s must be a seat number 0 to 3, not %(seat)s"),
            hand=hand,
            what=what,
            seat=seat,
        )
    return seat


def _seats(value: Any, what: str, *, hand: int | None = None) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise ScoringError(
            gettext_noop("'%(what)s' must be a list of seat numbers"), hand=hand, what=what
        )
    if not value:
        return ()
    in_list = Phrase(gettext_noop("a seat in '%(what)s'"), what=what)
    seats = tuple(_seat(v, in_list, hand=hand) for v in value)
    if len(set(seats)) != len(seats):
        raise ScoringError(gettext_noop("'%(what)s' names a seat twice"), hand=hand, what=what)
    return seats


def _object(value: Any, what: Phrase, *, hand: int | None = None) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ScoringError(gettext_noop("%(what)s must be a JSON object"), hand=hand, what=what)
    return value


def _check_keys(obj: dict[str, Any], allowed: Sequence[str], what: Phrase, hand: int) -> None:
    if obj.keys() <= _ALLOWED.setdefault(allowed, frozenset(allowed)):
        return
    for key in obj:
        if key not in allowed:
            raise ScoringError(
                gettext_noop("%(what)s has an unknown or misplaced field %(key)s"),
                hand=hand,
                what=what,
                key=repr(key),
            )


def _parse_win(obj: Any, n: int) -> Win:
    win = _object(obj, A_WIN, hand=n)
    _check_keys(win, _WIN_FIELDS, A_WIN, n)
    if "winner" not in win:
        raise ScoringError(gettext_noop("a win needs 'winner'"), hand=n)

    def opt_int(key: str) -> int | None:
        value = win.get(key)
        if value is None or value.__class__ is int:
            return value
        return _int(value, f"'{key}'", hand=n)

    yaku = win.get("yaku")
    if yaku is not None and (
        not isinstance(yaku, list) or not all(isinstance(y, str) and y for y in yaku)
    ):
        raise ScoringError(gettext_noop("'yaku' must be a list of yaku names"), hand=n)
    is_open = win.get("open")
    if is_open is not None and not isinstance(is_open, bool):
        raise ScoringError(gettext_noop("'open' must be true or false"), hand=n)
    dora = opt_int("dora")
    if dora is not None and dora < 0:
        raise ScoringError(gettext_noop("'dora' cannot be negative"), hand=n)
    kita = opt_int("kita")
    if kita is not None and kita < 0:
        raise ScoringError(gettext_noop("'kita' cannot be negative"), hand=n)
    return Win(
        winner=_seat(win["winner"], "'winner'", hand=n),
        loser=None if win.get("loser") is None else _seat(win["loser"], "'loser'", hand=n),
        han=opt_int("han"),
        fu=opt_int("fu"),
        yakuman=opt_int("yakuman"),
        pao=None if win.get("pao") is None else _seat(win["pao"], "'pao'", hand=n),
        pao_yakuman=opt_int("pao_yakuman"),
        yaku=tuple(yaku) if yaku is not None else None,
        dora=dora,
        open=is_open,
        kita=kita,
    )


def parse_hand(obj: Any, n: int) -> Hand:
    """One hand object of a record; `n` is its number, from 1, for messages."""
    data = _object(obj, Phrase(gettext_noop("a hand")), hand=n)
    try:
        result = _RESULTS.get(data.get("result")) or Result(data.get("result"))
    except (ValueError, TypeError):
        choices = ", ".join(r.value for r in Result)
        raise ScoringError(
            gettext_noop("unknown result %(result)s; use one of %(choices)s"),
            hand=n,
            result=repr(data.get("result")),
            choices=choices,
        ) from None
    a_hand = Phrase(gettext_noop("a %(result)s hand"), result=result.value)
    _check_keys(data, ("result", "riichi", *_HAND_FIELDS[result]), a_hand, n)
    for key in _HAND_FIELDS[result]:
        if key not in data:
            if key == "tenpai":
                raise ScoringError(
                    gettext_noop(
                        "a %(result)s hand needs 'tenpai' (an empty list if nobody was tenpai)"
                    ),
                    hand=n,
                    result=result.value,
                )
            raise ScoringError(
                gettext_noop("a %(result)s hand needs '%(key)s'"),
                hand=n,
                result=result.value,
                key=key,
            )
    if "riichi" not in data:
        raise ScoringError(
            gettext_noop("every hand needs 'riichi' (an empty list if nobody declared)"), hand=n
        )
    riichi = _seats(data["riichi"], "riichi", hand=n)
    if result in (Result.RON, Result.TSUMO):
        if not isinstance(data["wins"], list) or not data["wins"]:
            raise ScoringError(
                gettext_noop("a %(result)s hand needs 'wins', a list of one or more"),
                hand=n,
                result=result.value,
            )
        wins = tuple(_parse_win(w, n) for w in data["wins"])
        return Hand(result=result, riichi=riichi, wins=wins)
    if result is Result.DRAW:
        return Hand(result=result, riichi=riichi, tenpai=_seats(data["tenpai"], "tenpai", hand=n))
    if result is Result.NAGASHI:
        return Hand(
            result=result,
            riichi=riichi,
            nagashi=_seats(data["nagashi"], "nagashi", hand=n),
            tenpai=_seats(data["tenpai"], "tenpai", hand=n),
        )
    if result is Result.ABORT:
        try:
            reason = AbortReason(data["reason"])
        except ValueError:
            choices = ", ".join(r.value for r in AbortReason)
            raise ScoringError(
                gettext_noop("unknown abort reason %(reason)s; use one of %(choices)s"),
                hand=n,
                reason=repr(data["reason"]),
                choices=choices,
            ) from None
        return Hand(result=result, riichi=riichi, reason=reason)
    return Hand(
        result=result, riichi=riichi, offender=_seat(data["offender"], "'offender'", hand=n)
    )


def _check_seats(hand: Hand, players: int) -> None:
    """Refuse a seat a three-player game does not have (a four-player one has all 0-3)."""
    seats = [*hand.riichi, *hand.tenpai, *hand.nagashi]
    for win in hand.wins:
        seats += [s for s in (win.winner, win.loser, win.pao) if s is not None]
    if hand.offender is not None:
        seats.append(hand.offender)
    for seat in seats:
        if seat >= players:
            raise ScoringError(
                gettext_noop(
                    "seat %(seat)s is not at the table: a three-player game has seats 0 to 2"
                ),
                seat=seat,
            )


def validate_hand(hand: Hand, rules: Rules) -> None:
    """Refuse a hand that cannot have happened under `rules` (no hand number attached)."""
    if rules.players != 4:
        _check_seats(hand, rules.players)
        if hand.reason in _FOUR_PLAYER_ABORTS:
            raise ScoringError(
                gettext_noop("a three-player game has no %(reason)s abort"),
                reason=hand.reason.value,
            )
    if hand.result is Result.RON:
        losers = {w.loser for w in hand.wins}
        if None in losers:
            raise ScoringError(gettext_noop("every win of a ron needs the 'loser' who dealt in"))
        if len(losers) > 1:
            raise ScoringError(gettext_noop("all wins of one ron hand must share the same loser"))
        winners = [w.winner for w in hand.wins]
        if len(set(winners)) != len(winners):
            raise ScoringError(gettext_noop("a seat is listed as winner twice"))
        if any(w.winner == w.loser for w in hand.wins):
            raise ScoringError(gettext_noop("the loser cannot also be a winner"))
        if len(hand.wins) > 3:
            raise ScoringError(gettext_noop("at most three players can ron one discard"))
        if len(hand.wins) == 3 and rules.multi_ron is MultiRon.DOUBLE:
            raise ScoringError(
                gettext_noop(
                    "three rons on one discard are an abortive draw under these rules: "
                    "record it as an abort with reason triple_ron"
                )
            )
    if hand.result is Result.TSUMO:
        if len(hand.wins) != 1:
            raise ScoringError(gettext_noop("a tsumo has exactly one winner"))
        if hand.wins[0].loser is not None:
            raise ScoringError(gettext_noop("a tsumo has no loser: remove 'loser' or record a ron"))
    for win in hand.wins:
        check_value(han=win.han, fu=win.fu, yakuman=win.yakuman, tsumo=hand.result is Result.TSUMO)
        if win.pao is not None:
            if win.pao == win.winner:
                raise ScoringError(
                    gettext_noop("the winner cannot be liable (pao) for their own hand")
                )
            if win.yakuman is None:
                raise ScoringError(gettext_noop("pao applies only to a yakuman win"))
        if win.pao_yakuman is not None:
            if win.pao is None:
                raise ScoringError(gettext_noop("'pao_yakuman' needs 'pao', the liable player"))
            if not 1 <= win.pao_yakuman <= (win.yakuman or 0):
                raise ScoringError(
                    gettext_noop(
                        "'pao_yakuman' must be 1 to the win's yakuman multiple (%(yakuman)s),"
                        " not %(given)s"
                    ),
                    yakuman=win.yakuman,
                    given=win.pao_yakuman,
                )
    if hand.result is Result.NAGASHI:
        if not rules.nagashi_mangan:
            raise ScoringError(gettext_noop("nagashi mangan is not played under these rules"))
        if not hand.nagashi:
            raise ScoringError(gettext_noop("a nagashi hand needs at least one seat in 'nagashi'"))
    if hand.result is Result.ABORT:
        if hand.reason is AbortReason.TRIPLE_RON:
            if rules.multi_ron is not MultiRon.DOUBLE:
                raise ScoringError(
                    gettext_noop(
                        "a triple ron is not an abortive draw under these rules: record the rons"
                    )
                )
        elif not rules.abortive_draws:
            raise ScoringError(gettext_noop("abortive draws are not played under these rules"))


def parse_record(data: Any) -> GameRecord:
    """Check a tenbou-game/1 document's shape and build a `GameRecord`.

    >>> parse_record({"format": "tenbou-game/1", "rules": "ari-ari",
    ...               "players": ["A", "B", "C", "D"], "hands": []}).players
    ('A', 'B', 'C', 'D')
    """
    doc = _object(data, Phrase(gettext_noop("a game record")))
    if doc.get("format") != FORMAT:
        raise ScoringError(
            gettext_noop("not a game record: 'format' must be %(format)s"), format=repr(FORMAT)
        )
    allowed = ("format", "rules", "players", "hands", "final_scores", "leftover_sticks")
    for key in doc:
        if key not in (*allowed, "penalties", "ended_early"):
            raise ScoringError(
                gettext_noop("unknown field %(key)s in the game record"), key=repr(key)
            )
    if "rules" not in doc:
        raise ScoringError(
            gettext_noop("the record needs 'rules': a preset name or preset with overrides")
        )
    rules = resolve_rules(doc["rules"])
    players = doc.get("players")
    _check_players(players, rules)
    penalties = tuple(_parse_penalty(p) for p in _list(doc.get("penalties", []), "penalties"))
    for penalty in penalties:
        if penalty.seat >= rules.players:
            raise ScoringError(
                gettext_noop(
                    "a penalty's seat %(seat)s is not at the table: a three-player game has"
                    " seats 0 to 2"
                ),
                seat=penalty.seat,
            )
    ended_early = doc.get("ended_early")
    if ended_early is not None and ended_early not in ENDED_EARLY:
        raise ScoringError(
            gettext_noop("'ended_early' must be %(choices)s, not %(given)s"),
            choices=" or ".join(repr(str(e)) for e in ENDED_EARLY),
            given=repr(ended_early),
        )

    if "final_scores" in doc:
        if ended_early is not None:
            raise ScoringError(
                gettext_noop(
                    "'ended_early' needs the hands played; a final-scores record is finished"
                    " already"
                )
            )
        if "hands" in doc:
            raise ScoringError(gettext_noop("give either 'hands' or 'final_scores', not both"))
        scores = doc["final_scores"]
        if not isinstance(scores, list) or len(scores) != rules.players:
            if rules.players == 3:
                raise ScoringError(
                    gettext_noop("'final_scores' must be three scores in a three-player game")
                )
            raise ScoringError(gettext_noop("'final_scores' must be four scores, one per seat"))
        a_score = Phrase(gettext_noop("a final score"))
        finals = tuple(_int(s, a_score) for s in scores)
        if any(s % 100 for s in finals):
            raise ScoringError(gettext_noop("final scores are multiples of 100"))
        sticks = _int(doc.get("leftover_sticks", 0), "'leftover_sticks'")
        if sticks < 0:
            raise ScoringError(gettext_noop("'leftover_sticks' cannot be negative"))
        expected = rules.players * rules.start_points
        if sum(finals) + 1000 * sticks != expected:
            numbers = {
                "players": rules.players,
                "sum": f"{sum(finals):,}",
                "expected": f"{expected:,}",
                "start": f"{rules.start_points:,}",
            }
            if sticks:
                raise ScoringError(
                    gettext_noop(
                        "the final scores add up to %(sum)s plus %(sticks)s stick(s) on the "
                        "table; they must make %(expected)s (%(players)s x %(start)s)"
                    ),
                    sticks=sticks,
                    **numbers,
                )
            raise ScoringError(
                gettext_noop(
                    "the final scores add up to %(sum)s; they must make %(expected)s"
                    " (%(players)s x %(start)s)"
                ),
                **numbers,
            )
        return GameRecord(doc["rules"], rules, tuple(players), None, finals, sticks, penalties)
    if "leftover_sticks" in doc:
        raise ScoringError(
            gettext_noop("'leftover_sticks' goes with 'final_scores'; with hands it is computed")
        )
    hands = _list(doc.get("hands"), "hands")
    parsed = tuple(parse_hand(h, n) for n, h in enumerate(hands, start=1))
    if ended_early is not None and not parsed:
        raise ScoringError(
            gettext_noop(
                "a game cannot end early before its first hand: enter the hands played,"
                " or remove 'ended_early'"
            )
        )
    return GameRecord(doc["rules"], rules, tuple(players), parsed, None, 0, penalties, ended_early)


def _check_players(players: Any, rules: Rules) -> None:
    """Names, one per seat: four, or three under three-player rules; never a name twice."""
    names_ok = isinstance(players, list) and all(isinstance(p, str) and p.strip() for p in players)
    if names_ok and len(players) != rules.players and len(players) in (3, 4):
        raise ScoringError(
            gettext_noop(
                "'players' has %(given)s names, but these are %(rules)s-player rules: give"
                " %(rules)s names, or rules for %(given)s players"
            ),
            given=len(players),
            rules=rules.players,
        )
    if not names_ok or len(players) != rules.players:
        if rules.players == 3:
            raise ScoringError(
                gettext_noop("'players' must be three names, in starting seat order")
            )
        raise ScoringError(gettext_noop("'players' must be four names, in starting seat order"))
    if len(set(players)) != len(players):
        raise ScoringError(gettext_noop("'players' names a player twice"))


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise ScoringError(gettext_noop("'%(what)s' must be a list"), what=what)
    return value


def _parse_penalty(obj: Any) -> Penalty:
    data = _object(obj, Phrase(gettext_noop("a penalty")))
    for key in data:
        if key not in ("seat", "match_points", "reason"):
            raise ScoringError(
                gettext_noop("a penalty has an unknown field %(key)s"), key=repr(key)
            )
    seat = _seat(data.get("seat"), Phrase(gettext_noop("a penalty's 'seat'")))
    value = data.get("match_points")
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ScoringError(gettext_noop("a penalty needs 'match_points', a number such as -20.0"))
    points = Decimal(str(value))
    if points != points.quantize(TENTH):
        raise ScoringError(gettext_noop("penalty match points are kept to tenths, e.g. -20.0"))
    reason = data.get("reason", "")
    if not isinstance(reason, str):
        raise ScoringError(gettext_noop("a penalty's 'reason' must be text"))
    return Penalty(seat, points, reason)


def _dump_win(win: Win) -> dict[str, Any]:
    out: dict[str, Any] = {"winner": win.winner}
    for key in ("loser", "han", "fu", "yakuman", "pao", "pao_yakuman", "dora", "open", "kita"):
        value = getattr(win, key)
        if value is not None:
            out[key] = value
    if win.yaku is not None:
        out["yaku"] = list(win.yaku)
    return out


def dump_hand(hand: Hand) -> dict[str, Any]:
    """A hand as its tenbou-game/1 object: the one writer of hand objects (the app's
    models write theirs through it too).

    >>> dump_hand(Hand(result=Result.DRAW, riichi=(1,), tenpai=(1, 2)))
    {'result': 'draw', 'riichi': [1], 'tenpai': [1, 2]}
    """
    out: dict[str, Any] = {"result": hand.result.value, "riichi": list(hand.riichi)}
    if hand.result in (Result.RON, Result.TSUMO):
        out["wins"] = [_dump_win(w) for w in hand.wins]
    elif hand.result is Result.DRAW:
        out["tenpai"] = list(hand.tenpai)
    elif hand.result is Result.NAGASHI:
        out["nagashi"] = list(hand.nagashi)
        out["tenpai"] = list(hand.tenpai)
    elif hand.result is Result.ABORT:
        assert hand.reason is not None
        out["reason"] = hand.reason.value
    else:
        out["offender"] = hand.offender
    return out


def _number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


def dump_record(record: GameRecord) -> dict[str, Any]:
    """The document for a record; `parse_record(dump_record(r)) == r`."""
    out: dict[str, Any] = {
        "format": FORMAT,
        "rules": record.rules_spec,
        "players": list(record.players),
    }
    if record.hands is None:
        assert record.final_scores is not None
        out["final_scores"] = list(record.final_scores)
        out["leftover_sticks"] = record.leftover_sticks
    else:
        out["hands"] = [dump_hand(h) for h in record.hands]
    if record.ended_early is not None:
        out["ended_early"] = record.ended_early
    if record.penalties:
        out["penalties"] = [
            {"seat": p.seat, "match_points": float(p.match_points), "reason": p.reason}
            for p in record.penalties
        ]
    return out
