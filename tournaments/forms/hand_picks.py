"""The hand form's pieces that are drawn rather than checked: the grid of big buttons
its pickers use, the yaku checklist, and the tile picker's tiles and modes (the wall of a
three-player game has no 2m to 8m)."""

from __future__ import annotations

from django import forms
from django.utils.choices import BaseChoiceIterator, normalize_choices
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from scoring import yaku as yaku_table

from ..wording import yaku_name

# The checklist's groups: ordinary yaku by their closed han, then yakuman by multiple.
YAKU_GROUPS = [
    (gettext_lazy("1 han"), [y.key for y in yaku_table.by_han(1)]),
    (gettext_lazy("2 han"), [y.key for y in yaku_table.by_han(2)]),
    (gettext_lazy("3 han"), [y.key for y in yaku_table.by_han(3)]),
    (gettext_lazy("6 han"), [y.key for y in yaku_table.by_han(6)]),
    (gettext_lazy("Yakuman"), [y.key for y in yaku_table.yakuman(1)]),
    (gettext_lazy("Double yakuman"), [y.key for y in yaku_table.yakuman(2)]),
]
# The tile picker's tiles, suit by suit: (code, label); 0 is a red five.
_TILE_LABELS = [
    (gettext_lazy("Characters"), [(f"{n}m", f"{n}") for n in (1, 2, 3, 4, 5, 0, 6, 7, 8, 9)]),
    (gettext_lazy("Circles"), [(f"{n}p", f"{n}") for n in (1, 2, 3, 4, 5, 0, 6, 7, 8, 9)]),
    (gettext_lazy("Bamboo"), [(f"{n}s", f"{n}") for n in (1, 2, 3, 4, 5, 0, 6, 7, 8, 9)]),
    (gettext_lazy("Honours"), [
        ("1z", gettext_lazy("East")), ("2z", gettext_lazy("South")),
        ("3z", gettext_lazy("West")), ("4z", gettext_lazy("North")),
        ("5z", pgettext_lazy("dragon tile", "White")),
        ("6z", pgettext_lazy("dragon tile", "Green")),
        ("7z", pgettext_lazy("dragon tile", "Red")),
    ]),
]  # fmt: skip
# The same with what the template asks of each tile worked out once: a red five, an honour,
# the suit letter a number tile shows.
TILE_ROWS = [
    (
        suit,
        [
            {
                "code": code,
                "label": label,
                "red": code[0] == "0",
                "honour": code[-1] == "z",
                "mark": "" if code[-1] == "z" else code[-1],
            }
            for code, label in tiles
        ],
    )
    for suit, tiles in _TILE_LABELS
]
# A three-player wall holds of the characters only 1m and 9m.
TILE_ROWS_3 = [
    (suit, [t for t in tiles if t["mark"] != "m" or t["code"] in ("1m", "9m")])
    for suit, tiles in TILE_ROWS
]
PICK_MODES = [
    ("hand", pgettext_lazy("tiles in hand", "Hand")),
    ("win", gettext_lazy("Winning tile")),
    ("chi", gettext_lazy("Chi")),
    ("pon", gettext_lazy("Pon")),
    ("kan", gettext_lazy("Kan")),
    ("ankan", gettext_lazy("Closed kan")),
    ("dora", gettext_lazy("Dora")),
    ("ura", gettext_lazy("Ura dora")),
]
CONDITIONS = [
    ("riichi", gettext_lazy("Riichi")),
    ("double_riichi", gettext_lazy("Double riichi")),
    ("ippatsu", gettext_lazy("Ippatsu")),
    ("haitei", gettext_lazy("Haitei")),
    ("houtei", gettext_lazy("Houtei")),
    ("rinshan", gettext_lazy("Rinshan")),
    ("chankan", gettext_lazy("Chankan")),
    ("tenhou", pgettext_lazy("yaku", "Tenhou")),
    ("chiihou", gettext_lazy("Chiihou")),
]
# What a tap of the tile picker adds at three players: a North set aside.
KITA_MODE = ("kita", gettext_lazy("Kita"))


class Choices(BaseChoiceIterator):
    """Choices checked once: a field or widget takes these as they are, where it checks a
    list pair by pair again (and the hand form has some fifty fields, each with a widget)."""

    def __init__(self, choices) -> None:
        self.pairs = tuple(normalize_choices(list(choices)))

    def __iter__(self):
        return iter(self.pairs)

    def __len__(self) -> int:
        return len(self.pairs)


class PickRadioSelect(forms.RadioSelect):
    """Radio buttons drawn as the hand form's grid of big buttons: the whole field is one
    template (`tournaments/widgets/picks.html`) that writes every option in place, where
    Django's own includes an option template per option (the form has some two hundred).
    An option drawn alone (`{{ option.tag }}`, as the yaku checklist does) uses a template
    that is Django's option templates in one."""

    template_name = "tournaments/widgets/picks.html"
    option_template_name = "tournaments/widgets/pick_option.html"

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        add_seat(option, label)
        return option


def add_seat(option: dict, label) -> None:
    """A seat's player and wind in an option's context, for the template to read as plain
    keys (a label that is text has none)."""
    # A seat label (forms.hands.SeatLabel) carries its wind; a label that is text does not.
    seat = label if hasattr(label, "wind_mark") else None
    option["dealer"] = seat is not None and seat.wind == "E"
    option["seat"] = seat and {
        "name": seat.name,
        "wind": seat.wind,
        "wind_name": seat.wind_name,
        "wind_mark": seat.wind_mark,
    }


class PickCheckboxSelectMultiple(forms.CheckboxSelectMultiple):
    """Checkboxes drawn as the hand form's grid of big buttons (see `PickRadioSelect`)."""

    template_name = PickRadioSelect.template_name
    option_template_name = PickRadioSelect.option_template_name

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        add_seat(option, label)
        return option


class YakuChecklist(PickCheckboxSelectMultiple):
    """The yaku checkboxes of one winner, in the groups of `YAKU_GROUPS`, each with its
    worth for hand-count.js: one template for the whole checklist
    (`tournaments/widgets/yaku_checklist.html`), the groups added to the widget's context."""

    template_name = "tournaments/widgets/yaku_checklist.html"

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        options = {
            option["value"]: option
            for _group, group_options, _index in context["widget"]["optgroups"]
            for option in group_options
        }
        context["widget"]["yaku_groups"] = [
            {
                "title": title,
                "items": [
                    {
                        "option": options[key],
                        "key": key,
                        # Numbers as text: no localisation to look up per option.
                        "closed": str(yaku.closed_han),
                        "open": "" if yaku.open_han is None else str(yaku.open_han),
                        "yakuman": str(yaku.yakuman),
                        "name": yaku_name(key),
                        "value": yaku_value(yaku),
                    }
                    for key in keys
                    for yaku in [yaku_table.YAKU[key]]
                ],
            }
            for title, keys in YAKU_GROUPS
        ]
        return context


def yaku_value(y: yaku_table.Yaku) -> str:
    """How the checklist shows a yaku's worth: "1", "2 · open 1", "closed", "×2"."""
    if y.closed_only:
        return _("closed only")
    if y.yakuman:
        return ""
    if y.open_han != y.closed_han:
        return _("open %(han)s") % {"han": y.open_han}
    return ""
