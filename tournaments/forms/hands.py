"""Hand entry: what an organiser taps at the table, turned into a tenbou-game/1 hand object
(`HandForm.to_hand`) and back (`initial_from_hand`) for editing.

The form checks that the taps make a hand (a winner was chosen, a loser for a ron, a han
value the rules allow); the engine checks the hand against the game when it is previewed
and again when it is stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from scoring import yaku as yaku_table
from scoring.counting import MAX_DORA, Count, count_yaku
from scoring.errors import ScoringError
from scoring.payouts import MAX_YAKUMAN, VALID_FU, check_value
from scoring.rules import MultiRon, PaoScope, Rules

from ..models import Game, Hand
from ..wording.formatting import points
from ..wording.refusals import say
from .hand_picks import (
    CONDITIONS,
    KITA_MODE,
    PICK_MODES,
    TILE_ROWS,
    TILE_ROWS_3,
    Choices,
    PickCheckboxSelectMultiple,
    PickRadioSelect,
    YakuChecklist,
)

WINDS = "ESWN"
WIND_NAMES = {
    "E": gettext_lazy("East"),
    "S": gettext_lazy("South"),
    "W": gettext_lazy("West"),
    "N": gettext_lazy("North"),
}
# The one-letter wind on a seat's badge and pick (東 南 西 北 in Japanese).
WIND_MARKS = {
    "E": pgettext_lazy("wind letter", "E"),
    "S": pgettext_lazy("wind letter", "S"),
    "W": pgettext_lazy("wind letter", "W"),
    "N": pgettext_lazy("wind letter", "N"),
}
YAKUMAN = "Y"
# 13 stands for 13 han or more (kazoe); the engine pays them all alike.
HAN_CHOICES = [(str(h), str(h)) for h in range(1, 13)] + [
    ("13", "13+"),
    (YAKUMAN, gettext_lazy("Yakuman")),
]
FU_CHOICES = [(fu, str(fu)) for fu in VALID_FU]
YAKUMAN_CHOICES = [(n, f"×{n}") for n in range(1, MAX_YAKUMAN + 1)]
# Of a win of several yakuman, how many the liable player fed (pao_scope: fed_yakuman).
PAO_YAKUMAN_CHOICES = [(n, f"×{n}") for n in range(1, MAX_YAKUMAN + 1)]
NOBODY = ("", gettext_lazy("None"))
HAND_KINDS = [("closed", gettext_lazy("Closed")), ("open", gettext_lazy("Open (called tiles)"))]
YAKU_CHOICES = [(y.key, y.romaji) for y in yaku_table.YAKU_LIST]
# Fu in one tap: the common cases, with when they apply.
FU_SHORTCUTS = [
    (20, gettext_lazy("Pinfu tsumo")),
    (25, gettext_lazy("Seven pairs")),
    (30, gettext_lazy("Closed ron with no other fu, or an open hand with none")),
    (40, gettext_lazy("One more fu item: a closed or edge wait, an honour or terminal triplet...")),
]
# The checklist's dora counters.
COUNTERS = (
    ("dora", gettext_lazy("Dora")),
    ("ura", gettext_lazy("Ura dora")),
    ("aka", gettext_lazy("Red fives")),
)
# Three-player games add the North tiles the winner set aside (kita, nukidora): each is
# one more dora (spec, "Three-player games (sanma)"). There are four Norths in the wall.
KITA = ("kita", gettext_lazy("Kita (Norths set aside)"))
MAX_KITA = 4
# Short, so that six fit on a phone as buttons.
RESULT_LABELS = {
    "ron": gettext_lazy("Ron"),
    "tsumo": gettext_lazy("Tsumo"),
    "draw": gettext_lazy("Draw"),
    "nagashi": gettext_lazy("Nagashi"),
    "abort": gettext_lazy("Abort"),
    "chombo": gettext_lazy("Chombo"),
}


@dataclass(frozen=True)
class SeatLabel:
    """A seat as the organiser sees it at the table: the player and the wind they hold."""

    seat: int
    name: str
    wind: str  # E, S, W or N

    def __str__(self) -> str:
        return f"{self.name} ({self.wind})"

    @property
    def wind_name(self) -> str:
        return WIND_NAMES[self.wind]

    @property
    def wind_mark(self) -> str:
        return WIND_MARKS[self.wind]


def seat_labels(names: list[str], dealer: int) -> list[SeatLabel]:
    """The seats (four, or three in a three-player game: no North) with the winds of a
    hand dealt by `dealer`."""
    count = len(names)
    return [
        SeatLabel(seat, name, WINDS[(seat - dealer) % count]) for seat, name in enumerate(names)
    ]


_HAN = Choices(HAN_CHOICES)
_FU = Choices(FU_CHOICES)
_YAKUMAN = Choices(YAKUMAN_CHOICES)
_PAO_YAKUMAN = Choices(PAO_YAKUMAN_CHOICES)
_YAKU = Choices(YAKU_CHOICES)
_HAND_KINDS = Choices(HAND_KINDS)


def _seat_field(choices: Choices, **kwargs) -> forms.Field:
    return forms.TypedChoiceField(
        choices=choices,
        coerce=int,
        empty_value=None,
        required=False,
        widget=PickRadioSelect,
        **kwargs,
    )


def _seats_field(choices: Choices, **kwargs) -> forms.Field:
    return forms.TypedMultipleChoiceField(
        choices=choices,
        coerce=int,
        required=False,
        widget=PickCheckboxSelectMultiple,
        **kwargs,
    )


def three_winners_possible(rules: Rules) -> bool:
    # Under double ron a third ron is an abortive draw, recorded as an abort; at three
    # players only two can ron one discard.
    return rules.multi_ron is MultiRon.TRIPLE and rules.players == 4


# Aborts that need a fourth player: four winds discarded, four riichi declared (the
# engine refuses them in a three-player game, scoring.record.validate_hand).
FOUR_PLAYER_ABORTS = (Hand.AbortReason.FOUR_WINDS, Hand.AbortReason.FOUR_RIICHI)


class HandForm(forms.Form):
    """One hand. Fields that do not belong to the chosen result are ignored, so a phone
    without JavaScript can show every section at once."""

    ORDINALS = (
        "",
        gettext_lazy("Winner"),
        gettext_lazy("Second winner"),
        gettext_lazy("Third winner"),
    )

    def __init__(
        self,
        *args,
        seats: list[SeatLabel],
        rules: Rules,
        scores: Sequence[int] | None = None,
        with_number: bool = False,
        least_wins: int = 0,
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.rules = rules
        # Each seat's score before this hand, to check who may declare riichi.
        self.scores = scores
        # Head bump: only one player wins off a discard, so the form asks for one winner;
        # a hand stored with more (an import, older data) is edited with all of them
        # (`least_wins`), and its preview says which one the head bump paid.
        most = 3 if three_winners_possible(rules) else 2
        self.win_count = max(1 if rules.multi_ron is MultiRon.HEAD_BUMP else most, least_wins)
        self.counters = COUNTERS + (KITA,) if rules.players == 3 else COUNTERS
        # The pickers offer the seats as they sit in this hand: the dealer (East) first.
        seats = sorted(seats, key=lambda s: WINDS.index(s.wind))
        picks = Choices((s.seat, s) for s in seats)
        picks_or_nobody = Choices([NOBODY, *picks])
        results = [
            (value, RESULT_LABELS[value])
            for value in Hand.Result.values
            if (value != Hand.Result.NAGASHI or rules.nagashi_mangan)
            and (value != Hand.Result.ABORT or self._reasons())
        ]
        f = self.fields
        if with_number:
            f["number"] = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
        f["result"] = forms.ChoiceField(
            choices=results,
            widget=PickRadioSelect,
            error_messages={"required": gettext_lazy("Choose what happened in this hand.")},
        )
        f["riichi"] = _seats_field(picks, label=gettext_lazy("Riichi"))
        for i in range(1, self.win_count + 1):
            f[f"w{i}_winner"] = _seat_field(
                picks_or_nobody if i > 1 else picks, label=self.ORDINALS[i]
            )
            f[f"w{i}_han"] = forms.CharField(
                required=False,
                label=gettext_lazy("Han"),
                widget=PickRadioSelect(choices=_HAN),
            )
            f[f"w{i}_fu"] = forms.IntegerField(
                required=False,
                label=gettext_lazy("Fu"),
                widget=PickRadioSelect(choices=_FU),
            )
            f[f"w{i}_yakuman"] = forms.IntegerField(
                required=False,
                initial=1,
                label=gettext_lazy("Yakuman"),
                widget=PickRadioSelect(choices=_YAKUMAN),
            )
            f[f"w{i}_pao"] = _seat_field(picks_or_nobody, label=gettext_lazy("Pao (liable player)"))
            if self.pao_per_yakuman:
                f[f"w{i}_pao_yakuman"] = forms.IntegerField(
                    required=False,
                    initial=1,
                    label=gettext_lazy("Liable for"),
                    widget=PickRadioSelect(choices=_PAO_YAKUMAN),
                    error_messages={
                        "invalid": gettext_lazy(
                            "Liable for: choose how many of the yakuman were fed."
                        )
                    },
                )
            f[f"w{i}_yaku"] = forms.MultipleChoiceField(
                choices=_YAKU,
                required=False,
                label=gettext_lazy("Yaku"),
                widget=YakuChecklist,
            )
            f[f"w{i}_hand"] = forms.ChoiceField(
                choices=_HAND_KINDS,
                required=False,
                label=gettext_lazy("The hand"),
                widget=PickRadioSelect,
            )
            for part, label in self.counters:
                most = MAX_KITA if part == "kita" else MAX_DORA
                out_of_range = _("%(what)s: enter a number from 0 to %(most)s.") % {
                    "what": label,
                    "most": most,
                }
                f[f"w{i}_{part}"] = forms.IntegerField(
                    required=False,
                    min_value=0,
                    max_value=most,
                    label=label,
                    error_messages={
                        "min_value": out_of_range,
                        "max_value": out_of_range,
                        "invalid": _("%(what)s: enter a whole number, or leave it empty for 0.")
                        % {"what": label},
                    },
                    widget=forms.NumberInput(
                        attrs={"inputmode": "numeric", "class": "counter-input", "min": 0}
                    ),
                )
        f["loser"] = _seat_field(picks, label=gettext_lazy("Dealt in"))
        f["tenpai"] = _seats_field(picks, label=gettext_lazy("Tenpai"))
        if rules.nagashi_mangan:
            f["nagashi"] = _seats_field(picks, label=gettext_lazy("Nagashi mangan"))
        if self._reasons():
            f["reason"] = forms.ChoiceField(
                choices=self._reasons(),
                required=False,
                widget=PickRadioSelect,
                label=gettext_lazy("Reason"),
            )
        f["offender"] = _seat_field(picks, label=gettext_lazy("Offender"))

    def _reasons(self) -> list[tuple[str, str]]:
        four = self.rules.players == 4
        # A third ron needs three players besides the discarder.
        triple = self.rules.multi_ron is MultiRon.DOUBLE and four
        return [
            (value, label)
            for value, label in Hand.AbortReason.choices
            if (value == Hand.AbortReason.TRIPLE_RON and triple)
            or (
                value != Hand.AbortReason.TRIPLE_RON
                and self.rules.abortive_draws
                and (four or value not in FOUR_PLAYER_ABORTS)
            )
        ]

    def name(self, seat: int) -> str:
        return next(s.name for s in self.seats if s.seat == seat)

    def win_groups(self) -> list[dict[str, Any]]:
        """The winner sections, for the template."""
        return [
            {
                "index": i,
                "title": self.ORDINALS[i],
                "winner": self[f"w{i}_winner"],
                "han": self[f"w{i}_han"],
                "fu": self[f"w{i}_fu"],
                "yakuman": self[f"w{i}_yakuman"],
                "pao": self[f"w{i}_pao"],
                "pao_yakuman": (self[f"w{i}_pao_yakuman"] if self.pao_per_yakuman else None),
                "hand": self[f"w{i}_hand"],
                "yaku": self[f"w{i}_yaku"],
                "counters": [self[f"w{i}_{part}"] for part, _label in self.counters],
                "fu_shortcuts": FU_SHORTCUTS,
                "tile_rows": self.tile_rows,
                "pick_modes": self.pick_modes,
                "three_player": self.rules.players == 3,
                "conditions": CONDITIONS,
                "counting": bool(self[f"w{i}_yaku"].value()),
                "errors": [e for part in PARTS for e in self.errors.get(f"w{i}_{part}", [])],
                "filled": self[f"w{i}_winner"].value() not in (None, ""),
            }
            for i in range(1, self.win_count + 1)
        ]

    def clean_riichi(self) -> list[int]:
        riichi = sorted(self.cleaned_data["riichi"])
        needed = self.rules.riichi_min_points
        if self.scores is not None and needed:
            for seat in riichi:
                if self.scores[seat] < needed:
                    name = self.name(seat)
                    raise ValidationError(
                        _(
                            "%(name)s has %(points)s points and cannot declare riichi: these "
                            "rules need at least %(needed)s points to declare riichi. Untick "
                            "%(name)s under Riichi, or correct an earlier hand."
                        )
                        % {
                            "name": name,
                            "points": points(self.scores[seat]),
                            "needed": points(needed),
                        }
                    )
        return riichi

    def _clean_han(self, i: int) -> int | str | None:
        value = (self.cleaned_data.get(f"w{i}_han") or "").strip()
        if not value:
            return None
        if value.upper() == YAKUMAN:
            return YAKUMAN
        try:
            return int(value)
        except ValueError:
            self.add_error(f"w{i}_han", _("Han is a number from 1 to 13, or Yakuman."))
            return None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        result = cleaned.get("result")
        self._wins: list[dict[str, Any]] = []
        if result in (Hand.Result.RON, Hand.Result.TSUMO):
            self._clean_wins(result)
        elif result == Hand.Result.NAGASHI and not cleaned.get("nagashi"):
            self.add_error("nagashi", _("Choose who made nagashi mangan."))
        elif result == Hand.Result.ABORT and not cleaned.get("reason"):
            self.add_error("reason", _("Choose why the hand was aborted."))
        elif result == Hand.Result.CHOMBO and cleaned.get("offender") is None:
            self.add_error("offender", _("Choose who committed the chombo."))
        return cleaned

    def _clean_wins(self, result: str) -> None:
        cleaned = self.cleaned_data
        tsumo = result == Hand.Result.TSUMO
        loser = None if tsumo else cleaned.get("loser")
        if not tsumo and loser is None:
            self.add_error("loser", _("Choose who dealt in (the player whose discard was ronned)."))
        winners: list[int] = []
        for i in range(1, self.win_count + 1):
            winner = cleaned.get(f"w{i}_winner")
            if winner is None:
                if i == 1:
                    self.add_error("w1_winner", _("Choose the winner."))
                continue
            if tsumo and i > 1:
                self.add_error(
                    f"w{i}_winner",
                    _(
                        "A tsumo has exactly one winner: choose Ron for a double ron, or set "
                        "the %(which)s to None."
                    )
                    % {"which": str(self.ORDINALS[i]).lower()},
                )
                continue
            if winner in winners:
                self.add_error(
                    f"w{i}_winner",
                    _("%(name)s is chosen as winner twice.") % {"name": self.name(winner)},
                )
                continue
            winners.append(winner)
            if loser is not None and winner == loser:
                self.add_error(
                    "loser",
                    _("%(name)s cannot both win and deal in.") % {"name": self.name(winner)},
                )
            win = self._clean_win(i, winner, loser, tsumo=tsumo)
            if win is not None:
                self._wins.append(win)

    def _clean_win(
        self, i: int, winner: int, loser: int | None, *, tsumo: bool
    ) -> dict[str, Any] | None:
        cleaned = self.cleaned_data
        han = self._clean_han(i)
        who = self.name(winner)
        count = self._count(i, who, tsumo=tsumo)
        if count is False:
            return None
        if count is not None:
            han = self._han_from_count(i, who, han, count)
            if han is None:
                return None
        if han is None:
            if f"w{i}_han" not in self.errors:
                self.add_error(
                    f"w{i}_han", _("Choose the han of %(name)s's hand, or Yakuman.") % {"name": who}
                )
            return None
        win: dict[str, Any] = {"winner": winner}
        if loser is not None:
            win["loser"] = loser
        if han == YAKUMAN:
            yakuman = cleaned.get(f"w{i}_yakuman")
            if yakuman is None and count is not None:
                yakuman = count.yakuman
            if yakuman is None:
                self.add_error(
                    f"w{i}_yakuman",
                    _("Choose the yakuman multiple of %(name)s's hand.") % {"name": who},
                )
                return None
            if count is not None and count.yakuman != yakuman:
                self.add_error(
                    f"w{i}_yakuman",
                    _(
                        "%(name)s: the ticked yakuman make ×%(counted)s, but ×%(chosen)s is "
                        "chosen: choose ×%(counted)s, or change the ticks."
                    )
                    % {"name": who, "counted": count.yakuman, "chosen": yakuman},
                )
                return None
            win["yakuman"] = yakuman
            where = f"w{i}_yakuman"
        else:
            win["han"] = han
            fu = cleaned.get(f"w{i}_fu")
            if count is not None and count.fu is not None and han <= 4:
                if fu is not None and fu != count.fu:
                    self.add_error(
                        f"w{i}_fu",
                        _(
                            "%(name)s: with %(reason)s the hand is %(counted)s fu, not "
                            "%(chosen)s: choose %(counted)s fu."
                        )
                        % {
                            "name": who,
                            "reason": self._fu_reason(count),
                            "counted": count.fu,
                            "chosen": fu,
                        },
                    )
                    return None
                fu = count.fu
            # From 5 han the fu no longer count; a stray fu tap is dropped, not refused.
            if han <= 4 and fu is not None:
                win["fu"] = fu
            where = f"w{i}_han" if han < 1 else f"w{i}_fu"
        try:
            check_value(
                han=win.get("han"), fu=win.get("fu"), yakuman=win.get("yakuman"), tsumo=tsumo
            )
        except ScoringError as err:
            self.add_error(where, f"{who}: {say(err.problem)}")
            return None
        pao = cleaned.get(f"w{i}_pao")
        if pao is not None:
            if han != YAKUMAN:
                self.add_error(f"w{i}_pao", _("Pao applies only to a yakuman: set it to None."))
                return None
            if pao == winner:
                self.add_error(
                    f"w{i}_pao", _("%(name)s cannot be liable for their own hand.") % {"name": who}
                )
                return None
            win["pao"] = pao
            fed = self._clean_pao_yakuman(i, who, win["yakuman"])
            if fed is False:
                return None
            if fed is not None:
                win["pao_yakuman"] = fed
        elif self.pao_per_yakuman and cleaned.get(f"w{i}_pao_yakuman") not in (None, 1):
            self.add_error(
                f"w{i}_pao_yakuman",
                _("%(name)s: choose the liable player under Pao, or set Liable for to ×1.")
                % {"name": who},
            )
            return None
        win.update(self._stats(i, count))
        return win

    @property
    def pao_per_yakuman(self) -> bool:
        """Whether a liable player answers only for the yakuman they fed (Mahjong Soul),
        so that the form asks how many of the win's yakuman that is."""
        return self.rules.pao_scope is PaoScope.FED_YAKUMAN

    def _clean_pao_yakuman(self, i: int, who: str, multiple: int) -> int | None | bool:
        """How many of the win's yakuman the liable player answers for: None when the form
        does not ask (or for a single yakuman), False when refused (the reason is on the
        form)."""
        if not self.pao_per_yakuman:
            return None
        fed = self.cleaned_data.get(f"w{i}_pao_yakuman")
        if fed is None:
            return None if multiple == 1 else 1
        if not 1 <= fed <= multiple:
            self.add_error(
                f"w{i}_pao_yakuman",
                _(
                    "%(name)s: the liable player can answer for at most the hand's "
                    "%(multiple)s yakuman, not ×%(fed)s: choose ×1 to ×%(multiple)s."
                )
                % {"name": who, "multiple": multiple, "fed": fed},
            )
            return False
        # A single yakuman needs no count: the liable player answers for the one there is.
        return None if multiple == 1 else fed

    def _count(self, i: int, who: str, *, tsumo: bool) -> Count | None | bool:
        """The checklist's count of winner `i`: None when no yaku are ticked, False when
        the ticks were refused (the reason is on the form)."""
        cleaned = self.cleaned_data
        keys = cleaned.get(f"w{i}_yaku") or []
        if not keys:
            return None
        kind = cleaned.get(f"w{i}_hand")
        if not kind:
            self.add_error(
                f"w{i}_hand",
                _("%(name)s: choose Closed or Open, so that the yaku count right.") % {"name": who},
            )
            return False
        try:
            return count_yaku(
                keys,
                is_open=kind == "open",
                # Kita count as dora: the record keeps them in `dora` too (and apart as `kita`).
                dora=(cleaned.get(f"w{i}_dora") or 0) + (cleaned.get(f"w{i}_kita") or 0),
                ura=cleaned.get(f"w{i}_ura") or 0,
                aka=cleaned.get(f"w{i}_aka") or 0,
                tsumo=tsumo,
                open_tanyao=getattr(self.rules, "open_tanyao", True),
            )
        except ScoringError as err:
            self.add_error(f"w{i}_yaku", f"{who}: {say(err.problem)}")
            return False

    def _han_from_count(self, i: int, who: str, han: int | str | None, count: Count):
        """The han the checklist counted, or None (with the reason) when the han chosen
        by hand says otherwise. 13 stands for 13 han and more."""
        counted: int | str = YAKUMAN if count.yakuman else min(count.han or 0, 13)
        if han is None or han == counted:
            return counted
        said = _("yakuman") if counted == YAKUMAN else _("%(han)s han") % {"han": counted}
        chosen = _("Yakuman") if han == YAKUMAN else _("%(han)s han") % {"han": han}
        self.add_error(
            f"w{i}_han",
            _(
                "%(name)s: the ticked yaku and dora make %(counted)s, but %(chosen)s is "
                "chosen: choose the counted value, or change the ticks."
            )
            % {"name": who, "counted": said, "chosen": chosen},
        )
        return None

    @staticmethod
    def _fu_reason(count: Count) -> str:
        if "chiitoitsu" in count.yaku:
            return _("seven pairs")
        return _("pinfu by tsumo") if count.fu == 20 else _("pinfu by ron")

    def _stats(self, i: int, count: Count | None) -> dict[str, Any]:
        """The win's statistics fields: yaku, dora (kita among them), open and kita, as far
        as they were given."""
        cleaned = self.cleaned_data
        kita = cleaned.get(f"w{i}_kita")
        if count is not None:
            stats = count.as_win()
        else:
            stats = {}
            kind = cleaned.get(f"w{i}_hand")
            if kind:
                stats["open"] = kind == "open"
            dora = [cleaned.get(f"w{i}_{part}") for part, _label in self.counters]
            if any(d is not None for d in dora):
                stats["dora"] = sum(d or 0 for d in dora)
        if kita:
            stats["kita"] = kita
        return stats

    @property
    def pick_modes(self) -> list[tuple[str, Any]]:
        """What a tap of the tile picker may add: at three players no chi, and a North set
        aside."""
        if self.rules.players == 4:
            return PICK_MODES
        # No chi at three players (Tenhou's and Mahjong Soul's three-player games).
        return [*(mode for mode in PICK_MODES if mode[0] != "chi"), KITA_MODE]

    @property
    def tile_rows(self) -> list:
        """The tile picker's tiles: a three-player wall has no 2m to 8m."""
        return TILE_ROWS_3 if self.rules.players == 3 else TILE_ROWS

    def to_hand(self, *, keep_from: dict[str, Any] | None = None) -> dict[str, Any]:
        """The hand object of the spec, from a valid form.

        `keep_from` is the hand being edited: statistics the form does not show (yaku,
        dora, open) are kept for a win whose winner and value did not change.
        """
        cleaned = self.cleaned_data
        result = cleaned["result"]
        doc: dict[str, Any] = {"result": result, "riichi": cleaned["riichi"]}
        if result in (Hand.Result.RON, Hand.Result.TSUMO):
            doc["wins"] = [_keep_stats(w, keep_from) for w in self._wins]
        elif result == Hand.Result.DRAW:
            doc["tenpai"] = sorted(cleaned["tenpai"])
        elif result == Hand.Result.NAGASHI:
            doc["nagashi"] = sorted(cleaned.get("nagashi", []))
            doc["tenpai"] = sorted(cleaned["tenpai"])
        elif result == Hand.Result.ABORT:
            doc["reason"] = cleaned["reason"]
        else:
            doc["offender"] = cleaned["offender"]
        return doc


