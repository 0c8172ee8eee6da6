"""What each hand pays: hand values from han and fu, wins, draws, nagashi and chombo.

A hand is settled against the table as it stood before the hand (dealer, honba, sticks)
and yields each seat's whole change, riichi sticks included, so that the scores plus
the sticks on the table never change in total.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .errors import ScoringError
from .rules import Chombo, Kazoe, MultiRon, Rules

STICK = 1000
VALID_FU = (20, 25, *range(30, 111, 10))
MAX_YAKUMAN = 6
MANGAN_BASE = 2000


class Result(StrEnum):
    RON = "ron"
    TSUMO = "tsumo"
    DRAW = "draw"
    NAGASHI = "nagashi"
    ABORT = "abort"
    CHOMBO = "chombo"


class AbortReason(StrEnum):
    NINE_TERMINALS = "nine_terminals"
    FOUR_WINDS = "four_winds"
    FOUR_KANS = "four_kans"
    FOUR_RIICHI = "four_riichi"
    TRIPLE_RON = "triple_ron"


@dataclass(frozen=True, kw_only=True)
class Win:
    """One winner's hand: han and fu, or a yakuman multiple."""

    winner: int
    loser: int | None = None
    han: int | None = None
    fu: int | None = None
    yakuman: int | None = None
    pao: int | None = None
    yaku: tuple[str, ...] | None = None
    dora: int | None = None
    open: bool | None = None


@dataclass(frozen=True, kw_only=True)
class Hand:
    """What happened in one hand, exactly as a tenbou-game/1 record holds it."""

    result: Result
    riichi: tuple[int, ...] = ()
    wins: tuple[Win, ...] = ()
    tenpai: tuple[int, ...] = ()
    nagashi: tuple[int, ...] = ()
    reason: AbortReason | None = None
    offender: int | None = None


@dataclass(frozen=True)
class Settlement:
    """The outcome of one hand: every seat's change and what it means for the deal."""

    deltas: tuple[int, int, int, int]
    sticks_after: int
    dealer_keeps: bool
    adds_honba: bool
    replayed: bool  # a chombo: the same hand is played again
    dealer_won: bool
    dealer_tenpai: bool


