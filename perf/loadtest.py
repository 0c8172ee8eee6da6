"""The load test: a tournament day's room, simulated against a running app server.

A session of games in progress, each with its table link, is prepared in the database.
Then, for a bounded time, every table enters its hands through the real hand form (GET
the form, POST it for the preview, then confirm it from the preview, as a phone does after
opening the table's link) while four readers a table follow the room: two of every three
reload the standings and their own game page, the third keeps the live screen open, which
polls as the page itself says. Afterwards the database is checked against what the
clients saw: every hand a table was told is saved is stored exactly once, as it was
entered, and every game's stored results equal a fresh replay of its record through the
engine.

The clients are plain threads with `http.client`; `manage.py load_test` starts the app
server (gunicorn) and prints the figures.
"""

from __future__ import annotations

import datetime
import http.client
import http.cookies
import random
import re
import threading
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from html import unescape
from typing import Any

from django.db.models import Prefetch
from django.urls import reverse

import scoring
from scoring.game import next_state, play_hand, start_state
from scoring.record import parse_hand
from scoring.rules import resolve_rules
from scoring.simulate import random_hand
from tournaments import services
from tournaments.models import Event, Game, GameSeat, Hand, Session, TableLink, Win

SLUG = "load-test"
# Kinds of request, in the order the report prints them.
KINDS = (
    "standings",
    "game page",
    "live screen",
    "table link",
    "hand form",
    "hand preview",
    "hand saved",
)
# Of every three readers a table, the third keeps the live screen open.
LIVE_EVERY_NTH = 3
# The p99 of all requests a room may take, by its number of tables: what a user at a table
# feels, on the 2-core machine the figures are taken on.
P99_BOUNDS = ((100, 0.250), (200, 0.500))
# The form shows 13 for 13 han or more; the engine pays them alike.
MOST_HAN = 13


# --- the room ----------------------------------------------------------------------------


@dataclass
class Table:
    """One table of the session: its game, its link and the hands it will enter."""

    number: int
    game_id: int
    link: str  # path of the table link
    players: list[int]  # player ids, seat order
    plan: list[dict[str, Any]]  # hand objects, in order, ending where the game ends
    entered: list[dict[str, Any]] = field(default_factory=list)  # saved, as the client saw
    uncertain: bool = False  # the last save's answer never came: stored or not, unknown
    recovered: int = 0  # saves without an answer that were found stored afterwards
    stopped: str = ""  # why the table stopped entering before its time was up


def plan_hands(rng: random.Random, rules_spec: Any) -> list[dict[str, Any]]:
    """A whole game of random but valid hands, each one the hand form can express."""
    rules = resolve_rules(rules_spec)
    state = start_state(rules)
    hands: list[dict[str, Any]] = []
    while not state.finished:
        doc = random_hand(rng, rules)
        for win in doc.get("wins", []):
            # The form has no "liable for one yakuman only"; 13 stands for 13 or more han.
            win.pop("pao_yakuman", None)
            if "han" in win:
                win["han"] = min(win["han"], MOST_HAN)
        doc["riichi"] = [s for s in doc["riichi"] if state.scores[s] >= rules.riichi_min_points]
        number = len(hands) + 1
        report, settlement = play_hand(state, parse_hand(doc, number), rules, number=number)
        state = next_state(state, report, settlement, rules)
        hands.append(doc)
    return hands


def form_fields(doc: dict[str, Any]) -> list[tuple[str, str]]:
    """What a phone posts to the hand form for the hand object `doc`."""
    fields = [("result", doc["result"])]
    fields += [("riichi", str(seat)) for seat in doc.get("riichi", [])]
    for i, win in enumerate(doc.get("wins", []), start=1):
        fields.append((f"w{i}_winner", str(win["winner"])))
        if win.get("yakuman") is not None:
            fields += [(f"w{i}_han", "Y"), (f"w{i}_yakuman", str(win["yakuman"]))]
        else:
            fields.append((f"w{i}_han", str(win["han"])))
            if win.get("fu") is not None:
                fields.append((f"w{i}_fu", str(win["fu"])))
        if win.get("pao") is not None:
            fields.append((f"w{i}_pao", str(win["pao"])))
        if i == 1 and win.get("loser") is not None:
            fields.append(("loser", str(win["loser"])))
    for key in ("tenpai", "nagashi"):
        fields += [(key, str(seat)) for seat in doc.get(key, [])]
    if "reason" in doc:
        fields.append(("reason", doc["reason"]))
    if "offender" in doc:
        fields.append(("offender", str(doc["offender"])))
    return fields


