"""The app's views, one module per area: events (events, sessions, players, game set-up)
and games (the game page, hand entry and everything that changes a game's outcome)."""
