"""A game set up by hand: its table and its players in seat order."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .. import access, services
from ..limits import MAX_TABLE_NUMBER
from ..models import Game, Player, Session
from ..wording.refusals import say
from .common import TenbouFormMixin
from .hands import WIND_NAMES

# The starting seats, East first, named in the page's language.
SEAT_WINDS = tuple(WIND_NAMES[wind] for wind in "ESWN")


class PlayerChoice(forms.ModelChoiceField):
    pool: frozenset[int] = frozenset()  # the event's substitute pool, marked in the list

    def label_from_instance(self, obj) -> str:
        if obj.pk in self.pool:
            return _("%(player)s (substitute)") % {"player": obj.display_name}
        return obj.display_name


class GameForm(TenbouFormMixin, forms.Form):
    """Table number and the players by starting seat (four, or East, South and West under
    three-player rules); on creation also the entry mode and an optional random seat draw."""

    SEAT_FIELDS = ("east", "south", "west", "north")

    table_number = forms.IntegerField(
        label=gettext_lazy("Table"),
        min_value=1,
        max_value=MAX_TABLE_NUMBER,
    )

    def __init__(self, *args, session: Session, user, game: Game | None = None, **kwargs) -> None:
        self.session = session
        self.game = game
        self.player_count = session.event.player_count
        self.seat_fields = self.SEAT_FIELDS[: self.player_count]
        self.seat_winds = SEAT_WINDS[: self.player_count]
        if game is not None:
            seats = game.ordered_seats()
            kwargs.setdefault(
                "initial",
                {"table_number": game.table_number}
                | {
                    name: seat.player_id
                    for name, seat in zip(self.seat_fields, seats, strict=False)
                },
            )
        else:
            kwargs.setdefault("initial", {"table_number": session.games.next_table_number()})
        super().__init__(*args, **kwargs)
        self.fields["table_number"].error_messages["max_value"] = _(
            "Table numbers go up to %(most)s. Choose a smaller one."
        ) % {"most": MAX_TABLE_NUMBER}
        # Only players this organiser may know of: another organiser's private event
        # neither shows its players here nor lets a posted id seat one.
        offered = Q(pk__in=access.pickable_players(user, session.event).values("pk"))
        # An event with a roster offers its roster first (the substitute pool marked),
        # then the other players this organiser may seat.
        roster = session.event.roster.all()
        self.from_roster = roster.exists()
        pool = frozenset(roster.substitutes().values_list("player_id", flat=True))
        if game is not None:
            # A player made inactive since keeps their seat in the game they played.
            offered |= Q(seats__game=game)
        players = (
            Player.objects.filter(offered)
            .distinct()
            .annotate(on_roster=Exists(roster.filter(player=OuterRef("pk"))))
            .order_by("-on_roster", "display_name")
        )
        three = self.player_count == 3
        for name, wind in zip(self.seat_fields, self.seat_winds, strict=True):
            self.fields[name] = PlayerChoice(
                queryset=players,
                label=wind,
                empty_label=_("Choose a player"),
                error_messages={
                    "required": (
                        _("Choose the player at %(wind)s: a three-player game needs three.")
                        if three
                        else _("Choose the player at %(wind)s: a game needs four.")
                    )
                    % {"wind": wind},
                    "invalid_choice": _(
                        "The player chosen at %(wind)s is not one you can seat here: choose "
                        "a player from the list, or add a new player first."
                    )
                    % {"wind": wind},
                },
            )
            self.fields[name].pool = pool
        self.pool = pool
        self.fields["substitutes"] = forms.TypedMultipleChoiceField(
            label=gettext_lazy("Substitutes"),
            choices=list(enumerate(self.seat_winds)),
            coerce=int,
            required=False,
            widget=forms.CheckboxSelectMultiple,
            initial=[s.seat for s in game.ordered_seats() if s.is_substitute] if game else [],
            help_text=(
                _(
                    "A substitute sits in for this one game: it counts for the other two "
                    "players, but the substitute is not ranked in the standings."
                )
                if three
                else _(
                    "A substitute sits in for this one game: it counts for the other three "
                    "players, but the substitute is not ranked in the standings."
                )
            ),
        )
        if game is None:
            self.fields["entry_mode"] = forms.ChoiceField(
                label=_("Entry"),
                choices=Game.EntryMode.choices,
                initial=Game.EntryMode.HANDS,
                widget=forms.RadioSelect,
                help_text=(
                    _("Final scores only: enter the three scores when the game is over.")
                    if three
                    else _("Final scores only: enter the four scores when the game is over.")
                ),
            )
            self.fields["random_seats"] = forms.BooleanField(
                label=_("Random seat draw"),
                required=False,
                help_text=(
                    _("Shuffle the three players into seats when the game is created.")
                    if three
                    else _("Shuffle the four players into seats when the game is created.")
                ),
            )
            self.order_fields(["table_number", "entry_mode", *self.seat_fields])

    def clean(self):
        cleaned = super().clean()
        seen: dict[int, str] = {}
        for name, wind in zip(self.seat_fields, self.seat_winds, strict=True):
            player = cleaned.get(name)
            if player is None:
                continue
            if player.pk in seen:
                self.add_error(
                    name,
                    (
                        _(
                            "%(player)s is already at %(wind)s: a three-player game needs "
                            "three different players."
                        )
                        if self.player_count == 3
                        else _(
                            "%(player)s is already at %(wind)s: a game needs four different "
                            "players."
                        )
                    )
                    % {"player": player, "wind": seen[player.pk]},
                )
            else:
                seen[player.pk] = wind
        self._check_seating(cleaned)
        if self.game is None and "substitutes" in cleaned:
            # A player of the substitute pool takes a substitute seat in a new game.
            chosen = [cleaned.get(name) for name in self.seat_fields]
            pool_seats = {i for i, p in enumerate(chosen) if p is not None and p.pk in self.pool}
            cleaned["substitutes"] = sorted(set(cleaned["substitutes"]) | pool_seats)
        return cleaned

    def _check_seating(self, cleaned) -> None:
        """A table holds one unfinished game of the session, and a player sits in one."""
        if self.game is not None and self.game.is_finished:
            return
        exclude = self.game.pk if self.game is not None else None
        table = cleaned.get("table_number")
        if table and services.open_table_clash(self.session.pk, table, exclude=exclude):
            self.add_error("table_number", say(services.table_clash_message(table)))
        chosen = [(name, cleaned.get(name)) for name in self.seat_fields]
        clashes = services.open_seat_clashes(
            self.session.pk, [p for _, p in chosen if p is not None], exclude=exclude
        )
        for name, player in chosen:
            if player is not None and player.pk in clashes and name not in self.errors:
                self.add_error(
                    name, say(services.player_clash_message([player], clashes[player.pk]))
                )

    def players(self) -> list[Player]:
        return [self.cleaned_data[name] for name in self.seat_fields]

    def seat_boundfields(self) -> list[forms.BoundField]:
        """The player fields by starting seat, for the template."""
        return [self[name] for name in self.seat_fields]

    def clean_substitutes(self) -> list[int]:
        seats = sorted(set(self.cleaned_data["substitutes"]))
        if len(seats) == self.player_count:
            raise ValidationError(
                _("A game of three substitutes counts for nobody: untick the regular players.")
                if self.player_count == 3
                else _("A game of four substitutes counts for nobody: untick the regular players.")
            )
        return seats