class NotALoadTest(Exception):
    """The event holds games the load test did not seat: it is not the load test's to
    delete."""


def refuse_unless_made_here(event: Event) -> None:
    """Refuse an event with a seat of anyone but the load test's own players."""
    others = GameSeat.objects.filter(game__session__event=event).exclude(
        player__display_name__startswith=f"{event.slug} player "
    )
    if others.exists():
        raise NotALoadTest(
            f"The event {event.slug!r} has games of players the load test did not make: "
            "it is not deleted. Give --fresh only for the load test's own event (--slug)."
        )


def prepare(
    *, tables: int, slug: str = SLUG, seed: int = 1, fresh: bool = False, say: Callable = print
) -> list[Table]:
    """A new session of the event `slug` (made, with its players, on the first run) with
    one game in progress and a live table link at each of `tables` tables. With `fresh`,
    the event's earlier sessions go first: each run adds a session, and a room whose
    event holds every earlier run's games costs more than a room on its first day."""
    event = Event.objects.filter(slug=slug).first()
    if fresh and event is not None:
        refuse_unless_made_here(event)
        event.delete()
        event = None
    if event is None:
        event = Event.objects.create(
            name=f"Load test ({tables} tables)",
            slug=slug,
            kind=Event.Kind.TOURNAMENT,
            starts_on=datetime.date.today(),
        )
    names = [f"{slug} player {i:04d}" for i in range(tables * 4)]
    players = services.players_by_name(names, create=True)
    session = Session.objects.create(
        event=event, number=event.sessions.next_number(), date=datetime.date.today()
    )
    say(f"Seating {tables} tables in session {session.number} of {event.slug}...")
    rng = random.Random(f"{seed}-{session.number}")
    order = list(players)
    rng.shuffle(order)
    rules = event.rules_spec()
    games = []
    for number in range(1, tables + 1):
        four = order[(number - 1) * 4 : number * 4]
        games.append(services.create_game(session, four, table_number=number))
    services.make_table_links(session.pk)
    links = {link.game_id: link for link in TableLink.objects.live().filter(game__session=session)}
    return [
        Table(
            number=game.table_number,
            game_id=game.pk,
            # What a phone opens in one request (the slip's address needs its script).
            link=reverse(
                "tournaments:table_link_in_path", args=[links[game.pk].pk, links[game.pk].code]
            ),
            players=[p.pk for p in order[(game.table_number - 1) * 4 : game.table_number * 4]],
            plan=plan_hands(rng, rules),
        )
        for game in games
    ]


# --- the clients -------------------------------------------------------------------------


class RequestFailed(Exception):
    pass


@dataclass
class Answer:
    status: int
    location: str
    body: str


