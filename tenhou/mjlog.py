"""The native mjlog XML (`<mjloggm>`): one element per event of the game.

A three-player game (sanma) has the three-player bit (0x10) in `<GO type>`, an empty fourth
name and hand (`n3=""`, `hai3=""`), and a zero fourth score wherever scores are listed; a
North set aside (kita) is an `<N>` whose meld has the kita bit (0x20).
"""

from __future__ import annotations

import urllib.parse
import xml.etree.ElementTree as ET
from typing import Any

import defusedxml
import defusedxml.ElementTree

from scoring.errors import ScoringError, gettext_noop

from . import names, platforms
from .game import (
    TenhouGame,
    distinct_names,
    log_id_from_name,
    match_points_of,
    record_rules,
    win_dict,
    wins_hand,
)

# Abortive draws: the mjlog RYUUKYOKU `type`, to the record's `reason`.
ABORTS_XML = {
    "yao9": "nine_terminals",
    "kaze4": "four_winds",
    "kan4": "four_kans",
    "reach4": "four_riichi",
    "ron3": "triple_ron",
}


def load_xml(data: bytes | str) -> ET.Element:
    """The root of an mjlog document, parsed without document types or entities anywhere
    in it: an mjlog has neither, and entities can expand a small file into gigabytes.

    >>> load_xml('<!-- -->\\n<!DOCTYPE x [<!ENTITY a "b">]><mjloggm/>')
    Traceback (most recent call last):
    ...
    scoring.errors.ScoringError: not a Tenhou log: XML with a document type or entities
    """
    try:
        # defusedxml stops at the first DTD or entity declaration, wherever it stands.
        root = defusedxml.ElementTree.fromstring(
            data, forbid_dtd=True, forbid_entities=True, forbid_external=True
        )
    except defusedxml.DefusedXmlException:
        raise ScoringError(
            gettext_noop("not a Tenhou log: XML with a document type or entities")
        ) from None
    except ET.ParseError as err:
        text = data if isinstance(data, str) else data.decode("utf-8", "replace")
        text = text.lstrip("\ufeff \t\r\n")
        if ("<mjloggm" in text or "<mjloggm".startswith(text)) and "</mjloggm>" not in text:
            raise ScoringError(gettext_noop("truncated log: the XML ends early")) from None
        raise ScoringError(
            gettext_noop("not a Tenhou log: broken XML (%(error)s)"), error=str(err)
        ) from None
    if root.tag != "mjloggm":
        raise ScoringError(
            gettext_noop("not a Tenhou log: XML whose root is <%(tag)s>, not <mjloggm>"),
            tag=root.tag,
        )
    return root


def _ints(element: ET.Element, attribute: str, hand: int | None = None) -> list[int]:
    value = element.get(attribute)
    if value is None:
        raise ScoringError(
            gettext_noop("<%(tag)s> without its %(attribute)s"),
            hand=hand,
            tag=element.tag,
            attribute=repr(attribute),
        )
    try:
        return [int(v) for v in value.split(",")] if value else []
    except ValueError:
        raise ScoringError(
            gettext_noop("<%(tag)s> has an unreadable %(attribute)s"),
            hand=hand,
            tag=element.tag,
            attribute=repr(attribute),
        ) from None


def _rule_name(flags: int) -> str:
    """Tenhou's short rule name from the GO `type` bits (169 -> "鳳南喰赤")."""
    room = ("般", "上", "特", "鳳")[bool(flags & 0x20) * 2 + bool(flags & 0x80)]
    return (
        ("三" if flags & 0x10 else "")
        + room
        + ("南" if flags & 0x08 else "東")
        + ("" if flags & 0x04 else "喰")
        + ("" if flags & 0x02 else "赤")
        + ("速" if flags & 0x40 else "")
    )


