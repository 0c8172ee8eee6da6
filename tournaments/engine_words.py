"""The engine's refusals in the active language.

The engine (scoring/) and the hand judge (handvalue/) are pure Python and word their
refusals in English. The app shows those refusals to organisers, so here each known
English sentence is matched by a pattern and given again through gettext, with the
numbers, tiles and yaku it names carried over (yaku names in the active language). A
sentence no pattern knows is shown as the engine wrote it.
"""

from __future__ import annotations

import re

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from scoring import yaku as yaku_table

from .wording import yaku_name

_ROMAJI = {y.romaji: y.key for y in yaku_table.YAKU_LIST}
# A named group "yaku" (or "yaku2") holds a yaku's romaji; "way" a ron or a tsumo.
_WAYS = {
    "ron": pgettext_lazy("way of winning", "ron"),
    "tsumo": pgettext_lazy("way of winning", "tsumo"),
}
_WHY = {
    "seven pairs have no triplets, sequences or kans": gettext_lazy(
        "seven pairs have no triplets, sequences or kans"
    ),
    "it has honours or terminals": gettext_lazy("it has honours or terminals"),
    "pinfu is four sequences and a pair worth no fu": gettext_lazy(
        "pinfu is four sequences and a pair worth no fu"
    ),
    "tanyao has no honours or terminals, and the other needs them": gettext_lazy(
        "tanyao has no honours or terminals, and the other needs them"
    ),
    "toitoi has no sequences": gettext_lazy("toitoi has no sequences"),
    "ittsu is three runs of one suit": gettext_lazy("ittsu is three runs of one suit"),
    "chinitsu is one suit with no honours": gettext_lazy("chinitsu is one suit with no honours"),
    "honitsu is one suit and honours": gettext_lazy("honitsu is one suit and honours"),
}
_INDICATORS = {"dora": gettext_lazy("dora"), "ura dora": gettext_lazy("ura dora")}