class Browser:
    """One phone: its cookies, one connection per request, a bounded wait for each."""

    def __init__(self, host: str, port: int, timeout: float):
        self.host, self.port, self.timeout = host, port, timeout
        self.cookies: dict[str, str] = {}

    def request(
        self,
        method: str,
        path: str,
        fields: list[tuple[str, str]] | None = None,
        extra: dict[str, str] | None = None,
    ):
        headers = {"Host": f"{self.host}:{self.port}", "User-Agent": "tenbou-load-test"}
        headers.update(extra or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if fields is not None:
            body = urllib.parse.urlencode(fields).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode("utf-8", "replace")
            for header in response.headers.get_all("Set-Cookie") or []:
                cookie = http.cookies.SimpleCookie()
                cookie.load(header)
                for name, morsel in cookie.items():
                    self.cookies[name] = morsel.value
            return Answer(response.status, response.getheader("Location", ""), text)
        finally:
            connection.close()


@dataclass
class Recorder:
    """Every request's time and every failure, by kind; shared by all client threads."""

    times: dict[str, list[float]] = field(default_factory=dict)
    errors: dict[str, Counter] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def timed(
        self, kind: str, browser: Browser, method: str, path: str, fields=None, extra=None
    ) -> Answer:
        started = time.perf_counter()
        try:
            answer = browser.request(method, path, fields, extra)
        except (OSError, http.client.HTTPException) as err:
            self.failed(kind, f"{type(err).__name__}: {err}")
            raise RequestFailed(str(err)) from None
        with self.lock:
            self.times.setdefault(kind, []).append(time.perf_counter() - started)
        return answer

    def failed(self, kind: str, reason: str) -> None:
        with self.lock:
            self.errors.setdefault(kind, Counter())[reason] += 1

    def expect(self, kind: str, answer: Answer, status: int) -> bool:
        if answer.status == status:
            return True
        self.failed(kind, f"answered {answer.status}, expected {status}{_reason(answer)}")
        return False


def _reason(answer: Answer) -> str:
    found = re.search(r'class="[^"]*(?:errorlist|alert)[^"]*"[^>]*>(.*?)</', answer.body, re.S)
    if found:
        return ": " + re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(1))).strip()[:160]
    return ""


CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
NUMBER = re.compile(r'name="number" value="(\d+)"')
# The preview's confirm form, and the hidden fields it posts again with "Confirm and save".
CONFIRM = re.compile(r'<form method="post" class="confirm-actions"[^>]*>(.*?)</form>', re.S)
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')
# What the live screen polls next and how often: htmx attributes of its panel.
POLL_URL = re.compile(r'id="live-panel"[^>]*hx-get="([^"]+)"')
POLL_EVERY = re.compile(r'id="live-panel"[^>]*hx-trigger="every (\d+(?:\.\d+)?)s"')


@dataclass
class Room:
    """Where the app listens and how the room behaves."""

    host: str
    port: int
    slug: str
    seconds: float
    reload_every: float = 10.0  # each reader's standings and game page
    hand_every: float = 10.0  # each table's next hand
    timeout: float = 30.0


def _pause(seconds: float, until: float) -> bool:
    """Sleep `seconds` unless the run ends first; False once it has ended."""
    time.sleep(max(0.0, min(seconds, until - time.monotonic())))
    return time.monotonic() < until


def _jitter(rng: random.Random, every: float) -> float:
    return every * rng.uniform(0.5, 1.5)


def play_table(room: Room, table: Table, recorder: Recorder, until: float, seed: int) -> None:
    """One table's phone: open the link, then enter the planned hands one by one, each
    through the form, its preview and the preview's "Confirm and save".

    As a person would: a page that gets no answer is loaded again at the next try; after a
    save that got no answer, the form's next hand number tells whether it was stored, and
    previewing or saving it again is answered "entered already" (409) if it was stored
    meanwhile.
    """
    rng = random.Random(seed)
    phone = Browser(room.host, room.port, room.timeout)
    form_path = reverse("tournaments:hand_new", args=[table.game_id])
    pending: dict[str, Any] | None = None  # a hand whose save got no answer
    opened = False
    while len(table.entered) < len(table.plan):
        if not _pause(_jitter(rng, room.hand_every), until):
            break
        try:
            if not opened:
                answer = recorder.timed("table link", phone, "GET", table.link)
                if not recorder.expect("table link", answer, 302):
                    table.stopped = "the table link did not open"
                    break
                opened = True
                continue
            form = recorder.timed("hand form", phone, "GET", form_path)
        except RequestFailed:
            continue
        if not recorder.expect("hand form", form, 200):
            table.stopped = f"the hand form answered {form.status}"
            break
        token, number = CSRF.search(form.body), NUMBER.search(form.body)
        if not token or not number:
            recorder.failed("hand form", "no CSRF token or hand number on the form")
            table.stopped = "the hand form was incomplete"
            break
        offered = int(number.group(1))
        if pending is not None and offered == len(table.entered) + 2:
            table.entered.append(pending)  # the save without an answer was stored
            table.recovered += 1
            pending = None
            continue
        if offered != len(table.entered) + 1:
            recorder.failed(
                "hand form", f"the form offers hand {offered} after {len(table.entered)} saved"
            )
            table.stopped = "the form's hand number disagreed with the hands saved"
            break
        doc = table.plan[len(table.entered)]
        fields = [
            ("csrfmiddlewaretoken", token.group(1)),
            ("number", str(offered)),
            *form_fields(doc),
            ("action", "preview"),
        ]
        try:
            preview = recorder.timed("hand preview", phone, "POST", form_path, fields)
        except RequestFailed:
            continue
        if preview.status == 409 and pending is not None:
            # The earlier save was stored after all: the app says the hand is taken.
            table.entered.append(pending)
            table.recovered += 1
            pending = None
            continue
        if not recorder.expect("hand preview", preview, 200):
            table.stopped = f"a preview answered {preview.status}"
            break
        confirm = confirm_fields(preview.body)
        if confirm is None:
            recorder.failed("hand preview", "no confirm form on the preview")
            table.stopped = "the preview had nothing to confirm"
            break
        try:
            saved = recorder.timed("hand saved", phone, "POST", form_path, confirm)
        except RequestFailed:
            pending = doc
            continue
        if saved.status == 409 and pending is not None:
            # The earlier save was stored after all, and the app refused a second copy.
            table.entered.append(doc)
            table.recovered += 1
            pending = None
            continue
        pending = None
        if not recorder.expect("hand saved", saved, 302):
            table.stopped = f"a save answered {saved.status}"
            break
        table.entered.append(doc)
    table.uncertain = pending is not None


