"""Who may see and who may change what, declared on each view by one decorator.

Everyone may read a public event. Only an event's organisers (and superusers) may write
to it, and a private event does not exist for anyone else (404). A logged-in user who
may read but not write gets 403 on a write; anonymous users are sent to log in. The
holder of a game's table link may read that game and enter its hands, nothing else.

Each decorator loads the object of its URL once and hands it to the view in place of the
URL's parts: `@readable_event` and `@organiser_event` turn `slug` into `event`,
`@readable_session` and `@organiser_session` turn `slug, number` into `session`,
`@readable_game` and `@organiser_game` turn `pk` into `game`, `@hand_entry_game` turns
`pk` into a `HandEntry`, and `@organiser_of_player` turns `pk` into `player`. `@anyone`
and `@signed_in` load nothing: the view shows only what `visible_players` and
`readable_events` allow. Every view of the app carries one of them (`ACCESS` names it).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Q, Subquery
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from .models import (
    EntryReceipt,
    Event,
    Game,
    GameSeat,
    Player,
    Registration,
    RosterEntry,
    Session,
    TableLink,
)
from .trail import Actor


def organised_ids(request: HttpRequest) -> frozenset[int] | None:
    """The ids of the events the requesting user organises, read once for the request
    (None: every event, for a superuser). For pages that read; a view that changes who
    organises what asks `Event.is_organiser` after the change."""
    ids = getattr(request, "_organised_ids", False)
    if ids is False:
        user = request.user
        if not user.is_authenticated:
            ids = frozenset()
        elif user.is_superuser:
            ids = None
        else:
            organisers = Event.organisers.through.objects.filter(user_id=user.pk)
            ids = frozenset(organisers.values_list("event_id", flat=True))
        request._organised_ids = ids
    return ids


def organises(request: HttpRequest, event_id: int) -> bool:
    """Whether the requesting user organises the event `event_id` (see `organised_ids`),
    answered without a query for the event a decorator loaded (see `_with_organised`)."""
    known = getattr(request, "_organises", None)
    if known is not None and event_id in known:
        return known[event_id]
    ids = organised_ids(request)
    return ids is None or event_id in ids


def _with_organised(objects, request: HttpRequest, event: str):
    """`objects` (events or games) annotated with whether the signed-in user organises
    their event (`event`: the path to the event's id), so that loading the object answers
    `organises` too: one query fewer on every page of an event or a game for an organiser.
    Anonymous visitors organise nothing and superusers everything: no annotation."""
    user = request.user
    if not user.is_authenticated or user.is_superuser:
        return objects
    organisers = Event.organisers.through.objects.filter(event_id=OuterRef(event), user_id=user.pk)
    return objects.annotate(_organised=Exists(organisers))


def _remember_organised(request: HttpRequest, event_id: int, obj) -> None:
    organised = getattr(obj, "_organised", None)
    if organised is not None:
        if getattr(request, "_organises", None) is None:
            request._organises = {}
        request._organises[event_id] = organised


def readable_events(request: HttpRequest):
    """The events the requesting user may read: the public ones and those they organise."""
    ids = organised_ids(request)
    if ids is None:
        return Event.objects.all()
    if not ids:
        return Event.objects.filter(is_public=True)
    return Event.objects.filter(Q(is_public=True) | Q(pk__in=sorted(ids)))


def readable_versions(request: HttpRequest) -> tuple[tuple[int, str], ...]:
    """The id and play version of every event the requesting user may read, in id order:
    what a page over all of them is kept under. Read with which of them the user
    organises, kept for the request as `organised_ids` would read it: one query for both."""
    user = request.user
    if not user.is_authenticated or user.is_superuser or hasattr(request, "_organised_ids"):
        return tuple(readable_events(request).order_by("pk").values_list("pk", "play_token"))
    own = Event.organisers.through.objects.filter(user_id=user.pk, event_id=OuterRef("pk"))
    rows = list(
        Event.objects.annotate(own=Exists(own))
        .filter(Q(is_public=True) | Q(own=True))
        .order_by("pk")
        .values_list("pk", "play_token", "own")
    )
    request._organised_ids = frozenset(pk for pk, _token, own in rows if own)
    return tuple((pk, token) for pk, token, _own in rows)


def get_event_for_reader(request: HttpRequest, slug: str, *, visitor: bool = False) -> Event:
    """The event, for anyone who may read it. With `visitor`, for a page that shows what
    the visitor is to the event, it is read with whether a signed-in visitor organises it
    (see `organises`) and the id of their own registration for it, if any
    (`event.own_registration_id`). Without, a page that shows nothing of the visitor (the
    live screen) does not read who they are."""
    events = Event.objects
    if visitor:
        events = _with_organised(events, request, "pk")
        if request.user.is_authenticated:
            own = Registration.objects.filter(event=OuterRef("pk"), player__user=request.user.pk)
            events = events.annotate(own_registration_id=Subquery(own.values("pk")[:1]))
    event = get_object_or_404(events, slug=slug)
    _remember_organised(request, event.pk, event)
    if not event.is_public and not organises(request, event.pk):
        raise Http404("No such event.")
    return event


def get_event_for_organiser(request: HttpRequest, slug: str) -> Event:
    event = get_event_for_reader(request, slug)
    if not organises(request, event.pk):
        raise PermissionDenied("Only the organisers of this event can change it.")
    return event


def get_session_for_reader(request: HttpRequest, slug: str, number: int) -> Session:
    event = get_event_for_reader(request, slug)
    # Read through the event: the session knows its event without reading it again.
    return get_object_or_404(event.sessions, number=number)


def get_session_for_organiser(request: HttpRequest, slug: str, number: int) -> Session:
    event = get_event_for_organiser(request, slug)
    return get_object_or_404(event.sessions, number=number)


def get_game_for_reader(request: HttpRequest, pk: int) -> Game:
    """The game, for anyone who may read its event, or who holds its live table link.
    `game.organised` tells whether the user organises its event."""
    games = Game.objects.select_related("session__event")
    games = _with_organised(games, request, "session__event")
    game = get_object_or_404(games, pk=pk)
    _remember_organised(request, game.session.event_id, game)
    game.organised = organises(request, game.session.event_id)
    readable = game.session.event.is_public or game.organised
    if not readable and table_link_for(request, game) is None:
        raise Http404("No such game.")
    return game


def get_game_for_organiser(request: HttpRequest, pk: int) -> Game:
    game = get_game_for_reader(request, pk)
    if not game.organised:
        raise PermissionDenied("Only the organisers of this event can change its games.")
    return game


# Table links: the players at one table enter that game's hands without an account.
# Opening the link stores its id in the visitor's session under the game's id; every
# request checks again that the link is live, so revoking it works at once. Nothing else
# of the event opens to a table link.

TABLE_LINKS_KEY = "table_links"
# Links one browser keeps at once (a player at several games of a day): bounds the session.
TABLE_LINKS_KEPT = 20


def remember_table_link(request: HttpRequest, link: TableLink) -> None:
    links = dict(request.session.get(TABLE_LINKS_KEY, {}))
    links.pop(str(link.game_id), None)
    links[str(link.game_id)] = link.pk
    while len(links) > TABLE_LINKS_KEPT:
        links.pop(next(iter(links)))
    request.session[TABLE_LINKS_KEY] = links


def table_link_for(request: HttpRequest, game: Game) -> TableLink | None:
    """The live table link this visitor opened for `game`, if any."""
    session = getattr(request, "session", None)
    if session is None:
        return None
    link_id = session.get(TABLE_LINKS_KEY, {}).get(str(game.pk))
    if link_id is None:
        return None
    return TableLink.objects.live().filter(pk=link_id, game=game).first()


def may_enter_through(link: TableLink | None, game: Game) -> bool:
    return link is not None and not game.locked and not game.is_finished


class NeedsLogin(PermissionDenied):
    """An anonymous visitor without a table link: the view sends them to log in."""


@dataclass(frozen=True)
class HandEntry:
    """Who is changing a game's hands: an organiser, or a table link (then `link`)."""

    game: Game
    is_organiser: bool
    link: TableLink | None

    def author(self, request: HttpRequest) -> dict:
        """The `actor` and `table_link` arguments of a service call for this change."""
        if self.link is not None:
            return {"actor": Actor.of(table_link=self.link), "table_link": self.link}
        return {"actor": Actor.of(request.user)}


def get_game_for_hand_entry(
    request: HttpRequest, pk: int, *, lock: bool = False, closed: bool = False
) -> HandEntry:
    """The game, for an organiser or for a visitor holding its live table link while the
    game is in progress and not locked. Anyone else: 404 for an event they may not read,
    403 otherwise (anonymous users are sent to log in by the view). `lock` takes the game's
    lock for a change (inside a transaction), as `services` does. `closed`: the link's
    holder gets a finished or locked game too (the view tells the phone so, and changes
    nothing). A form that resends an entry the game holds already (the phone's own last
    hand, say) is let through as well: the view answers with what was stored."""
    games = _with_organised(
        Game.objects.select_related("session__event"), request, "session__event"
    )
    if lock:
        games = games.select_for_update()
    game = get_object_or_404(games, pk=pk)
    event = game.session.event
    _remember_organised(request, event.pk, game)
    game.organised = organises(request, event.pk)
    if game.organised:
        return HandEntry(game, True, None)
    link = table_link_for(request, game)
    if link is None:
        # Not an organiser of it: a private event is not there for them.
        if not event.is_public:
            raise Http404("No such game.")
        if not request.user.is_authenticated:
            raise NeedsLogin()
        raise PermissionDenied("Only the organisers of this event can change its games.")
    if (game.locked or game.is_finished) and not closed and not _resending(request, game):
        if game.locked:
            raise PermissionDenied("The organisers have locked this game: ask them to change it.")
        raise PermissionDenied("This game is finished: only the organisers can reopen it.")
    return HandEntry(game, False, link)


def _resending(request: HttpRequest, game: Game) -> bool:
    """Whether this is a form posting again an entry that the game holds already."""
    entry = request.POST.get("entry", "") if request.method == "POST" else ""
    if not entry:
        return False
    try:
        entry = uuid.UUID(entry[:64])
    except ValueError:
        return False
    return EntryReceipt.objects.filter(game=game, entry=entry).exists()


def visible_players(user):
    """Players this user may know of: those with a game or a roster place in an event the
    user may read, players with neither yet, and the user's own player. Someone who only
    ever played private events stays unknown to everyone else."""
    players = Player.objects.all()
    if user.is_authenticated and user.is_superuser:
        return players
    readable = Event.objects.visible_to(user).values("pk")
    seats = GameSeat.objects.filter(player=OuterRef("pk"))
    entries = RosterEntry.objects.filter(player=OuterRef("pk"))
    condition = (
        Exists(seats.filter(game__session__event__in=readable))
        | Exists(entries.filter(event__in=readable))
        | (~Exists(seats) & ~Exists(entries))
    )
    if user.is_authenticated:
        condition |= Q(user=user)
    return players.filter(condition)


def pickable_players(user, event: Event):
    """The players an organiser of `event` may seat or pick: active players this user
    may know of (see `visible_players`) and the event's own roster. A player known only
    from other organisers' private events is neither offered nor accepted."""
    known = visible_players(user).filter(active=True).values("pk")
    on_roster = RosterEntry.objects.filter(event=event).values("player_id")
    return Player.objects.filter(Q(pk__in=known) | Q(pk__in=on_roster))


def may_know(user, player: Player) -> bool:
    """Whether `user` may know of `player` (see `visible_players`)."""
    return visible_players(user).filter(pk=player.pk).exists()


def may_link_login(user, player: Player) -> bool:
    """Superusers, and organisers of an event the player has played a game in. A roster
    place is not enough: anyone may put a player they can see on a roster of their own."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return player.seats.filter(game__session__event__organisers=user).exists()


def may_unlink_login(user, player: Player) -> bool:
    """The linked account itself and superusers: an organiser who links by mistake asks the
    account to unlink, so that no stranger's event can take a login off a player."""
    if not user.is_authenticated or player.user_id is None:
        return False
    return user.is_superuser or player.user_id == user.pk


def may_see_real_name(user, player: Player) -> bool:
    """Whether `user` sees the player's real name, as the player's login chose
    (`Player.real_name_shown`): everyone, anyone signed in (the default), or only the
    organisers of an event the player played in or is on the roster of. The player's own
    login and superusers always do."""
    if not player.real_name:
        return False
    shown = Player.RealNameShown
    if player.real_name_shown == shown.EVERYONE:
        return True
    if not user.is_authenticated:
        return False
    if player.real_name_shown == shown.SIGNED_IN:
        return True
    if user.is_superuser or player.user_id == user.pk:
        return True
    return (
        player.seats.filter(game__session__event__organisers=user).exists()
        or player.entries.filter(event__organisers=user).exists()
    )


def may_choose_privacy(user, player: Player) -> bool:
    """The player's own login (and superusers) choose who sees the real name."""
    return user.is_authenticated and (user.is_superuser or player.user_id == user.pk)


# The decorators. Each names who may use the view (`ACCESS`, read by the access test) and
# loads what the view works on once. `require_POST` and the like go above them: a view
# that takes only a POST says so before anyone's access is looked up.

ACCESS = "access"


def _declared(view: Callable, who: str) -> Callable:
    setattr(view, ACCESS, who)
    return view


def anyone(view: Callable) -> Callable:
    """Anyone, signed in or not: the view shows only what the visitor may read."""
    return _declared(view, "anyone")


def signed_in(view: Callable) -> Callable:
    """Anyone signed in; anonymous visitors are sent to log in."""
    return _declared(login_required(view), "signed in")


def readable_event(
    view: Callable | None = None,
    *,
    organiser_posts: bool = False,
    signed_in_posts: bool = False,
    visitor: bool = False,
):
    """Anyone who may read the event (404 for anyone else); the view gets `event` for
    `slug`. `organiser_posts`: a page anyone may read whose form only its organisers
    post (anonymous visitors are sent to log in, anyone else gets 403). `signed_in_posts`:
    a page anyone may read whose form anyone signed in posts (a player registering).
    `visitor`: the page shows what the visitor is to the event, read with the event (see
    `get_event_for_reader`)."""

    def decorate(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(request: HttpRequest, slug: str, *args, **kwargs) -> HttpResponse:
            event = get_event_for_reader(request, slug, visitor=visitor)
            if (organiser_posts or signed_in_posts) and request.method == "POST":
                if not request.user.is_authenticated:
                    return redirect_to_login(request.get_full_path())
                if organiser_posts and not organises(request, event.pk):
                    raise PermissionDenied("Only the organisers of this event can change it.")
            return view(request, event, *args, **kwargs)

        who = "event readers"
        if organiser_posts:
            who = "event organisers post"
        elif signed_in_posts:
            who = "event readers, signed-in posts"
        return _declared(wrapper, who)

    return decorate(view) if view is not None else decorate


def organiser_event(view: Callable) -> Callable:
    """The event's organisers; the view gets `event` for `slug`."""

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args, **kwargs) -> HttpResponse:
        return view(request, get_event_for_organiser(request, slug), *args, **kwargs)

    return _declared(login_required(wrapper), "event organisers")


def readable_session(view: Callable) -> Callable:
    """Anyone who may read the session's event; the view gets `session` for `slug, number`."""

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, number: int, *args, **kwargs) -> HttpResponse:
        return view(request, get_session_for_reader(request, slug, number), *args, **kwargs)

    return _declared(wrapper, "event readers")