def from_xml(root: ET.Element, name: str, rules: Any = None) -> TenhouGame:
    """The game of an mjlog; `rules` (a record's `rules` value), when given, are the
    record's rules instead of the Tenhou preset its game type names."""
    players: list[str] | None = None
    flags: int | None = None
    hands: list[dict[str, Any]] = []
    deltas: list[list[int]] = []
    owari: list[str] | None = None
    start: list[int] | None = None  # the scores at the current INIT
    riichi: list[int] = []
    kita: list[int] = []  # Norths each seat set aside in the current hand
    wins: list[dict[str, Any]] = []
    seats = 4
    after: list[int] | None = None
    number = 0

    def close_hand() -> None:
        if start is None:
            return
        if after is None:
            raise ScoringError(gettext_noop("truncated log: the hand has no result"), hand=number)
        if wins:
            hands.append(wins_hand(list(wins), sorted(riichi), number))
        deltas.append([a - b for a, b in zip(after, start, strict=True)])

    for element in root:
        tag = element.tag
        if tag == "GO":
            flags = int(element.get("type", "0"))
            seats = platforms.seats_of_game_type(flags)
        elif tag == "UN" and players is None and element.get("n0") is not None:
            names = [urllib.parse.unquote(element.get(f"n{i}", "")) for i in range(4)]
            if flags is None and not names[3]:
                seats = 3  # no <GO>: the empty fourth name tells
            if (seats == 3) != (not names[3]):
                raise ScoringError(
                    gettext_noop(
                        "the game type and the names disagree on whether three or four played"
                    )
                )
            players = distinct_names(names[:seats])
        elif tag == "INIT":
            close_hand()
            number += 1
            start = _seat_values(_ints(element, "ten", number), seats, number)
            start = [t * 100 for t in start]
            riichi, kita, wins, after = [], [0] * seats, [], None
        elif start is None:
            continue
        elif tag == "REACH" and element.get("step") == "2":
            riichi.append(int(element.get("who", "0")))
        elif tag == "N" and seats == 3 and _is_kita(int(element.get("m", "0"))):
            kita[int(element.get("who", "0")) % 3] += 1
        elif tag == "AGARI":
            win = _xml_win(element, number)
            if seats == 3 and kita[win["winner"] % 3]:
                win["kita"] = kita[win["winner"] % 3]
            wins.append(win)
            after = _after(element, number, seats)
        elif tag == "RYUUKYOKU":
            if wins:
                raise ScoringError(gettext_noop("a draw after a win in the same hand"), hand=number)
            hands.append(_xml_draw(element, sorted(riichi), number, seats))
            after = _after(element, number, seats)
        if tag in ("AGARI", "RYUUKYOKU") and element.get("owari"):
            owari = element.get("owari", "").split(",")
    close_hand()

    if players is None:
        raise ScoringError(gettext_noop("not a Tenhou log: no player names (<UN>)"))
    if not hands:
        raise ScoringError(gettext_noop("truncated log: no hands"))
    if owari is None or len(owari) not in (8, 2 * seats):
        raise ScoringError(gettext_noop("truncated log: no final result ('owari')"))
    try:
        final_scores = [int(s) * 100 for s in owari[0::2]][:seats]
        match_points = [match_points_of(p) for p in owari[1::2]][:seats]
    except (ValueError, ArithmeticError):
        raise ScoringError(gettext_noop("unreadable final result ('owari')")) from None
    # Without a <GO> the log says nothing of its length: Tenhou's ranked games are South
    # games unless the type bits say otherwise.
    platform, length = (
        platforms.from_game_type(flags)
        if flags is not None
        else (platforms.TENHOU, platforms.HANCHAN)
    )
    return TenhouGame(
        record={
            "format": "tenbou-game/1",
            "rules": record_rules(platform, length, final_scores, match_points, rules, seats),
            "players": players,
            "hands": hands,
        },
        log_id=log_id_from_name(name),
        players=players,
        hand_deltas=deltas,
        final_scores=final_scores,
        match_points=match_points,
        ruleset=_rule_name(flags) if flags is not None else "",
        platform=platform,
        length=length,
        seats=seats,
    )


def _seat_values(values: list[int], seats: int, number: int) -> list[int]:
    """One value per seat: a three-player game writes a fourth, zero one (or leaves it out)."""
    if len(values) == seats or (len(values) == 4 and not values[3]):
        return values[:seats]
    raise ScoringError(
        gettext_noop("a hand lists %(count)s seats' scores in a %(seats)s-player game"),
        hand=number,
        count=len(values),
        seats=seats,
    )