def confirm_fields(body: str) -> list[tuple[str, str]] | None:
    """What "Confirm and save" on a preview page posts: its form's hidden fields (the CSRF
    token and the hand as it was previewed) and the button's action; None without it."""
    form = CONFIRM.search(body)
    if form is None or 'name="action" value="save"' not in form.group(1):
        return None
    fields = [(name, unescape(value)) for name, value in HIDDEN.findall(form.group(1))]
    return [*fields, ("action", "save")]


def play_player(room: Room, game_id: int, recorder: Recorder, until: float, seed: int) -> None:
    """One player's phone: the standings and their own game, again and again."""
    rng = random.Random(seed)
    phone = Browser(room.host, room.port, room.timeout)
    standings = reverse("tournaments:standings", args=[room.slug])
    game = reverse("tournaments:game", args=[game_id])
    if not _pause(rng.uniform(0, room.reload_every), until):
        return
    while True:
        started = time.monotonic()
        for kind, path in (("standings", standings), ("game page", game)):
            if time.monotonic() >= until:
                return
            try:
                recorder.expect(kind, recorder.timed(kind, phone, "GET", path), 200)
            except RequestFailed:
                pass
        wait = _jitter(rng, room.reload_every) - (time.monotonic() - started)
        if not _pause(wait, until):
            return


def play_live(room: Room, recorder: Recorder, until: float, seed: int) -> None:
    """One reader with the live screen open: the page once, then its panel, polled as
    htmx does (the address and the interval the panel names, with the HX-Request header)."""
    rng = random.Random(seed)
    screen = Browser(room.host, room.port, room.timeout)
    path = reverse("tournaments:live", args=[room.slug])
    extra: dict[str, str] = {}
    every = room.reload_every  # until the page says how often it polls
    if not _pause(rng.uniform(0, every), until):
        return
    while True:
        started = time.monotonic()
        try:
            answer = recorder.timed("live screen", screen, "GET", path, extra=extra)
        except RequestFailed:
            answer = None
        if answer is not None and recorder.expect("live screen", answer, 200):
            poll, interval = POLL_URL.search(answer.body), POLL_EVERY.search(answer.body)
            if poll is None or interval is None:
                recorder.failed("live screen", "the live screen names no address to poll")
                return
            # htmx asks for the panel alone, with its header; the panel then replaces itself.
            path, every = unescape(poll.group(1)), float(interval.group(1))
            extra = {"HX-Request": "true", "HX-Target": "live-panel"}
        if not _pause(every - (time.monotonic() - started), until):
            return