STATS = ("yaku", "dora", "open", "kita")
VALUE = ("winner", "loser", "han", "fu", "yakuman", "pao", "pao_yakuman")
PARTS = (
    "winner",
    "han",
    "fu",
    "yakuman",
    "pao",
    "pao_yakuman",
    "yaku",
    "hand",
    "dora",
    "ura",
    "aka",
    "kita",
)


def _keep_stats(win: dict[str, Any], old_hand: dict[str, Any] | None) -> dict[str, Any]:
    for old in (old_hand or {}).get("wins", []):
        if all(old.get(k) == win.get(k) for k in VALUE):
            # What the form gave anew wins over what was stored.
            return {**{k: old[k] for k in STATS if k in old}, **win}
    return win


def initial_from_hand(hand: dict[str, Any]) -> dict[str, Any]:
    """Initial form values that show `hand` (a spec hand object) for editing."""
    initial: dict[str, Any] = {"result": hand["result"], "riichi": list(hand.get("riichi", []))}
    for i, win in enumerate(hand.get("wins", []), start=1):
        initial[f"w{i}_winner"] = win["winner"]
        if win.get("yakuman") is not None:
            initial[f"w{i}_han"] = YAKUMAN
            initial[f"w{i}_yakuman"] = win["yakuman"]
        else:
            initial[f"w{i}_han"] = str(min(win["han"], 13))
            initial[f"w{i}_fu"] = win.get("fu")
        initial[f"w{i}_pao"] = win.get("pao")
        if win.get("pao_yakuman") is not None:
            initial[f"w{i}_pao_yakuman"] = win["pao_yakuman"]
        if win.get("loser") is not None:
            initial["loser"] = win["loser"]
    for key in ("tenpai", "nagashi"):
        if key in hand:
            initial[key] = list(hand[key])
    if "reason" in hand:
        initial["reason"] = hand["reason"]
    if "offender" in hand:
        initial["offender"] = hand["offender"]
    return initial