def organiser_session(view: Callable) -> Callable:
    """The organisers of the session's event; the view gets `session` for `slug, number`."""

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, number: int, *args, **kwargs) -> HttpResponse:
        return view(request, get_session_for_organiser(request, slug, number), *args, **kwargs)

    return _declared(login_required(wrapper), "event organisers")


def readable_game(view: Callable) -> Callable:
    """Anyone who may read the game's event, and the holder of the game's live table link;
    the view gets `game` for `pk` (`game.organised`: the visitor organises its event)."""

    @wraps(view)
    def wrapper(request: HttpRequest, pk: int, *args, **kwargs) -> HttpResponse:
        return view(request, get_game_for_reader(request, pk), *args, **kwargs)

    return _declared(wrapper, "game readers")


def organiser_game(view: Callable) -> Callable:
    """The organisers of the game's event; the view gets `game` for `pk`."""

    @wraps(view)
    def wrapper(request: HttpRequest, pk: int, *args, **kwargs) -> HttpResponse:
        return view(request, get_game_for_organiser(request, pk), *args, **kwargs)

    return _declared(login_required(wrapper), "event organisers")


def table_game(view: Callable) -> Callable:
    """The organisers of the game's event and the holder of its live table link (locked or
    finished as the game may be); the view gets `game` for `pk`."""

    @wraps(view)
    def wrapper(request: HttpRequest, pk: int, *args, **kwargs) -> HttpResponse:
        game = get_game_for_reader(request, pk)
        if not game.organised and table_link_for(request, game) is None:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            raise PermissionDenied("Only the organisers and the table can do this.")
        return view(request, game, *args, **kwargs)

    return _declared(wrapper, "table")