def warm_up(room: Room, tables: list[Table], *, workers: int) -> None:
    """Have every app worker serve the pages once before the clock starts, so that the
    figures are not those of workers loading code and templates."""
    paths = [
        reverse("login"),
        reverse("tournaments:standings", args=[room.slug]),
        reverse("tournaments:game", args=[tables[0].game_id]),
        reverse("tournaments:live", args=[room.slug]),
    ]

    def visit() -> None:
        phone = Browser(room.host, room.port, max(room.timeout, 60))
        for path in paths:
            try:
                phone.request("GET", path)
            except (OSError, http.client.HTTPException):
                pass

    threads = [threading.Thread(target=visit, daemon=True) for _ in range(workers * 3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


@dataclass
class Figures:
    """What one kind of request did during the run."""

    kind: str
    count: int
    per_second: float
    p50: float
    p95: float
    p99: float
    errors: int


@dataclass
class RunResult:
    seconds: float
    figures: list[Figures]
    errors: dict[str, Counter]
    tables: list[Table]

    @property
    def total(self) -> Figures:
        return next(f for f in self.figures if f.kind == "all")

    @property
    def error_count(self) -> int:
        return sum(sum(c.values()) for c in self.errors.values())


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, round(share * len(ordered) + 0.5 - 1e-9))
    return ordered[min(rank, len(ordered)) - 1]


def p99_bound(tables: int) -> float | None:
    """The most the p99 of all requests may be, in seconds, for a room of `tables` tables
    (None above the largest room with a bound)."""
    for most, bound in P99_BOUNDS:
        if tables <= most:
            return bound
    return None


def run(room: Room, tables: list[Table], *, readers_per_table: int = 4, seed: int = 1):
    """Play the room for `room.seconds`; every client has stopped when this returns."""
    recorder = Recorder()
    threading.stack_size(256 * 1024)  # hundreds of mostly sleeping clients
    started = time.monotonic()
    until = started + room.seconds
    threads = []
    readers = 0
    for table in tables:
        threads.append(
            threading.Thread(
                target=play_table,
                args=(room, table, recorder, until, seed * 100_003 + table.number),
                daemon=True,
            )
        )
        for seat in range(readers_per_table):
            readers += 1  # counted over the room: every third reader of all
            reader_seed = seed * 7919 + table.number * readers_per_table + seat
            if readers % LIVE_EVERY_NTH == 0:
                target, args = play_live, (room, recorder, until, reader_seed)
            else:
                target, args = play_player, (room, table.game_id, recorder, until, reader_seed)
            threads.append(threading.Thread(target=target, args=args, daemon=True))
    for thread in threads:
        thread.start()
    # A request under way when time is up may take its whole timeout to answer.
    deadline = until + room.timeout + 5
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    still = sum(thread.is_alive() for thread in threads)
    if still:
        recorder.failed(
            "all", f"{still} clients had not stopped {room.timeout + 5:.0f} s after the end"
        )
    elapsed = time.monotonic() - started
    return RunResult(elapsed, _figures(recorder, elapsed), recorder.errors, tables)


def _figures(recorder: Recorder, elapsed: float) -> list[Figures]:
    rows = []
    every: list[float] = []
    kinds = [k for k in KINDS if k in recorder.times or k in recorder.errors]
    for kind in kinds:
        times = recorder.times.get(kind, [])
        every += times
        rows.append(_row(kind, times, sum(recorder.errors.get(kind, Counter()).values()), elapsed))
    errors = sum(sum(c.values()) for c in recorder.errors.values())
    rows.append(_row("all", every, errors, elapsed))
    return rows


def _row(kind: str, times: list[float], errors: int, elapsed: float) -> Figures:
    return Figures(
        kind=kind,
        count=len(times),
        per_second=len(times) / elapsed if elapsed else 0.0,
        p50=percentile(times, 0.50),
        p95=percentile(times, 0.95),
        p99=percentile(times, 0.99),
        errors=errors,
    )


# --- the database check ------------------------------------------------------------------


def client_record(tables: list[Table]) -> dict[str, Any]:
    """What the clients believe they stored, as JSON: the input of `check_database`."""
    return {
        "games": {
            str(table.game_id): {
                "table": table.number,
                "hands": table.entered,
                "uncertain": table.uncertain,
            }
            for table in tables
        }
    }


@dataclass
class Check:
    games: int
    hands: int
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems


def check_database(record: dict[str, Any]) -> Check:
    """Compare the database with what the clients saw: every hand a table saved is stored
    once and as entered, and every game's stored results are those of a fresh replay."""
    expected = {int(pk): entry for pk, entry in record["games"].items()}
    games = (
        Game.objects.filter(pk__in=expected)
        .select_related("session__event")
        .prefetch_related(
            Prefetch("seats", queryset=GameSeat.objects.select_related("player")),
            Prefetch(
                "hands",
                queryset=Hand.objects.order_by("number").prefetch_related(
                    Prefetch("wins", queryset=Win.objects.order_by("order"))
                ),
            ),
            "penalties",
        )
    )
    problems: list[str] = []
    found = {game.pk: game for game in games}
    hands = 0
    for pk, entry in sorted(expected.items(), key=lambda item: item[1]["table"]):
        where = f"table {entry['table']} (game {pk})"
        game = found.get(pk)
        if game is None:
            problems.append(f"{where}: the game is missing from the database")
            continue
        stored = list(game.hands.all())
        hands += len(stored)
        problems += _hand_problems(where, stored, entry)
        problems += _result_problems(where, game)
    return Check(games=len(found), hands=hands, problems=problems)


def _hand_problems(where: str, stored: list[Hand], entry: dict[str, Any]) -> list[str]:
    entered = entry["hands"]
    numbers = [hand.number for hand in stored]
    if numbers != list(range(1, len(stored) + 1)):
        return [f"{where}: the stored hands are numbered {numbers}, not 1 to {len(stored)}"]
    problems = []
    extra = len(stored) - len(entered)
    if extra < 0:
        problems.append(
            f"{where}: {-extra} hand(s) lost: the table saved {len(entered)}, "
            f"the database holds {len(stored)}"
        )
    elif extra > 1 or (extra == 1 and not entry["uncertain"]):
        problems.append(
            f"{where}: {extra} hand(s) more than the table saved: it saved {len(entered)}, "
            f"the database holds {len(stored)}"
        )
    for number, (doc, hand) in enumerate(zip(entered, stored, strict=False), start=1):
        if parse_hand(doc, number) != hand.to_engine():
            problems.append(
                f"{where}: hand {number} is stored as {hand.to_record()}, "
                f"but the table entered {doc}"
            )
    return problems


def _result_problems(where: str, game: Game) -> list[str]:
    try:
        result = scoring.replay(scoring.parse_record(game.to_record()))
    except scoring.ScoringError as err:
        return [f"{where}: the stored record does not replay: {err}"]
    problems = []
    finished = game.status == Game.Status.FINISHED
    if result.finished != finished:
        state = "finished" if result.finished else "still going"
        problems.append(f"{where}: the game is stored as {game.status}, the replay says {state}")
    # What each seat should hold, derived here from the replay rather than by the code
    # that stored it: the current score (the final one once over), and placement and
    # match points only for a finished game.
    over = finished and result.finished
    scores = result.final_scores if result.finished else result.state.scores
    for seat in game.ordered_seats():
        i = seat.seat
        should_be = {
            "score": scores[i],
            "placement": result.placements[i] if over else None,
            "match_points": result.match_points[i] if over else None,
            "penalty_points": result.penalties[i],
        }
        for name, should in should_be.items():
            have = getattr(seat, name)
            if have != should:
                problems.append(
                    f"{where}: seat {seat.seat} ({seat.player}) has {name} {have}, "
                    f"a fresh replay gives {should}"
                )
    return problems


def summary(tables: list[Table]) -> dict[str, int]:
    """How far the tables got."""
    return {
        "hands": sum(len(t.entered) for t in tables),
        "finished": sum(1 for t in tables if t.entered and len(t.entered) == len(t.plan)),
        "stopped": sum(1 for t in tables if t.stopped),
        "recovered": sum(t.recovered for t in tables),
        "uncertain": sum(1 for t in tables if t.uncertain),
    }
