"""What each hand pays: hand values from han and fu, wins, draws, nagashi and chombo.

A hand is settled against the table as it stood before the hand (dealer, honba, sticks)
and yields each seat's whole change, riichi sticks included, so that the scores plus
the sticks on the table never change in total.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .errors import ScoringError, gettext_noop, way_of_winning
from .rules import (
    Chombo,
    Kazoe,
    MultiRon,
    MultiRonHonba,
    MultiRonSticks,
    PaoHonba,
    PaoScope,
    Rules,
    TsumoLoss,
)

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
    # How many of the win's yakuman multiples the liable player answers for (None: 1).
    pao_yakuman: int | None = None
    yaku: tuple[str, ...] | None = None
    dora: int | None = None
    open: bool | None = None
    # North tiles set aside in a three-player game (statistics only: `han` counts them).
    kita: int | None = None


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

    deltas: tuple[int, ...]  # one per seat: four, or three in a three-player game
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
    if yakuman is not None:
        if han is not None or fu is not None:
            raise ScoringError(
                gettext_noop("a yakuman win takes no han or fu: give only 'yakuman'")
            )
        if not 1 <= yakuman <= MAX_YAKUMAN:
            raise ScoringError(
                gettext_noop("yakuman must be 1 to %(most)s (the multiple), not %(given)s"),
                most=MAX_YAKUMAN,
                given=yakuman,
            )
        return
    if han is None:
        raise ScoringError(
            gettext_noop("a win needs han (and fu up to 4 han), or a yakuman multiple")
        )
    if han < 1:
        raise ScoringError(
            gettext_noop("%(han)s han is not a win: a hand needs at least 1 han"), han=han
        )
    if fu is None:
        if han <= 4:
            raise ScoringError(gettext_noop("fu is needed for a hand of %(han)s han"), han=han)
        return
    if fu not in VALID_FU:
        raise ScoringError(
            gettext_noop("%(fu)s fu is not possible: fu is 20, 25 or 30 to 110 in tens"), fu=fu
        )
    if han >= 5:
        return
    if fu == 20 and not tsumo:
        raise ScoringError(
            gettext_noop("%(han)s han 20 fu is not a possible ron: 20 fu is only a pinfu tsumo"),
            han=han,
        )
    if fu == 20 and han == 1:
        raise ScoringError(
            gettext_noop("1 han 20 fu is not a possible tsumo: pinfu tsumo is at least 2 han")
        )
    if fu == 25 and han == 1:
        raise ScoringError(
            gettext_noop("1 han 25 fu is not a possible %(way)s: seven pairs is at least 2 han"),
            way=way_of_winning(tsumo),
        )
    if fu == 25 and han == 2 and tsumo:
        raise ScoringError(
            gettext_noop("2 han 25 fu is not a possible tsumo: seven pairs tsumo is 3 han")
        )


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


def _seats_after(seat: int, players: int = 4) -> list[int]:
    """The other seats, counterclockwise (in turn order) from `seat`."""
    return [(seat + step) % players for step in range(1, players)]


def _tsumo_shares(winner: int, base: int, *, dealer: int, rules: Rules) -> list[tuple[int, int]]:
    """(payer, amount) for a tsumo worth `base`, before honba, in turn order from the winner.

    With three players each payer pays its four-player share; the absent North's share is
    lost (`tsumo_loss: on`) or split between the two, each half rounded up to 100.

    >>> from scoring.rules import PRESETS
    >>> _tsumo_shares(1, 2000, dealer=0, rules=PRESETS["tenhou-sanma"])
    [(2, 2000), (0, 4000)]
    """
    from_dealer, from_other = tsumo_values(base, dealer=winner == dealer)
    shares = [
        (payer, from_dealer if payer == dealer else from_other)
        for payer in _seats_after(winner, rules.players)
    ]
    if rules.players == 4 or rules.tsumo_loss is TsumoLoss.ON:
        return shares
    # The North would have paid as a non-dealer (the dealer is one of the three seated).
    half = round_up_100(from_other // 2)
    return [(payer, amount + half) for payer, amount in shares]


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
        order = {seat: i for i, seat in enumerate(_seats_after(loser, rules.players))}
        paid = tuple(sorted(hand.wins, key=lambda w: order[w.winner]))
        if rules.multi_ron is MultiRon.HEAD_BUMP:
            paid = paid[:1]
    # The first paid winner counterclockwise from the discarder takes the honba and the
    # sticks, unless the rules pay the honba to each winner or give riichi sticks back.
    for index, win in enumerate(paid):
        gets_honba = index == 0 or rules.multi_ron_honba is MultiRonHonba.EACH
        _pay_one(win, deltas, dealer=dealer, honba=honba if gets_honba else 0, rules=rules)
    if rules.multi_ron_sticks is MultiRonSticks.OWN_BACK:
        for win in paid[1:]:
            if win.winner in hand.riichi:
                deltas[win.winner] += STICK
                sticks -= 1
    deltas[paid[0].winner] += sticks * STICK
    return tuple(w.winner for w in paid)


def _pao_multiples(win: Win, rules: Rules) -> tuple[int, int]:
    """(yakuman multiples the liable player answers for, the rest paid as usual)."""
    multiples = (win.yakuman or 1) if rules.double_yakuman else 1
    if win.pao is None:
        return 0, multiples
    if rules.pao_scope is PaoScope.WHOLE:
        return multiples, 0
    fed = min(win.pao_yakuman or 1, multiples)
    return fed, multiples - fed


def _pay_one(win: Win, deltas: list[int], *, dealer: int, honba: int, rules: Rules) -> None:
    winner_is_dealer = win.winner == dealer
    honba_total = honba * rules.honba_value
    if win.pao is not None and win.pao != win.loser:
        _pay_with_pao(win, deltas, dealer=dealer, honba_total=honba_total, rules=rules)
        return
    base = base_points(han=win.han, fu=win.fu, yakuman=win.yakuman, rules=rules)
    if win.loser is None:
        _pay_tsumo(win.winner, base, deltas, dealer=dealer, honba_total=honba_total, rules=rules)
        return
    value = ron_value(base, dealer=winner_is_dealer) + honba_total
    deltas[win.loser] -= value
    deltas[win.winner] += value


def _pay_tsumo(
    winner: int, base: int, deltas: list[int], *, dealer: int, honba_total: int, rules: Rules
):
    # Each payer pays its part of the honba: 100 a honba in both games by default.
    honba_each = honba_total // (rules.players - 1)
    for payer, amount in _tsumo_shares(winner, base, dealer=dealer, rules=rules):
        pay = amount + honba_each
        deltas[payer] -= pay
        deltas[winner] += pay


def _pay_with_pao(win: Win, deltas: list[int], *, dealer: int, honba_total: int, rules: Rules):
    """A yakuman win with a liable player (pao) other than the discarder.

    The liable player pays the fed part alone on a tsumo and half of it on a ron; the
    rest of the win (under `pao_scope: fed_yakuman`) is paid as an ordinary win.
    """
    assert win.pao is not None
    fed, rest = _pao_multiples(win, rules)
    winner_is_dealer = win.winner == dealer
    if win.loser is None:
        fed_total = sum(
            amount
            for _, amount in _tsumo_shares(win.winner, 8000 * fed, dealer=dealer, rules=rules)
        )
        if rest:
            # Only part of the win is liable: the honba go with the ordinary part.
            _pay_tsumo(
                win.winner, 8000 * rest, deltas, dealer=dealer, honba_total=honba_total, rules=rules
            )
            honba_total = 0
        deltas[win.pao] -= fed_total + honba_total
        deltas[win.winner] += fed_total + honba_total
        return
    fed_value = ron_value(8000 * fed, dealer=winner_is_dealer)
    rest_value = ron_value(8000 * rest, dealer=winner_is_dealer)
    liable_share = round_up_100(fed_value // 2)
    discarder_share = fed_value - liable_share + rest_value
    if rules.pao_honba is PaoHonba.LIABLE:
        liable_share += honba_total
    else:
        discarder_share += honba_total
    deltas[win.pao] -= liable_share
    deltas[win.loser] -= discarder_share
    deltas[win.winner] += liable_share + discarder_share


def _pay_noten(tenpai: tuple[int, ...], deltas: list[int], rules: Rules) -> None:
    if len(tenpai) in (0, rules.players):
        return
    noten = [s for s in range(rules.players) if s not in tenpai]
    for seat in tenpai:
        deltas[seat] += rules.noten_total // len(tenpai)
    for seat in noten:
        deltas[seat] -= rules.noten_total // len(noten)


def _pay_mangan_tsumo(
    receiver: int, deltas: list[int], *, dealer: int, sign: int, rules: Rules
) -> None:
    """A mangan tsumo from the others (sign 1), or paid to them (sign -1, chombo); with
    three players, as a three-player tsumo is paid (`tsumo_loss`)."""
    for seat, amount in _tsumo_shares(receiver, MANGAN_BASE, dealer=dealer, rules=rules):
        deltas[seat] -= sign * amount
        deltas[receiver] += sign * amount


def settle(hand: Hand, *, dealer: int, honba: int, sticks: int, rules: Rules) -> Settlement:
    """Settle one hand against the table before it.

    >>> h = Hand(result=Result.RON, riichi=(2,), wins=(Win(winner=1, loser=0, han=3, fu=40),))
    >>> settle(h, dealer=0, honba=0, sticks=0, rules=Rules()).deltas
    (-5200, 6200, -1000, 0)
    """
    deltas = [0] * rules.players
    if hand.result is Result.CHOMBO:
        # The hand is replayed and riichi sticks put out in it go back: nothing moves
        # but the chombo payment itself.
        assert hand.offender is not None
        if rules.chombo is Chombo.REVERSE_MANGAN:
            _pay_mangan_tsumo(hand.offender, deltas, dealer=dealer, sign=-1, rules=rules)
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
            _pay_mangan_tsumo(seat, deltas, dealer=dealer, sign=1, rules=rules)
    else:
        _pay_noten(hand.tenpai, deltas, rules)
    keeps = dealer_tenpai and rules.dealer_repeat_on_tenpai
    return Settlement(tuple(deltas), on_table, keeps, True, False, False, dealer_tenpai)
