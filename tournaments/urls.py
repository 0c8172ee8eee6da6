from django.urls import path

from .views import (
    accounts,
    checkin,
    events,
    games,
    hands,
    imports,
    live,
    offline,
    players,
    ratings,
    registrations,
    room,
    roster,
    rounds,
    seating,
    sheets,
    stages,
    standings,
    sync,
    tables_links,
    teams,
    trail,
)

app_name = "tournaments"

urlpatterns = [
    # Events, sessions, players and setting up games (views/events.py).
    path("", events.home, name="home"),
    path("events/new/", events.event_create, name="event_create"),
    path("events/<slug:slug>/", events.event_detail, name="event"),
    path("events/<slug:slug>/edit/", events.event_edit, name="event_edit"),
    path("events/<slug:slug>/rules/", events.event_rules, name="event_rules"),
    path(
        "events/<slug:slug>/organisers/",
        accounts.event_organisers,
        name="event_organisers",
    ),
    path(
        "events/<slug:slug>/organisers/<int:user_id>/remove/",
        accounts.organiser_remove,
        name="organiser_remove",
    ),
    path("events/<slug:slug>/sessions/new/", events.session_create, name="session_create"),
    path("events/<slug:slug>/sessions/<int:number>/", events.session_detail, name="session"),
    path(
        "events/<slug:slug>/sessions/<int:number>/edit/",
        events.session_edit,
        name="session_edit",
    ),
    path(
        "events/<slug:slug>/sessions/<int:number>/games/new/",
        events.game_create,
        name="game_create",
    ),
    path("games/<int:pk>/edit/", events.game_edit, name="game_edit"),
    # The round clock and calling time (views/rounds.py).
    path(
        "events/<slug:slug>/sessions/<int:number>/clock/start/",
        rounds.clock_start,
        name="clock_start",
    ),
    path(
        "events/<slug:slug>/sessions/<int:number>/clock/stop/",
        rounds.clock_stop,
        name="clock_stop",
    ),
    path(
        "events/<slug:slug>/sessions/<int:number>/call-time/",
        rounds.session_call_time,
        name="session_call_time",
    ),
    path("games/<int:pk>/call-time/", rounds.game_call_time, name="game_call_time"),
    # Round signals and referee calls (views/room.py).
    path(
        "events/<slug:slug>/sessions/<int:number>/signal/",
        room.signal_send,
        name="signal_send",
    ),
    path(
        "events/<slug:slug>/sessions/<int:number>/signal/clear/",
        room.signal_clear,
        name="signal_clear",
    ),
    path("games/<int:pk>/referee/", room.referee_call, name="referee_call"),
    path(
        "games/<int:pk>/referee/acknowledge/",
        room.referee_acknowledge,
        name="referee_acknowledge",
    ),
    path("games/<int:pk>/referee/resolve/", room.referee_resolve, name="referee_resolve"),
    # The live screen for the room (views/live.py).
    path("events/<slug:slug>/live/", live.live, name="live"),
    # The trail of changes (views/trail.py).
    path("events/<slug:slug>/changes/", trail.event_trail, name="event_trail"),
    path("events/<slug:slug>/changes.csv", trail.event_trail_csv, name="event_trail_csv"),
    path("events/<slug:slug>/changes/<int:pk>/restore/", trail.trail_restore, name="trail_restore"),
    # Table links and slips (views/tables_links.py).
    path("t/<int:link_id>/", tables_links.table_link_open, name="table_link"),
    # The address of slips printed before the code moved behind `#`.
    path(
        "t/<int:link_id>/<str:code>/",
        tables_links.table_link_open_in_path,
        name="table_link_in_path",
    ),
    path(
        "games/<int:pk>/table-link/renew/", tables_links.table_link_renew, name="table_link_renew"
    ),
    path(
        "games/<int:pk>/table-link/revoke/",
        tables_links.table_link_revoke,
        name="table_link_revoke",
    ),
    path("games/<int:pk>/lock/", tables_links.game_lock, name="game_lock"),
    path("games/<int:pk>/slip/", tables_links.game_slip, name="game_slip"),
    # The table link as a web app on the phone (views/offline.py).
    path("games/<int:pk>/app.webmanifest", offline.game_manifest, name="game_manifest"),
    path("games/<int:pk>/sw.js", offline.game_service_worker, name="game_service_worker"),
    path(
        "events/<slug:slug>/sessions/<int:number>/table-links/",
        tables_links.session_links_make,
        name="session_links_make",
    ),
    path(
        "events/<slug:slug>/sessions/<int:number>/slips/",
        tables_links.session_slips,
        name="session_slips",
    ),
    # Check-in before seating a session (views/checkin.py).
    path(
        "events/<slug:slug>/sessions/<int:number>/check-in/",
        checkin.check_in,
        name="check_in",
    ),
    # Seating a session from the roster, and its seating list (views/seating.py).
    path(
        "events/<slug:slug>/sessions/<int:number>/seat/",
        seating.seat_players,
        name="seat_players",
    ),
    path(
        "events/<slug:slug>/sessions/<int:number>/seating/",
        seating.seating_list,
        name="seating_list",
    ),
    path("games/<int:pk>/entry-mode/", seating.game_entry_mode, name="game_entry_mode"),
    # The roster (views/roster.py).
    path("events/<slug:slug>/roster/", roster.roster, name="roster"),
    path("events/<slug:slug>/roster/pick/", roster.roster_pick, name="roster_pick"),
    path("events/<slug:slug>/roster/new/", roster.roster_new, name="roster_new"),
    path("events/<slug:slug>/roster/paste/", roster.roster_paste, name="roster_paste"),
    path(
        "events/<slug:slug>/roster/<int:player_id>/withdraw/",
        roster.roster_withdraw,
        name="roster_withdraw",
    ),
    path(
        "events/<slug:slug>/roster/<int:player_id>/return/",
        roster.roster_return,
        name="roster_return",
    ),
    path(
        "events/<slug:slug>/roster/<int:player_id>/remove/",
        roster.roster_remove,
        name="roster_remove",
    ),
    # Registration before the day (views/registrations.py).
    path(
        "events/<slug:slug>/registration/",
        registrations.registration,
        name="registration",
    ),
    path(
        "events/<slug:slug>/registration/withdraw/",
        registrations.registration_withdraw,
        name="registration_withdraw",
    ),
    path(
        "events/<slug:slug>/registrations/",
        registrations.registrations,
        name="registrations",
    ),
    path(
        "events/<slug:slug>/registrations/<int:registration_id>/confirm/",
        registrations.registration_confirm,
        name="registration_confirm",
    ),
    path(
        "events/<slug:slug>/registrations/<int:registration_id>/decline/",
        registrations.registration_decline,
        name="registration_decline",
    ),
    path(
        "events/<slug:slug>/roster/<int:player_id>/substitute/",
        roster.roster_substitute,
        name="roster_substitute",
    ),
    # Stages: qualifying, cuts and finals (views/stages.py).
    path("events/<slug:slug>/stages/", stages.stage_list, name="stages"),
    path("events/<slug:slug>/stages/new/", stages.stage_create, name="stage_create"),
    path("events/<slug:slug>/stages/<int:number>/", stages.stage_detail, name="stage"),
    path("events/<slug:slug>/stages/<int:number>/edit/", stages.stage_edit, name="stage_edit"),
    path("events/<slug:slug>/stages/<int:number>/cut/", stages.stage_cut, name="stage_cut"),
    path("events/<slug:slug>/stages/<int:number>/hide/", stages.stage_hide, name="stage_hide"),
    path(
        "events/<slug:slug>/stages/<int:number>/remove/",
        stages.stage_remove,
        name="stage_remove",
    ),
    path("events/<slug:slug>/placement/", stages.placement_export, name="placement_export"),
    # Teams: the teams, one team, the team table and a session's line-ups (views/teams.py).
    path("events/<slug:slug>/teams/", teams.teams, name="teams"),
    path("events/<slug:slug>/teams/<int:pk>/", teams.team_detail, name="team"),
    path("events/<slug:slug>/team-standings/", teams.team_standings, name="team_standings"),
    path("events/<slug:slug>/sessions/<int:number>/lineups/", teams.lineups, name="lineups"),
    # Standings, results and whole-event exports (views/standings.py).
    path("events/<slug:slug>/standings/", standings.standings, name="standings"),
    path("events/<slug:slug>/results/", standings.results, name="results"),
    path("events/<slug:slug>/statistics/", standings.event_statistics, name="statistics"),
    path("events/<slug:slug>/ema/", standings.ema_results, name="ema_results"),
    path("events/<slug:slug>/export.json", standings.event_export, name="event_export"),
    path("events/<slug:slug>/export.zip", standings.event_export_zip, name="event_export_zip"),
    path("events/<slug:slug>/import-records/", standings.event_import, name="event_import"),
    # Printable sheets (views/sheets.py).
    path(
        "events/<slug:slug>/sessions/<int:number>/tables/<int:table>/scoresheet/",
        sheets.scoresheet,
        name="scoresheet",
    ),
    path(
        "events/<slug:slug>/sessions/<int:number>/tables/<int:table>/scoresheet/blank/",
        sheets.scoresheet_blank,
        name="scoresheet_blank",
    ),
    path("games/<int:pk>/sheet/", sheets.game_sheet, name="game_sheet"),
    # Importing Tenhou logs (views/imports.py).
    path("events/<slug:slug>/import/", imports.import_upload, name="import_upload"),
    path(
        "events/<slug:slug>/import/<str:token>/",
        imports.import_preview,
        name="import_preview",
    ),
    path("players/", events.player_list, name="players"),
    path("players/new/", events.player_create, name="player_create"),
    path("players/<int:pk>/", events.player_detail, name="player"),
    path("players/<int:pk>/edit/", events.player_edit, name="player_edit"),
    path("players/<int:pk>/login/", accounts.player_link, name="player_link"),
    path("players/<int:pk>/merge/", players.player_merge, name="player_merge"),
    # A game and its hands (views/games.py).
    path("games/<int:pk>/", games.game_detail, name="game"),
    path("games/<int:pk>/record.json", games.game_record, name="game_record"),
    path("games/<int:pk>/hands/new/", hands.hand_new, name="hand_new"),
    path("games/<int:pk>/hands/count/", hands.hand_count, name="hand_count"),
    # A table's phone: the game as it reads it, and each hand from its outbox (views/sync.py).
    path("games/<int:pk>/hands/record.json", sync.hand_record, name="hand_record"),
    path("games/<int:pk>/hands/sync/", sync.hand_sync, name="hand_sync"),
    path("games/<int:pk>/hands/<int:number>/edit/", hands.hand_edit, name="hand_edit"),
    path("games/<int:pk>/hands/<int:number>/delete/", hands.hand_delete, name="hand_delete"),
    path("games/<int:pk>/undo/", hands.hand_undo, name="hand_undo"),
    path("games/<int:pk>/final-scores/", games.final_scores, name="final_scores"),
    path(
        "games/<int:pk>/final-scores/clear/",
        games.final_scores_clear,
        name="final_scores_clear",
    ),
    path("games/<int:pk>/delete/", games.game_delete, name="game_delete"),
    path("games/<int:pk>/finish/", games.game_finish, name="game_finish"),
    path("games/<int:pk>/reopen/", games.game_reopen, name="game_reopen"),
    path("games/<int:pk>/penalties/new/", games.penalty_new, name="penalty_new"),
    path(
        "games/<int:pk>/penalties/<int:penalty_id>/delete/",
        games.penalty_delete,
        name="penalty_delete",
    ),
    # Ratings across events (views/ratings.py).
    path("ratings/", ratings.rating_list, name="ratings"),
    path("ratings/new/", ratings.rating_create, name="rating_create"),
    path("ratings/<int:pk>/", ratings.rating_detail, name="rating"),
    path("ratings/<int:pk>/edit/", ratings.rating_edit, name="rating_edit"),
    path("ratings/<int:pk>/delete/", ratings.rating_delete, name="rating_delete"),
    path(
        "ratings/<int:pk>/players/<int:player_id>/",
        ratings.rating_player,
        name="rating_player",
    ),
]