def round_up_100(points: int) -> int:
    return -(-points // 100) * 100


def check_value(*, han: int | None, fu: int | None, yakuman: int | None, tsumo: bool) -> None:
    """Refuse a han/fu or yakuman value no real hand can have.

    >>> check_value(han=1, fu=20, yakuman=None, tsumo=False)
    Traceback (most recent call last):
    ...
    scoring.errors.ScoringError: 1 han 20 fu is not a possible ron: 20 fu is only a pinfu tsumo
    """
    way = "tsumo" if tsumo else "ron"
    if yakuman is not None:
        if han is not None or fu is not None:
            raise ScoringError("a yakuman win takes no han or fu: give only 'yakuman'")
        if not 1 <= yakuman <= MAX_YAKUMAN:
            raise ScoringError(f"yakuman must be 1 to {MAX_YAKUMAN} (the multiple), not {yakuman}")
        return
    if han is None:
        raise ScoringError("a win needs han (and fu up to 4 han), or a yakuman multiple")
    if han < 1:
        raise ScoringError(f"{han} han is not a win: a hand needs at least 1 han")
    if fu is None:
        if han <= 4:
            raise ScoringError(f"fu is needed for a hand of {han} han")
        return
    if fu not in VALID_FU:
        raise ScoringError(f"{fu} fu is not possible: fu is 20, 25 or 30 to 110 in tens")
    if han >= 5:
        return
    if fu == 20 and not tsumo:
        raise ScoringError(f"{han} han 20 fu is not a possible ron: 20 fu is only a pinfu tsumo")
    if fu == 20 and han == 1:
        raise ScoringError("1 han 20 fu is not a possible tsumo: pinfu tsumo is at least 2 han")
    if fu == 25 and han == 1:
        raise ScoringError(f"1 han 25 fu is not a possible {way}: seven pairs is at least 2 han")
    if fu == 25 and han == 2 and tsumo:
        raise ScoringError("2 han 25 fu is not a possible tsumo: seven pairs tsumo is 3 han")


def base_points(*, han: int | None, fu: int | None, yakuman: int | None, rules: Rules) -> int:
    """The base points of a hand, before the dealer and ron/tsumo multipliers.

    >>> base_points(han=3, fu=40, yakuman=None, rules=Rules())
    1280
    >>> base_points(han=None, fu=None, yakuman=2, rules=Rules())
    16000
    """
    if yakuman is not None:
        return 8000 * (yakuman if rules.double_yakuman else 1)
    assert han is not None
    if han >= 13:
        return 8000 if rules.kazoe is Kazoe.YAKUMAN else 6000
    if han >= 11:
        return 6000
    if han >= 8:
        return 4000
    if han >= 6:
        return 3000
    if han == 5:
        return MANGAN_BASE
    assert fu is not None
    if rules.kiriage and (han, fu) in ((4, 30), (3, 60)):
        return MANGAN_BASE
    return min(fu * 2 ** (han + 2), MANGAN_BASE)


def ron_value(base: int, *, dealer: bool) -> int:
    """What the discarder pays for a ron, before honba. 1280 base: 5,200 or 7,700."""
    return round_up_100(base * (6 if dealer else 4))


def tsumo_values(base: int, *, dealer: bool) -> tuple[int, int]:
    """(what the dealer pays, what each other player pays) for a tsumo, before honba.

    A dealer's tsumo is paid the same by all three: (2600, 2600) for 1280 base.
    """
    if dealer:
        each = round_up_100(base * 2)
        return each, each
    return round_up_100(base * 2), round_up_100(base)


def _seats_after(seat: int) -> list[int]:
    """The other seats, counterclockwise (in turn order) from `seat`."""
    return [(seat + step) % 4 for step in (1, 2, 3)]


def _settle_wins(
    hand: Hand, deltas: list[int], *, dealer: int, honba: int, sticks: int, rules: Rules
) -> tuple[int, ...]:
    """Pay the wins of a ron or tsumo hand; return the seats that were paid."""
    if hand.result is Result.TSUMO:
        win = hand.wins[0]
        paid = (win,)
    else:
        loser = hand.wins[0].loser
        assert loser is not None
        order = {seat: i for i, seat in enumerate(_seats_after(loser))}
        paid = tuple(sorted(hand.wins, key=lambda w: order[w.winner]))
        if rules.multi_ron is MultiRon.HEAD_BUMP:
            paid = paid[:1]
    # Honba and the sticks go to the first paid winner counterclockwise from the discarder.
    for index, win in enumerate(paid):
        honba_here = honba if index == 0 else 0
        _pay_one(win, deltas, dealer=dealer, honba=honba_here, rules=rules)
        if index == 0:
            deltas[win.winner] += sticks * STICK
    return tuple(w.winner for w in paid)


def _pay_one(win: Win, deltas: list[int], *, dealer: int, honba: int, rules: Rules) -> None:
    base = base_points(han=win.han, fu=win.fu, yakuman=win.yakuman, rules=rules)
    winner_is_dealer = win.winner == dealer
    honba_total = honba * rules.honba_value
    if win.loser is None:
        from_dealer, from_other = tsumo_values(base, dealer=winner_is_dealer)
        payers = _seats_after(win.winner)
        amounts = {p: (from_dealer if p == dealer else from_other) for p in payers}
        if win.pao is not None:
            # The liable player pays the whole hand and the honba alone.
            total = sum(amounts.values()) + honba_total
            deltas[win.pao] -= total
            deltas[win.winner] += total
            return
        for payer, amount in amounts.items():
            pay = amount + honba_total // 3
            deltas[payer] -= pay
            deltas[win.winner] += pay
        return
    value = ron_value(base, dealer=winner_is_dealer)
    if win.pao is not None and win.pao != win.loser:
        # Liable player and discarder share the hand; the discarder pays the honba.
        liable_share = round_up_100(value // 2)
        deltas[win.pao] -= liable_share
        deltas[win.loser] -= value - liable_share + honba_total
    else:
        deltas[win.loser] -= value + honba_total
    deltas[win.winner] += value + honba_total


def _pay_noten(tenpai: tuple[int, ...], deltas: list[int], rules: Rules) -> None:
    if len(tenpai) in (0, 4):
        return
    noten = [s for s in range(4) if s not in tenpai]
    for seat in tenpai:
        deltas[seat] += rules.noten_total // len(tenpai)
    for seat in noten:
        deltas[seat] -= rules.noten_total // len(noten)


def _pay_mangan_tsumo(receiver: int, deltas: list[int], *, dealer: int, sign: int) -> None:
    """A mangan tsumo from the other three (sign 1), or paid to them (sign -1, chombo)."""
    from_dealer, from_other = tsumo_values(MANGAN_BASE, dealer=receiver == dealer)
    for seat in _seats_after(receiver):
        amount = from_dealer if seat == dealer else from_other
        deltas[seat] -= sign * amount
        deltas[receiver] += sign * amount


def settle(hand: Hand, *, dealer: int, honba: int, sticks: int, rules: Rules) -> Settlement:
    """Settle one hand against the table before it.

    >>> h = Hand(result=Result.RON, riichi=(2,), wins=(Win(winner=1, loser=0, han=3, fu=40),))
    >>> settle(h, dealer=0, honba=0, sticks=0, rules=Rules()).deltas
    (-5200, 6200, -1000, 0)
    """
    deltas = [0, 0, 0, 0]
    if hand.result is Result.CHOMBO:
        # The hand is replayed and riichi sticks put out in it go back: nothing moves
        # but the chombo payment itself.
        assert hand.offender is not None
        if rules.chombo is Chombo.REVERSE_MANGAN:
            _pay_mangan_tsumo(hand.offender, deltas, dealer=dealer, sign=-1)
        return Settlement(tuple(deltas), sticks, True, False, True, False, False)

    for seat in hand.riichi:
        deltas[seat] -= STICK
    on_table = sticks + len(hand.riichi)

    if hand.result in (Result.RON, Result.TSUMO):
        paid = _settle_wins(hand, deltas, dealer=dealer, honba=honba, sticks=on_table, rules=rules)
        dealer_won = dealer in paid
        return Settlement(tuple(deltas), 0, dealer_won, dealer_won, False, dealer_won, False)

    dealer_tenpai = dealer in hand.tenpai
    if hand.result is Result.ABORT:
        return Settlement(tuple(deltas), on_table, True, True, False, False, dealer_tenpai)
    if hand.result is Result.NAGASHI:
        for seat in hand.nagashi:
            _pay_mangan_tsumo(seat, deltas, dealer=dealer, sign=1)
    else:
        _pay_noten(hand.tenpai, deltas, rules)
    keeps = dealer_tenpai and rules.dealer_repeat_on_tenpai
    return Settlement(tuple(deltas), on_table, keeps, True, False, False, dealer_tenpai)
