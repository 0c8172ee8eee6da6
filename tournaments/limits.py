"""Every bound on what a user can make the app hold or do, in one place beside the models.

Nothing is limited only by the honesty of the user: each list, upload, page and number a
person can type has a bound here, far beyond any real club or tournament, so that a hostile
or mistaken request is refused with a message instead of costing the server.
"""

# Numbers people type: a 30-digit table number is refused with a message instead of
# overflowing the database.
MAX_TABLE_NUMBER = 999
MAX_SESSION_NUMBER = 10_000
# Sessions made with a new event: a season of weekly nights fits.
MAX_SESSIONS_AT_CREATION = 60
MAX_RULE_NUMBER = 10_000_000

# Most players one event's roster holds: bounds the roster page and a seating plan's input.
ROSTER_LIMIT = 1000
# Most names one pasted list may hold.
PASTE_LIMIT = 500
# Search matches offered to tick at once on the roster page.
PICK_LIMIT = 50
# Stages of one event (qualifying, cuts, semi-finals, a final: a handful), and the values a
# stage's seed table (match points by seed) and its brackets (starting points) may hold.
MAX_STAGES = 8
MAX_SEED_TABLE = 64
MAX_BRACKETS = 16
# Most tables one session may be seated at.
SEATING_TABLE_LIMIT = ROSTER_LIMIT // 4
# The largest balanced plan a page makes, in players x rounds: 400 players over 30 rounds
# take about a second of the planner (1,000 over 30 took 4.8 s). Larger plans are made by
# `manage.py seating_plan`, which has no request to answer.
MAX_PAGE_SEATINGS = 12_000
# A seating file typed or uploaded on the seating page.
UPLOAD_LIMIT = 64 * 1024
# The longest round clock.
CLOCK_MAX_MINUTES = 600

# Log uploads: larger files are not game logs (a long Tenhou log is well under 100 kB).
MAX_LOG_BYTES = 2 * 1024 * 1024
MAX_FILES = 60
# An event file: larger exports are refused; an event of more games is a restore.
MAX_IMPORT_BYTES = 20 * 1024 * 1024
MAX_IMPORT_GAMES = 2_000

# Pages: rows a table shows at most, and page numbers beyond any real page (django-tables2
# shows the last page for a higher number).
MAX_PER_PAGE = 200
MAX_PAGES = 10_000
MAX_PLAYER_GAME_PAGES = 1_000

# Self-registration before the day. Most registrations one event holds at once (waiting,
# asked or confirmed), however large the organiser's own cap: as many as a roster holds.
EVENT_REGISTRATION_LIMIT = ROSTER_LIMIT
# Registrations one account may have waiting for an answer at once, across every event:
# a player enters a few events ahead, not a season's worth in one evening.
OPEN_REGISTRATIONS_PER_ACCOUNT = 10
# Round signals: "N minutes left" is from 1 minute to an hour.
SIGNAL_MAX_MINUTES = 60
# The short text a table adds to its referee call.
REFEREE_NOTE_LENGTH = 120
# Team events: teams in one event (a league of nine teams of four, or a large team
# tournament) and players one team holds, reserves included.
TEAMS_LIMIT = 64
TEAM_MEMBERS_LIMIT = 12

# Ratings across events: how many events one rating reads, how many games the R-style
# rating replays, how many ratings one account keeps, how many events the form offers.
MAX_RATING_EVENTS = 30
MAX_RATING_GAMES = 5_000
MAX_RATINGS_PER_ACCOUNT = 50
MAX_RATING_EVENT_CHOICES = 200