# (English pattern, translatable sentence). Each %(name)s of the sentence is a named
# group of its pattern. The English sentence is the pattern's own text, so an English
# page reads exactly what the engine wrote.
_SENTENCES: list[tuple[str, Promise]] = [
    # scoring/payouts.py: check_value
    (
        r"a yakuman win takes no han or fu: give only 'yakuman'",
        gettext_lazy("a yakuman win takes no han or fu: give only 'yakuman'"),
    ),
    (
        r"yakuman must be 1 to (?P<most>\d+) \(the multiple\), not (?P<given>-?\d+)",
        gettext_lazy("yakuman must be 1 to %(most)s (the multiple), not %(given)s"),
    ),
    (
        r"a win needs han \(and fu up to 4 han\), or a yakuman multiple",
        gettext_lazy("a win needs han (and fu up to 4 han), or a yakuman multiple"),
    ),
    (
        r"(?P<han>-?\d+) han is not a win: a hand needs at least 1 han",
        gettext_lazy("%(han)s han is not a win: a hand needs at least 1 han"),
    ),
    (
        r"fu is needed for a hand of (?P<han>\d+) han",
        gettext_lazy("fu is needed for a hand of %(han)s han"),
    ),
    (
        r"(?P<fu>-?\d+) fu is not possible: fu is 20, 25 or 30 to 110 in tens",
        gettext_lazy("%(fu)s fu is not possible: fu is 20, 25 or 30 to 110 in tens"),
    ),
    (
        r"(?P<han>\d+) han 20 fu is not a possible ron: 20 fu is only a pinfu tsumo",
        gettext_lazy("%(han)s han 20 fu is not a possible ron: 20 fu is only a pinfu tsumo"),
    ),
    (
        r"1 han 20 fu is not a possible tsumo: pinfu tsumo is at least 2 han",
        gettext_lazy("1 han 20 fu is not a possible tsumo: pinfu tsumo is at least 2 han"),
    ),
    (
        r"1 han 25 fu is not a possible (?P<way>ron|tsumo): seven pairs is at least 2 han",
        gettext_lazy("1 han 25 fu is not a possible %(way)s: seven pairs is at least 2 han"),
    ),
    (
        r"2 han 25 fu is not a possible tsumo: seven pairs tsumo is 3 han",
        gettext_lazy("2 han 25 fu is not a possible tsumo: seven pairs tsumo is 3 han"),
    ),
    # scoring/counting.py: the checklist
    (
        r"Unknown yaku (?P<key>'[^']*'): reload the page and tick it again\.",
        gettext_lazy("Unknown yaku %(key)s: reload the page and tick it again."),
    ),
    (
        r"That makes (?P<count>\d+) yakuman, more than the (?P<most>\d+) one hand can hold\.",
        gettext_lazy("That makes %(count)s yakuman, more than the %(most)s one hand can hold."),
    ),
    (
        r"Tick at least one yaku: dora alone do not make a winning hand\.",
        gettext_lazy("Tick at least one yaku: dora alone do not make a winning hand."),
    ),
    (
        r"Tick the hand's yaku \(at least one\)\.",
        gettext_lazy("Tick the hand's yaku (at least one)."),
    ),
    (
        r"(?P<yaku>.+) needs a closed hand: untick it, or choose Closed\.",
        gettext_lazy("%(yaku)s needs a closed hand: untick it, or choose Closed."),
    ),
    (
        r"Tanyao needs a closed hand under this event's rules \(no open tanyao\): untick it, "
        r"or choose Closed\.",
        gettext_lazy(
            "Tanyao needs a closed hand under this event's rules (no open tanyao): untick it, "
            "or choose Closed."
        ),
    ),
    (
        r"(?P<yaku>.+) and (?P<yaku2>.+) cannot both count: tick only the one the hand has\.",
        gettext_lazy("%(yaku)s and %(yaku2)s cannot both count: tick only the one the hand has."),
    ),
    (
        r"(?P<yaku>.+) and (?P<yaku2>.+) cannot be in one hand \((?P<why>.+)\)\.",
        gettext_lazy("%(yaku)s and %(yaku2)s cannot be in one hand (%(why)s)."),
    ),
    (
        r"Ura dora count only after riichi: tick Riichi, or set ura dora to 0\.",
        gettext_lazy("Ura dora count only after riichi: tick Riichi, or set ura dora to 0."),
    ),
    (
        r"(?P<yaku>.+) comes only after riichi: tick Riichi too\.",
        gettext_lazy("%(yaku)s comes only after riichi: tick Riichi too."),
    ),
    (
        r"(?P<yaku>.+) is won only by a (?P<way>ron|tsumo): untick it\.",
        gettext_lazy("%(yaku)s is won only by a %(way)s: untick it."),
    ),
    (
        r"A closed hand won by tsumo has Menzen tsumo: tick it \(or choose Open if the hand "
        r"called tiles\)\.",
        gettext_lazy(
            "A closed hand won by tsumo has Menzen tsumo: tick it (or choose Open if the hand "
            "called tiles)."
        ),
    ),
    (
        r"(?P<what>Dora|Ura dora|Red fives): enter a number from 0 to (?P<most>\d+)\.",
        gettext_lazy("%(what)s: enter a number from 0 to %(most)s."),
    ),
    # scoring/record.py: final scores
    (
        r"the final scores add up to (?P<sum>[-\d,]+) plus (?P<sticks>\d+) stick\(s\) on the "
        r"table; they must make (?P<expected>[\d,]+) \(4 x (?P<start>[\d,]+)\)",
        gettext_lazy(
            "the final scores add up to %(sum)s plus %(sticks)s stick(s) on the table; they "
            "must make %(expected)s (4 x %(start)s)"
        ),
    ),
    (
        r"the final scores add up to (?P<sum>[-\d,]+); they must make (?P<expected>[\d,]+) "
        r"\(4 x (?P<start>[\d,]+)\)",
        gettext_lazy(
            "the final scores add up to %(sum)s; they must make %(expected)s (4 x %(start)s)"
        ),
    ),
    (
        r"final scores are multiples of 100",
        gettext_lazy("final scores are multiples of 100"),
    ),
    # handvalue/: the whole hand, tile by tile
    (
        r"The winning tile is not among the hand's tiles\.",
        gettext_lazy("The winning tile is not among the hand's tiles."),
    ),
    (
        r"These tiles are not a complete hand: check them and the winning tile\.",
        gettext_lazy("These tiles are not a complete hand: check them and the winning tile."),
    ),
    (
        r"This hand has no yaku: dora alone do not make a win\.",
        gettext_lazy("This hand has no yaku: dora alone do not make a win."),
    ),
    (
        r"An open hand cannot riichi: untick Riichi\.",
        gettext_lazy("An open hand cannot riichi: untick Riichi."),
    ),
    (
        r"An open hand cannot riichi: untick Double riichi\.",
        gettext_lazy("An open hand cannot riichi: untick Double riichi."),
    ),
    (r"Ippatsu comes only after riichi\.", gettext_lazy("Ippatsu comes only after riichi.")),
    (
        r"Chankan is a ron on another player's kan\.",
        gettext_lazy("Chankan is a ron on another player's kan."),
    ),
    (r"Rinshan is a tsumo after a kan\.", gettext_lazy("Rinshan is a tsumo after a kan.")),
    (r"Haitei is a tsumo on the last tile\.", gettext_lazy("Haitei is a tsumo on the last tile.")),
    (
        r"Houtei is a ron on the last discard\.",
        gettext_lazy("Houtei is a ron on the last discard."),
    ),
    (
        r"Haitei and rinshan cannot both count\.",
        gettext_lazy("Haitei and rinshan cannot both count."),
    ),
    (
        r"Houtei and chankan cannot both count\.",
        gettext_lazy("Houtei and chankan cannot both count."),
    ),
    (
        r"Tenhou is the dealer's: choose the seat wind East\.",
        gettext_lazy("Tenhou is the dealer's: choose the seat wind East."),
    ),
    (
        r"Tenhou is a tsumo on the dealt tiles\.",
        gettext_lazy("Tenhou is a tsumo on the dealt tiles."),
    ),
    (r"Tenhou is a hand without calls\.", gettext_lazy("Tenhou is a hand without calls.")),
    (
        r"Chiihou is a non-dealer's: the dealer has Tenhou\.",
        gettext_lazy("Chiihou is a non-dealer's: the dealer has Tenhou."),
    ),
    (
        r"Chiihou is a tsumo on the first draw\.",
        gettext_lazy("Chiihou is a tsumo on the first draw."),
    ),
    (r"Chiihou is a hand without calls\.", gettext_lazy("Chiihou is a hand without calls.")),
    (r"Renhou is a non-dealer's\.", gettext_lazy("Renhou is a non-dealer's.")),
    (
        r"Renhou is a ron before the first draw\.",
        gettext_lazy("Renhou is a ron before the first draw."),
    ),
    (r"Renhou is a hand without calls\.", gettext_lazy("Renhou is a hand without calls.")),
    (
        r"The hand holds (?P<count>\d+) tiles with its calls: a winning hand has 14\.",
        gettext_lazy("The hand holds %(count)s tiles with its calls: a winning hand has 14."),
    ),
    (
        r"The winning tile must be one of the hand's own tiles, not a call's\.",
        gettext_lazy("The winning tile must be one of the hand's own tiles, not a call's."),
    ),
    (r"Choose exactly one winning tile\.", gettext_lazy("Choose exactly one winning tile.")),
    (
        r"(?P<tile>\w+) appears (?P<count>\d+) times: there are only four of each tile\.",
        gettext_lazy("%(tile)s appears %(count)s times: there are only four of each tile."),
    ),
    (
        r"At most (?P<most>\d+) (?P<indicators>dora|ura dora) indicators can be showing\.",
        gettext_lazy("At most %(most)s %(indicators)s indicators can be showing."),
    ),
    (
        r"Ura dora count only after riichi: remove them, or tick Riichi\.",
        gettext_lazy("Ura dora count only after riichi: remove them, or tick Riichi."),
    ),
    (
        r"A chi is three tiles in a row of one suit, not (?P<tiles>'[^']*')\.",
        gettext_lazy("A chi is three tiles in a row of one suit, not %(tiles)s."),
    ),
    (
        r"(?P<tile>0z|\dz) is not a tile: "
        r"(?P<rest>red fives are 0m, 0p or 0s|honours are 1z to 7z)\.",
        gettext_lazy("%(tile)s is not a tile: %(rest)s."),
    ),
    (
        r"The hand's yaku (?P<yaku>.+) is not played here\.",
        gettext_lazy("The hand's yaku %(yaku)s is not played here."),
    ),
]
_RESTS = {
    "red fives are 0m, 0p or 0s": gettext_lazy("red fives are 0m, 0p or 0s"),
    "honours are 1z to 7z": gettext_lazy("honours are 1z to 7z"),
}
_COMPILED = [(re.compile(rf"{pattern}\Z"), sentence) for pattern, sentence in _SENTENCES]
_HAND = re.compile(r"(?P<hand>[Hh])and (?P<number>\d+): (?P<rest>.+)\Z", re.DOTALL)
_YAKU_NAME_IN_SCORING = {y.name: y.key for y in yaku_table.YAKU_LIST}