def hand_entry_game(view: Callable | None = None, *, phone: bool = False):
    """The organisers of the game's event, and the holder of its live table link while the
    game is open (see `get_game_for_hand_entry`); the view gets a `HandEntry` for `pk`.
    `phone`: an address a phone's script calls: the link's holder gets in while the game
    is finished or locked too (the view tells the phone so), and a visitor without the
    link is refused (403) rather than sent to a login page the script cannot show."""

    def decorate(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(request: HttpRequest, pk: int, *args, **kwargs) -> HttpResponse:
            try:
                entry = get_game_for_hand_entry(request, pk, closed=phone)
            except NeedsLogin:
                if phone:
                    raise PermissionDenied(
                        "This table link no longer works: ask an organiser for the new one."
                    ) from None
                return redirect_to_login(request.get_full_path())
            return view(request, entry, *args, **kwargs)

        return _declared(wrapper, "hand entry")

    return decorate(view) if view is not None else decorate


def _of_player(
    refusal: Callable[[], str], *, own_login: bool = True
) -> Callable[[Callable], Callable]:
    """Organisers of an event the player played in (see `may_link_login`) and, with
    `own_login`, the login linked to the player (`may_unlink_login`); 404 for a player the
    user may not know of (see `visible_players`); `refusal()` says why to anyone else who
    may know of them. The view gets `player` for `pk`."""

    def decorate(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(request: HttpRequest, pk: int, *args, **kwargs) -> HttpResponse:
            player = get_object_or_404(Player, pk=pk)
            if not may_link_login(request.user, player) and not (
                own_login and may_unlink_login(request.user, player)
            ):
                # Known only from other organisers' private events: not there, as on its
                # page.
                if not may_know(request.user, player):
                    raise Http404("No such player.")
                raise PermissionDenied(refusal())
            return view(request, player, *args, **kwargs)

        return _declared(login_required(wrapper), "player's organisers")

    return decorate


# Linking a login to a player (see `_of_player`).
organiser_of_player = _of_player(
    lambda: _("Only an organiser of an event this player played in can link their login.")
)
# Changing a player's details: their names, EMA number and country (see `_of_player`).
player_editor = _of_player(
    lambda: _(
        "Only an organiser of an event this player played in, or the player's own login, "
        "can change their details."
    )
)
# Merging another player into this one (the same person entered twice): organisers of an
# event this player played in, and superusers; the view asks the same of the other player.
player_merger = _of_player(
    lambda: _("Only an organiser of an event this player played in can merge them."),
    own_login=False,
)
