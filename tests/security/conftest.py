"""The app's fixtures (events, players, a stranger), shared with tests/tournaments."""

from tests.tournaments.conftest import (  # noqa: F401
    anonymous,
    event,
    final_game,
    game,
    players,
    session,
    stranger,
    stranger_client,
)