def _value(name: str, text: str) -> str:
    """A pattern group's text as the sentence in the active language shows it."""
    if name.startswith("yaku"):
        key = _ROMAJI.get(text) or _YAKU_NAME_IN_SCORING.get(text)
        return yaku_name(key) if key else text
    if name == "way":
        return str(_WAYS.get(text, text))
    if name == "why":
        return str(_WHY.get(text, text))
    if name == "what":
        return str({"Dora": _("Dora"), "Ura dora": _("Ura dora"), "Red fives": _("Red fives")}
                   .get(text, text))  # fmt: skip
    if name == "indicators":
        return str(_INDICATORS.get(text, text))
    if name == "rest":
        return str(_RESTS.get(text, text))
    return text


def translate(message: str) -> str:
    """`message`, an English refusal of the engine, in the active language (as it is when
    no pattern knows it). "hand 3: ..." keeps its hand number in front."""
    text = str(message).strip()
    hand = _HAND.match(text)
    if hand:
        rest = translate(hand["rest"])
        if hand["hand"] == "H":
            return _("Hand %(number)s: %(problem)s") % {"number": hand["number"], "problem": rest}
        return _("hand %(number)s: %(problem)s") % {"number": hand["number"], "problem": rest}
    for pattern, sentence in _COMPILED:
        found = pattern.match(text)
        lowered = False
        if found is None and text[:1].isupper():
            # The views start a sentence with a capital: "The final scores add up to ...".
            found, lowered = pattern.match(text[:1].lower() + text[1:]), True
        if found is None:
            continue
        values = {name: _value(name, value) for name, value in found.groupdict().items()}
        result = str(sentence) % values
        return result[:1].upper() + result[1:] if lowered else result
    return text