def _after(element: ET.Element, number: int, seats: int = 4) -> list[int]:
    """The scores after a result: `sc` is (score, change) pairs in hundreds."""
    sc = _ints(element, "sc", number)
    if len(sc) != 8 and len(sc) != 2 * seats:
        raise ScoringError(
            gettext_noop("<%(tag)s> has an unreadable 'sc'"), hand=number, tag=element.tag
        )
    if any(sc[2 * seats :]):
        raise ScoringError(
            gettext_noop("a hand lists %(count)s seats' scores in a %(seats)s-player game"),
            hand=number,
            count=4,
            seats=seats,
        )
    return [(sc[i] + sc[i + 1]) * 100 for i in range(0, 2 * seats, 2)]


def _xml_win(element: ET.Element, number: int) -> dict[str, Any]:
    winner = int(element.get("who", "-1"))
    source = int(element.get("fromWho", "-1"))
    if not (0 <= winner <= 3 and 0 <= source <= 3):
        raise ScoringError(gettext_noop("<AGARI> with an unreadable winner"), hand=number)
    ten = _ints(element, "ten", number)
    if len(ten) != 3:
        raise ScoringError(gettext_noop("<AGARI> with an unreadable 'ten'"), hand=number)
    fu = ten[0]
    yaku: list[str] = []
    han = dora = 0
    pairs = _ints(element, "yaku", number) if element.get("yaku") else []
    for yaku_id, value in zip(pairs[0::2], pairs[1::2], strict=True):
        yaku_name = _yaku_name(yaku_id, number)
        han += value
        if names.is_dora(yaku_name):
            dora += value
        elif value:
            yaku.append(_yaku_key(yaku_name, number))
    yakuman_ids = _ints(element, "yakuman", number) if element.get("yakuman") else []
    yaku += [_yaku_key(_yaku_name(y, number), number) for y in yakuman_ids]
    if not yakuman_ids and han == 0:
        raise ScoringError(gettext_noop("a win without yaku"), hand=number)
    melds = _ints(element, "m", number) if element.get("m") else []
    pao = element.get("paoWho")
    return win_dict(
        winner,
        None if source == winner else source,
        han=han,
        fu=fu,
        yakuman=len(yakuman_ids),
        pao=int(pao) if pao is not None else None,
        yaku=yaku,
        dora=dora,
        # An mjlog meld is closed only as a concealed kan: no chi/pon/added-kan bits, no
        # player it was called from.
        is_open=any(m & 0x3F and not _is_kita(m) for m in melds),
    )


def _is_kita(meld: int) -> bool:
    """Whether an mjlog meld is a North set aside: not a chi (0x04), pon or added kan
    (0x18), whose bits above say other things, but the kita bit (0x20).

    >>> _is_kita(0x20), _is_kita(0x20 | 0x08), _is_kita(0x20 | 0x04)
    (True, False, False)
    """
    return not meld & 0x1C and bool(meld & 0x20)


def _yaku_name(yaku_id: int, number: int) -> str:
    if not 0 <= yaku_id < len(names.YAKU_BY_ID):
        raise ScoringError(gettext_noop("unknown yaku id %(id)s"), hand=number, id=yaku_id)
    return names.YAKU_BY_ID[yaku_id]


def _yaku_key(name: str, number: int) -> str:
    key = names.yaku_key(name)
    if key is None:
        raise ScoringError(gettext_noop("unknown yaku %(name)s"), hand=number, name=repr(name))
    return key


def _xml_draw(
    element: ET.Element, riichi: list[int], number: int, seats: int = 4
) -> dict[str, Any]:
    kind = element.get("type")
    # An exhaustive draw shows the hands of the tenpai seats (hai0..hai3).
    tenpai = [seat for seat in range(seats) if element.get(f"hai{seat}") is not None]
    if kind is None:
        return {"result": "draw", "riichi": riichi, "tenpai": tenpai}
    if kind == "nm":
        sc = _ints(element, "sc", number)
        nagashi = [seat for seat in range(seats) if sc[2 * seat + 1] > 0]
        return {"result": "nagashi", "riichi": riichi, "nagashi": nagashi, "tenpai": tenpai}
    if kind in ABORTS_XML:
        return {"result": "abort", "riichi": riichi, "reason": ABORTS_XML[kind]}
    raise ScoringError(gettext_noop("unknown result %(kind)s"), hand=number, kind=repr(kind))
