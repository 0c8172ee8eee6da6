"""The hand form's pieces that are drawn rather than checked: the grid of big buttons
its pickers use, the yaku checklist, and the tile picker's tiles and modes (the wall of a
three-player game has no 2m to 8m)."""

from __future__ import annotations

import html

from django import forms
from django.utils.choices import BaseChoiceIterator, normalize_choices
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeData, mark_safe
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


def _text(value) -> str:
    """`value` as a template writes `{{ value }}`: localised, then escaped unless safe;
    text through the standard library's escape, as Django's does it, less its check for
    lazy text (a third of the time of these options)."""
    if isinstance(value, str):
        return value if isinstance(value, SafeData) else html.escape(value)
    return conditional_escape(localize(value))


def _input_html(option: dict) -> str:
    """An option's <input> as Django's input.html and attrs.html write it."""
    value = option["value"]
    parts = [f'<input type="{_text(option["type"])}" name="{_text(option["name"])}"']
    if value is not None:
        parts.append(f' value="{_text(str(value))}"')
    for name, attr in option["attrs"].items():
        if attr is True:
            parts.append(f" {_text(name)}")
        elif attr is not False:
            parts.append(f' {_text(name)}="{_text(str(attr))}"')
    parts.append(">")
    return "".join(parts)


def picks_html(optgroups) -> str:
    """Every option of a pick field as its grid writes it: a label holding the <input> and
    the option's text, or for a seat the player and their wind (see `add_seat`)."""
    dealer = None
    out = []
    for _group, options, _index in optgroups:
        for option in options:
            marks = (" wide" if option["value"] == "Y" else "") + (
                " dealer" if option["dealer"] else ""
            )
            out.append(
                f'\n      <label class="pick{marks}" for="{_text(option["attrs"].get("id", ""))}">'
                f"\n        {_input_html(option)}\n        "
            )
            seat = option["seat"]
            if seat:
                if option["dealer"] and dealer is None:
                    dealer = _text(_("dealer"))
                out.append(
                    f"\n          <span><b>{_text(seat['name'])}</b>"
                    f'<small class="wind" data-wind="{_text(seat["wind"])}" '
                    f'title="{_text(seat["wind_name"])}">{_text(seat["wind_mark"])}'
                    f"{f' · {dealer}' if option['dealer'] else ''}</small></span>\n        "
                )
            else:
                out.append(f"\n          <span>{_text(option['label'])}</span>\n        ")
            out.append("\n      </label>")
    return mark_safe("".join(out))


class _OptionsInOneGo:
    """A choice widget whose template writes `widget.options_html`, made here."""

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        context["widget"]["options_html"] = self.options_html(context["widget"])
        return context

    def options_html(self, widget: dict) -> str:
        return picks_html(widget["optgroups"])


class PickRadioSelect(_OptionsInOneGo, forms.RadioSelect):
    """Radio buttons drawn as the hand form's grid of big buttons: the whole field is one
    template (`tournaments/widgets/picks.html`) whose options are written in one go
    (`picks_html`), where Django's own includes an option template per option and the
    template engine would look up each option's every part (the form has some four
    hundred options: two thirds of the time of the form's page). An option drawn alone
    (`{{ option.tag }}`) uses a template that is Django's option templates in one."""

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


class PickCheckboxSelectMultiple(_OptionsInOneGo, forms.CheckboxSelectMultiple):
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
    (`tournaments/widgets/yaku_checklist.html`), its groups written in one go."""

    template_name = "tournaments/widgets/yaku_checklist.html"

    def options_html(self, widget: dict) -> str:
        options = {
            option["value"]: option
            for _group, group_options, _index in widget["optgroups"]
            for option in group_options
        }
        out = []
        for title, keys in YAKU_GROUPS:
            out.append(
                '\n    <fieldset class="pick-group yaku-group">'
                f"\n      <legend>{_text(title)}</legend>"
                '\n      <div class="picks cols-3">'
            )
            for key in keys:
                yaku, option = yaku_table.YAKU[key], options[key]
                worth = yaku_value(yaku)
                # The numbers as they are, not localised, as hand-count.js reads them.
                out.append(
                    '\n          <label class="pick yaku"'
                    f' for="{_text(option["attrs"].get("id", ""))}"'
                    f' data-yaku="{_text(key)}" data-closed="{yaku.closed_han}"'
                    f' data-open="{"" if yaku.open_han is None else yaku.open_han}"'
                    f' data-yakuman="{yaku.yakuman}">'
                    f"\n            {_input_html(option)}"
                    f"\n            <span><b>{_text(yaku_name(key))}</b>"
                    f"{f'<small>{_text(worth)}</small>' if worth else ''}</span>"
                    "\n          </label>"
                )
            out.append("\n      </div>\n    </fieldset>")
        return mark_safe("".join(out))


def yaku_value(y: yaku_table.Yaku) -> str:
    """How the checklist shows a yaku's worth: "1", "2 · open 1", "closed", "×2"."""
    if y.closed_only:
        return _("closed only")
    if y.yakuman:
        return ""
    if y.open_han != y.closed_han:
        return _("open %(han)s") % {"han": y.open_han}
    return ""
