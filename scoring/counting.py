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

from .errors import ScoringError
from .payouts import MAX_YAKUMAN
from .yaku import EXCLUSIVE, YAKU, Yaku

# Yaku that no single hand can hold together (beyond EXCLUSIVE, where one includes the
# other), each with why.
_SEVEN_PAIRS = "seven pairs have no triplets, sequences or kans"
_HONOURS = "it has honours or terminals"
_CONFLICTS: tuple[tuple[str, frozenset[str], str], ...] = (
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
        "pinfu is four sequences and a pair worth no fu",
    ),
    (
        "tanyao",
        frozenset(
            {
                "chanta", "junchan", "honroutou", "honitsu", "seat_wind", "round_wind",
                "double_wind", "haku", "hatsu", "chun", "shousangen",
            }
        ),
        "tanyao has no honours or terminals, and the other needs them",
    ),
    (
        "toitoi",
        frozenset({"iipeikou", "ryanpeikou", "sanshoku", "ittsu", "chanta", "junchan"}),
        "toitoi has no sequences",
    ),
    ("ittsu", frozenset({"chanta", "junchan", "sanshoku"}), "ittsu is three runs of one suit"),
    ("chinitsu", frozenset({"seat_wind", "round_wind", "double_wind", "haku", "hatsu",
                            "chun", "shousangen", "chanta", "honroutou", "sanshoku",
                            "sanshoku_doukou"}), "chinitsu is one suit with no honours"),
    ("honitsu", frozenset({"sanshoku", "sanshoku_doukou"}), "honitsu is one suit and honours"),
)  # fmt: skip
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
            raise ScoringError(f"Unknown yaku {key!r}: reload the page and tick it again.")
    yakus = [YAKU[k] for k in chosen]
    for what, number in (("Dora", dora), ("Ura dora", ura), ("Red fives", aka)):
        if not 0 <= number <= MAX_DORA:
            raise ScoringError(f"{what}: enter a number from 0 to {MAX_DORA}.")
    _refuse_impossible(yakus, is_open=is_open, ura=ura, tsumo=tsumo, open_tanyao=open_tanyao)
    total_dora = dora + ura + aka
    order = tuple(y.key for y in yakus)
    multiple = sum(y.yakuman for y in yakus)
    if multiple:
        if multiple > MAX_YAKUMAN:
            raise ScoringError(
                f"That makes {multiple} yakuman, more than the {MAX_YAKUMAN} one hand can hold."
            )
        yakuman_keys = tuple(y.key for y in yakus if y.yakuman)
        return Count(yakuman_keys, is_open, total_dora, None, multiple, None)
    if not yakus:
        raise ScoringError(
            "Tick at least one yaku: dora alone do not make a winning hand."
            if total_dora
            else "Tick the hand's yaku (at least one)."
        )
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
            raise ScoringError(f"{y.romaji} needs a closed hand: untick it, or choose Closed.")
    if is_open and "tanyao" in keys and not open_tanyao:
        raise ScoringError(
            "Tanyao needs a closed hand under this event's rules (no open tanyao): untick it, "
            "or choose Closed."
        )
    for group in EXCLUSIVE:
        both = [y for y in yakus if y.key in group]
        if len(both) > 1:
            names = " and ".join(y.romaji for y in both)
            raise ScoringError(f"{names} cannot both count: tick only the one the hand has.")
    for key, others, why in _CONFLICTS:
        if key in keys:
            clash = next((y for y in yakus if y.key in others), None)
            if clash is not None:
                raise ScoringError(
                    f"{YAKU[key].romaji} and {clash.romaji} cannot be in one hand ({why})."
                )
    if ura and not keys & {"riichi", "double_riichi"}:
        raise ScoringError("Ura dora count only after riichi: tick Riichi, or set ura dora to 0.")
    for key in _NEEDS_RIICHI:
        if key in keys and not keys & {"riichi", "double_riichi"}:
            raise ScoringError(f"{YAKU[key].romaji} comes only after riichi: tick Riichi too.")
    if tsumo is not None:
        wrong = _NEEDS_RON if tsumo else _NEEDS_TSUMO
        for key in wrong:
            if key in keys:
                how = "a ron" if tsumo else "a tsumo"
                raise ScoringError(f"{YAKU[key].romaji} is won only by {how}: untick it.")
    if tsumo and not is_open and "menzen_tsumo" not in keys and not any(y.yakuman for y in yakus):
        raise ScoringError(
            "A closed hand won by tsumo has Menzen tsumo: tick it (or choose Open if the "
            "hand called tiles)."
        )
