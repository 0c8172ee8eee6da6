"""Three-player (sanma) events and games for the tests of the reading pages.

Games are built from the models and the services' replay, seat by seat, so that these
tests do not depend on the forms that create games of three.
"""

from __future__ import annotations

import datetime

from django.db import transaction

from tournaments import services
from tournaments.models import Event, Game, GameSeat, Hand, Session
from tournaments.services.hands import _save_hand

# A finished tenhou-sanma south game, worked out by hand (start 35,000, return 40,000,
# uma +20/0/-20, oka +15, 200 a honba on a ron and 100 from each payer at a tsumo, noten
# 2,000; scoring/rules.py, "tenhou-sanma"). Seats: 0 Aki, 1 Ben, 2 Chie.
SANMA_HANDS = [
    # E1, Aki deals: Ben rons Aki, 3 han 40 fu = 5,200, and takes Chie's riichi stick.
    {"result": "ron", "riichi": [2], "wins": [{"winner": 1, "loser": 0, "han": 3, "fu": 40}]},
    # E2, Ben deals: Chie tsumo 1 han 30 fu: 500 from the dealer, 300 from Aki (no North).
    {"result": "tsumo", "riichi": [], "wins": [{"winner": 2, "han": 1, "fu": 30}]},
    # E3, Chie deals: a draw with Aki alone tenpai: 1,000 from each of the others.
    {"result": "draw", "riichi": [], "tenpai": [0]},
    # S1-1, Aki deals: Aki rons Chie, 2 han 30 fu as dealer = 2,900 + 200 for the honba.
    {"result": "ron", "riichi": [], "wins": [{"winner": 0, "loser": 2, "han": 2, "fu": 30}]},
    # S1-2: Ben tsumo mangan: 4,000 + 200 from Aki (dealer), 2,000 + 200 from Chie.
    {"result": "tsumo", "riichi": [], "wins": [{"winner": 1, "han": 5}]},
    # S2, Ben deals: Chie rons Aki, 1 han 30 fu = 1,000.
    {"result": "ron", "riichi": [], "wins": [{"winner": 2, "loser": 0, "han": 1, "fu": 30}]},
    # S3, Chie deals the last hand: nobody tenpai; Ben is over 40,000, so the game ends.
    {"result": "draw", "riichi": [], "tenpai": []},
]
# 29,400 / 46,100 / 29,500 (105,000 in all). Ben 1st: +6.1 + 20 + 15 = +41.1; Chie 2nd:
# -10.5 + 0 = -10.5; Aki 3rd: -10.6 - 20 = -30.6.
SANMA_FINAL = [29400, 46100, 29500]
SANMA_PLACES = [3, 1, 2]
SANMA_POINTS = ["-30.6", "+41.1", "-10.5"]


def sanma_event(organiser=None, *, slug="sanma", preset="tenhou-sanma") -> Event:
    event = Event.objects.create(
        name="Sanma Night", slug=slug, starts_on=datetime.date(2026, 9, 3), rules_preset=preset
    )
    if organiser is not None:
        event.organisers.add(organiser)
    Session.objects.create(event=event, number=1, date=datetime.date(2026, 9, 3))
    return event


def sanma_game(
    session: Session,
    names: list[str],
    *,
    table: int = 1,
    hands: list[dict] | None = None,
    final_scores: list[int] | None = None,
    awaits_scores: bool = False,
) -> Game:
    """A game of three at `session`: hand by hand (`hands`, finished when the engine says it
    is over) or of `final_scores` (finished), or with neither a game of hands just begun,
    or (`awaits_scores`) a game of final scores not entered yet."""
    players = services.players_by_name(names, create=True)
    final = final_scores is not None or awaits_scores
    mode = Game.EntryMode.FINAL_SCORES if final else Game.EntryMode.HANDS
    with transaction.atomic():
        game = Game.objects.create(session=session, table_number=table, entry_mode=mode)
        GameSeat.objects.bulk_create(
            GameSeat(
                game=game,
                seat=seat,
                player=player,
                open_session=session,
                entered_score=None if final_scores is None else final_scores[seat],
            )
            for seat, player in enumerate(players)
        )
        for number, doc in enumerate(hands or [], start=1):
            _save_hand(Hand.from_record(game, number, doc))
        result = services.rescore_game(game)
    if result is not None and result.finished:
        services.finish_game(game.pk)
    game.refresh_from_db()
    return game