def parse_score(text: str) -> int:
    """A score as people type it: 35000, 35,000, 35 000, -2,300 or −2300."""
    cleaned = "".join(text.split()).replace(",", "").replace("\u2212", "-").replace("_", "")
    if cleaned.startswith("+"):
        cleaned = cleaned[1:]
    digits = cleaned[1:] if cleaned.startswith("-") else cleaned
    if not digits.isdigit() or not digits.isascii() or len(digits) > 7:
        raise forms.ValidationError(
            _("“%(text)s” is not a score: type the points as a whole number, e.g. 35000 or -2300.")
            % {"text": text.strip()}
        )
    return int(cleaned)


# Below this, a score is read as hundreds when all of them are: 350 stands for 35,000.
HUNDREDS_BELOW = 1000


class FinalScoresForm(forms.Form):
    """The final scores of a final-score-only game, one per seat (four, or three in a
    three-player game); the engine checks the sum.

    Scores are whole hundreds. Scores all below 1,000 (e.g. 350, 249, 218, 183) are read
    as hundreds, the way scores are often written on paper, and the preview says so.
    """

    leftover_sticks = forms.IntegerField(
        min_value=0,
        max_value=100,
        initial=0,
        label=gettext_lazy("Riichi sticks left on the table"),
        help_text=gettext_lazy("Sticks nobody won by the end of the game."),
        error_messages={
            "min_value": gettext_lazy("The sticks left on the table are 0 or more."),
            "max_value": gettext_lazy(
                "At most 100 sticks can be left on the table: check the number."
            ),
            "invalid": gettext_lazy("Type the number of sticks left on the table, e.g. 0 or 1."),
        },
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": 100}),
    )

    def __init__(self, *args, seats: list[SeatLabel], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.in_hundreds = False
        score_fields = {
            f"score_{s.seat}": forms.CharField(
                label=f"{s.name} ({s.wind_name})",
                max_length=12,
                error_messages={"required": _("Type %(name)s's final score.") % {"name": s.name}},
                widget=forms.TextInput(
                    attrs={"inputmode": "numeric", "autocomplete": "off", "class": "score-input"}
                ),
            )
            for s in seats
        }
        # Scores first, in seat order, then the sticks.
        self.fields = {**score_fields, **self.fields}
        for s in seats:
            setattr(self, f"clean_score_{s.seat}", self._score_cleaner(s.seat))

    def _score_cleaner(self, seat: int):
        def clean() -> int:
            return parse_score(self.cleaned_data[f"score_{seat}"])

        return clean

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        names = [f"score_{s.seat}" for s in self.seats]
        values = [cleaned.get(name) for name in names]
        if any(v is None for v in values):
            return cleaned
        if all(abs(v) < HUNDREDS_BELOW for v in values) and any(values):
            self.in_hundreds = True
            for name, value in zip(names, values, strict=True):
                cleaned[name] = value * 100
            return cleaned
        for seat, name, value in zip(self.seats, names, values, strict=True):
            if value % 100:
                self.add_error(
                    name,
                    (
                        _(
                            "%(name)s's score %(score)s is not whole hundreds: scores end in "
                            "00, e.g. 35,000. Type all three in hundreds (e.g. 350) if that is "
                            "quicker."
                        )
                        if self.three_players
                        else _(
                            "%(name)s's score %(score)s is not whole hundreds: scores end in "
                            "00, e.g. 35,000. Type all four in hundreds (e.g. 350) if that is "
                            "quicker."
                        )
                    )
                    % {"name": seat.name, "score": f"{value:,}"},
                )
        return cleaned

    @property
    def three_players(self) -> bool:
        return len(self.seats) == 3

    def scores(self) -> list[int]:
        return [self.cleaned_data[f"score_{s.seat}"] for s in self.seats]

    def score_fields(self) -> list[forms.BoundField]:
        return [self[f"score_{s.seat}"] for s in self.seats]


class PenaltyForm(forms.Form):
    seat = forms.TypedChoiceField(
        coerce=int,
        widget=PickRadioSelect,
        label=gettext_lazy("Player"),
        error_messages={"required": gettext_lazy("Choose the player who gets the penalty.")},
    )
    match_points = forms.DecimalField(
        max_digits=6,
        decimal_places=1,
        label=gettext_lazy("Match points"),
        help_text=gettext_lazy("Negative to deduct, e.g. -20.0. Kept to tenths."),
        error_messages={
            "max_decimal_places": gettext_lazy(
                "Match points are kept to tenths, e.g. -20.0 or -2.5."
            ),
        },
        widget=forms.NumberInput(attrs={"step": "0.1", "inputmode": "decimal"}),
    )
    reason = forms.CharField(max_length=200, label=gettext_lazy("Reason"))

    def __init__(self, *args, seats: list[SeatLabel], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = [(s.seat, s) for s in seats]

    def clean_match_points(self) -> Decimal:
        points = self.cleaned_data["match_points"]
        if points == 0:
            raise forms.ValidationError(_("A penalty of 0 match points changes nothing."))
        return points


def game_seat_labels(game: Game, dealer: int = 0) -> list[SeatLabel]:
    return seat_labels([s.player.display_name for s in game.ordered_seats()], dealer)
