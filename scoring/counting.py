"""Counting a hand from its yaku: what a player knows at the table (the yaku, open or
closed, the dora) turned into han or a yakuman multiple, with the fu where the yaku alone
decide them. Combinations no hand can hold are refused with the reason.

>>> c = count_yaku(["riichi", "menzen_tsumo", "pinfu"], is_open=False, dora=1, tsumo=True)
>>> c.han, c.fu, c.yakuman
(4, 20, 0)
>>> count_yaku(["pinfu"], is_open=True).han
Traceback (most recent call last):
...
scoring.errors.ScoringError: Pinfu needs a closed hand: untick it, or choose Closed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .errors import Phrase, ScoringError, Term, gettext_noop, way_of_winning
from .payouts import MAX_YAKUMAN
from .yaku import EXCLUSIVE, YAKU, Yaku

# Yaku that no single hand can hold together (beyond EXCLUSIVE, where one includes the
# other), each with why.
_SEVEN_PAIRS = Phrase(gettext_noop("seven pairs have no triplets, sequences or kans"))
_HONOURS = Phrase(gettext_noop("it has honours or terminals"))
_CONFLICTS: tuple[tuple[str, frozenset[str], Phrase], ...] = (
    (
        "chiitoitsu",
        frozenset(
            {
                "pinfu", "iipeikou", "ryanpeikou", "toitoi", "sanankou", "sankantsu",
                "sanshoku", "sanshoku_doukou", "ittsu", "chanta", "junchan", "shousangen",
                "seat_wind", "round_wind", "double_wind", "haku", "hatsu", "chun", "rinshan",
                "chankan",
            }
        ),
        _SEVEN_PAIRS,
    ),
    (
        "pinfu",
        frozenset(
            {
                "toitoi", "sanankou", "sankantsu", "sanshoku_doukou", "shousangen",
                "honroutou", "seat_wind", "round_wind", "double_wind", "haku", "hatsu", "chun",
                "rinshan",
            }
        ),
        Phrase(gettext_noop("pinfu is four sequences and a pair worth no fu")),
    ),
    (
        "tanyao",
        frozenset(
            {
                "chanta", "junchan", "honroutou", "honitsu", "seat_wind", "round_wind",
                "double_wind", "haku", "hatsu", "chun", "shousangen",
            }
        ),
        Phrase(gettext_noop("tanyao has no honours or terminals, and the other needs them")),
    ),
    (
        "toitoi",
        frozenset({"iipeikou", "ryanpeikou", "sanshoku", "ittsu", "chanta", "junchan"}),
        Phrase(gettext_noop("toitoi has no sequences")),
    ),
    (
        "ittsu",
        frozenset({"chanta", "junchan", "sanshoku"}),
        Phrase(gettext_noop("ittsu is three runs of one suit")),
    ),
    ("chinitsu", frozenset({"seat_wind", "round_wind", "double_wind", "haku", "hatsu",
                            "chun", "shousangen", "chanta", "honroutou", "sanshoku",
                            "sanshoku_doukou"}),
     Phrase(gettext_noop("chinitsu is one suit with no honours"))),
    (
        "honitsu",
        frozenset({"sanshoku", "sanshoku_doukou"}),
        Phrase(gettext_noop("honitsu is one suit and honours")),
    ),
)  # fmt: skip
_DORA = Phrase(gettext_noop("Dora"))
_URA = Phrase(gettext_noop("Ura dora"))
_RED_FIVES = Phrase(gettext_noop("Red fives"))
_NEEDS_TSUMO = ("menzen_tsumo", "haitei", "rinshan", "tenhou", "chiihou")
_NEEDS_RON = ("houtei", "chankan", "renhou")
_NEEDS_RIICHI = ("ippatsu",)

# Most dora one hand can hold: 4 of each of the (at most 5) dora and 5 ura kinds, and red
# fives; a counter above this is a mistyped number.
MAX_DORA = 35


@dataclass(frozen=True)
class Count:
    """A hand counted from its yaku. `han` includes the dora; a yakuman hand has
    `yakuman` > 0 and `han` None. `fu` is set only where the yaku decide it."""

    yaku: tuple[str, ...]
    is_open: bool
    dora: int
    han: int | None
    yakuman: int
    fu: int | None

    def as_win(self) -> dict[str, object]:
        """The statistics fields of a record win: yaku, dora, open."""
        return {"yaku": list(self.yaku), "dora": self.dora, "open": self.is_open}


def count_yaku(
    keys: Iterable[str],
    *,
    is_open: bool,
    dora: int = 0,
    ura: int = 0,
    aka: int = 0,
    tsumo: bool | None = None,
    open_tanyao: bool = True,
) -> Count:
    """Add up ticked yaku and dora. `tsumo` None: how the hand was won is not known yet.
    `open_tanyao` False: tanyao needs a closed hand (no kuitan)."""
    chosen = list(dict.fromkeys(keys))
    for key in chosen:
        if key not in YAKU:
            raise ScoringError(
                gettext_noop("Unknown yaku %(key)s: reload the page and tick it again."),
                key=repr(key),
            )
    yakus = [YAKU[k] for k in chosen]
    for what, number in ((_DORA, dora), (_URA, ura), (_RED_FIVES, aka)):
        if not 0 <= number <= MAX_DORA:
            raise ScoringError(
                gettext_noop("%(what)s: enter a number from 0 to %(most)s."),
                what=what,
                most=MAX_DORA,
            )
    _refuse_impossible(yakus, is_open=is_open, ura=ura, tsumo=tsumo, open_tanyao=open_tanyao)
    total_dora = dora + ura + aka
    order = tuple(y.key for y in yakus)
    multiple = sum(y.yakuman for y in yakus)
    if multiple:
        if multiple > MAX_YAKUMAN:
            raise ScoringError(
                gettext_noop(
                    "That makes %(count)s yakuman, more than the %(most)s one hand can hold."
                ),
                count=multiple,
                most=MAX_YAKUMAN,
            )
        yakuman_keys = tuple(y.key for y in yakus if y.yakuman)
        return Count(yakuman_keys, is_open, total_dora, None, multiple, None)
    if not yakus:
        if total_dora:
            raise ScoringError(
                gettext_noop("Tick at least one yaku: dora alone do not make a winning hand.")
            )
        raise ScoringError(gettext_noop("Tick the hand's yaku (at least one)."))
    han = sum(y.han(is_open=is_open) or 0 for y in yakus) + total_dora
    return Count(order, is_open, total_dora, han, 0, suggest_fu(order, is_open, tsumo))


def suggest_fu(keys: Iterable[str], is_open: bool, tsumo: bool | None) -> int | None:
    """The fu when the yaku decide them: pinfu tsumo 20, pinfu ron 30, seven pairs 25.

    >>> suggest_fu(["chiitoitsu"], False, None), suggest_fu(["pinfu"], False, False)
    (25, 30)
    >>> suggest_fu(["tanyao"], True, False) is None
    True
    """
    keys = set(keys)
    if "chiitoitsu" in keys:
        return 25
    if "pinfu" in keys and not is_open and tsumo is not None:
        return 20 if tsumo else 30
    return None


def _refuse_impossible(
    yakus: list[Yaku], *, is_open: bool, ura: int, tsumo: bool | None, open_tanyao: bool
) -> None:
    keys = {y.key for y in yakus}
    for y in yakus:
        if is_open and y.closed_only:
            raise ScoringError(
                gettext_noop("%(yaku)s needs a closed hand: untick it, or choose Closed."),
                yaku=_name(y),
            )
    if is_open and "tanyao" in keys and not open_tanyao:
        raise ScoringError(
            gettext_noop(
                "Tanyao needs a closed hand under this event's rules (no open tanyao): untick "
                "it, or choose Closed."
            )
        )
    for group in EXCLUSIVE:
        both = [y for y in yakus if y.key in group]
        if len(both) > 1:
            names: Phrase | Term = _name(both[0])
            for y in both[1:]:
                names = Phrase(
                    gettext_noop("%(first)s and %(second)s"), first=names, second=_name(y)
                )
            raise ScoringError(
                gettext_noop("%(names)s cannot both count: tick only the one the hand has."),
                names=names,
            )
    for key, others, why in _CONFLICTS:
        if key in keys:
            clash = next((y for y in yakus if y.key in others), None)
            if clash is not None:
                raise ScoringError(
                    gettext_noop("%(yaku)s and %(yaku2)s cannot be in one hand (%(why)s)."),
                    yaku=_name(YAKU[key]),
                    yaku2=_name(clash),
                    why=why,
                )
    if ura and not keys & {"riichi", "double_riichi"}:
        raise ScoringError(
            gettext_noop("Ura dora count only after riichi: tick Riichi, or set ura dora to 0.")
        )
    for key in _NEEDS_RIICHI:
        if key in keys and not keys & {"riichi", "double_riichi"}:
            raise ScoringError(
                gettext_noop("%(yaku)s comes only after riichi: tick Riichi too."),
                yaku=_name(YAKU[key]),
            )
    if tsumo is not None:
        wrong = _NEEDS_RON if tsumo else _NEEDS_TSUMO
        for key in wrong:
            if key in keys:
                raise ScoringError(
                    gettext_noop("%(yaku)s is won only by a %(way)s: untick it."),
                    yaku=_name(YAKU[key]),
                    way=way_of_winning(not tsumo),
                )
    if tsumo and not is_open and "menzen_tsumo" not in keys and not any(y.yakuman for y in yakus):
        raise ScoringError(
            gettext_noop(
                "A closed hand won by tsumo has Menzen tsumo: tick it (or choose Open if the "
                "hand called tiles)."
            )
        )


def _name(y: Yaku) -> Term:
    """A yaku as a refusal names it: by its romaji, or the app's name for its key."""
    return Term("yaku", y.key, y.romaji)
