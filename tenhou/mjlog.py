"""The native mjlog XML (`<mjloggm>`): one element per event of the game."""

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
            raise ScoringError("truncated log: the XML ends early") from None
        raise ScoringError(f"not a Tenhou log: broken XML ({err})") from None
    if root.tag != "mjloggm":
        raise ScoringError(f"not a Tenhou log: XML whose root is <{root.tag}>, not <mjloggm>")
    return root


def _ints(element: ET.Element, attribute: str, hand: int | None = None) -> list[int]:
    value = element.get(attribute)
    if value is None:
        raise ScoringError(f"<{element.tag}> without its {attribute!r}", hand=hand)
    try:
        return [int(v) for v in value.split(",")] if value else []
    except ValueError:
        raise ScoringError(f"<{element.tag}> has an unreadable {attribute!r}", hand=hand) from None


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


def from_xml(root: ET.Element, name: str) -> TenhouGame:
    players: list[str] | None = None
    flags: int | None = None
    hands: list[dict[str, Any]] = []
    deltas: list[list[int]] = []
    owari: list[str] | None = None
    start: list[int] | None = None  # the scores at the current INIT
    riichi: list[int] = []
    wins: list[dict[str, Any]] = []
    after: list[int] | None = None
    number = 0

    def close_hand() -> None:
        if start is None:
            return
        if after is None:
            raise ScoringError("truncated log: the hand has no result", hand=number)
        if wins:
            hands.append(wins_hand(list(wins), sorted(riichi), number))
        deltas.append([a - b for a, b in zip(after, start, strict=True)])

    for element in root:
        tag = element.tag
        if tag == "GO":
            flags = int(element.get("type", "0"))
            if flags & 0x10:
                raise ScoringError("three-player logs are not supported")
        elif tag == "UN" and players is None and element.get("n0") is not None:
            names = [urllib.parse.unquote(element.get(f"n{i}", "")) for i in range(4)]
            if not names[3]:
                raise ScoringError("three-player logs are not supported")
            players = names
        elif tag == "INIT":
            close_hand()
            number += 1
            start = [t * 100 for t in _ints(element, "ten", number)]
            if len(start) != 4:
                raise ScoringError("three-player logs are not supported")
            riichi, wins, after = [], [], None
        elif start is None:
            continue
        elif tag == "REACH" and element.get("step") == "2":
            riichi.append(int(element.get("who", "0")))
        elif tag == "AGARI":
            wins.append(_xml_win(element, number))
            after = _after(element, number)
        elif tag == "RYUUKYOKU":
            if wins:
                raise ScoringError("a draw after a win in the same hand", hand=number)
            hands.append(_xml_draw(element, sorted(riichi), number))
            after = _after(element, number)
        if tag in ("AGARI", "RYUUKYOKU") and element.get("owari"):
            owari = element.get("owari", "").split(",")
    close_hand()

    if players is None:
        raise ScoringError("not a Tenhou log: no player names (<UN>)")
    if not hands:
        raise ScoringError("truncated log: no hands")
    if owari is None or len(owari) != 8:
        raise ScoringError("truncated log: no final result ('owari')")
    try:
        final_scores = [int(s) * 100 for s in owari[0::2]]
        match_points = [match_points_of(p) for p in owari[1::2]]
    except (ValueError, ArithmeticError):
        raise ScoringError("unreadable final result ('owari')") from None
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
            "rules": record_rules(platform, length, final_scores, match_points),
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
    )


def _after(element: ET.Element, number: int) -> list[int]:
    """The scores after a result: `sc` is (score, change) pairs in hundreds."""
    sc = _ints(element, "sc", number)
    if len(sc) != 8:
        raise ScoringError("three-player logs are not supported")
    return [(sc[i] + sc[i + 1]) * 100 for i in range(0, 8, 2)]


def _xml_win(element: ET.Element, number: int) -> dict[str, Any]:
    winner = int(element.get("who", "-1"))
    source = int(element.get("fromWho", "-1"))
    if not (0 <= winner <= 3 and 0 <= source <= 3):
        raise ScoringError("<AGARI> with an unreadable winner", hand=number)
    ten = _ints(element, "ten", number)
    if len(ten) != 3:
        raise ScoringError("<AGARI> with an unreadable 'ten'", hand=number)
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
        raise ScoringError("a win without yaku", hand=number)
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
        is_open=any(m & 0x3F for m in melds),
    )


def _yaku_name(yaku_id: int, number: int) -> str:
    if not 0 <= yaku_id < len(names.YAKU_BY_ID):
        raise ScoringError(f"unknown yaku id {yaku_id}", hand=number)
    return names.YAKU_BY_ID[yaku_id]


def _yaku_key(name: str, number: int) -> str:
    key = names.yaku_key(name)
    if key is None:
        raise ScoringError(f"unknown yaku {name!r}", hand=number)
    return key


def _xml_draw(element: ET.Element, riichi: list[int], number: int) -> dict[str, Any]:
    kind = element.get("type")
    # An exhaustive draw shows the hands of the tenpai seats (hai0..hai3).
    tenpai = [seat for seat in range(4) if element.get(f"hai{seat}") is not None]
    if kind is None:
        return {"result": "draw", "riichi": riichi, "tenpai": tenpai}
    if kind == "nm":
        sc = _ints(element, "sc", number)
        nagashi = [seat for seat in range(4) if sc[2 * seat + 1] > 0]
        return {"result": "nagashi", "riichi": riichi, "nagashi": nagashi, "tenpai": tenpai}
    if kind in ABORTS_XML:
        return {"result": "abort", "riichi": riichi, "reason": ABORTS_XML[kind]}
    raise ScoringError(f"unknown result {kind!r}", hand=number)
