"""Players, events, sessions, games and hands.

The database keeps what happened at the table (who won, han, fu, who was tenpai); the
engine in `scoring` derives the rest. Each game's derived results (current or final
score, placement, match points per seat) are stored on its seats and rewritten in the
same transaction as any change to its hands, so listings never replay games.
"""

from __future__ import annotations

import secrets
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

import scoring
from scoring import payouts
from scoring.payouts import MAX_YAKUMAN, VALID_FU
from scoring.record import FORMAT, dump_hand

from . import versions
from .countries import COUNTRIES
from .limits import REFEREE_NOTE_LENGTH, TEAM_MEMBERS_LIMIT
from .player_names import clean_player_name
from .versions import new_version
from .wording.refusals import say

# The name earlier migrations give the versions' default.
new_results_token = new_version

SEATS = range(4)
SEAT_VALIDATORS = [MinValueValidator(0), MaxValueValidator(3)]
WINDS = (_("East"), _("South"), _("West"), _("North"))


def seat_mask(seats) -> int:
    """Seats 0..3 as a four-bit mask: (0, 2) -> 0b0101."""
    mask = 0
    for seat in seats:
        mask |= 1 << seat
    return mask


# Every four-seat mask and its seats, worked out once: exports read tens of thousands.
SEAT_MASKS = tuple(tuple(seat for seat in SEATS if mask & (1 << seat)) for mask in range(16))


def mask_seats(mask: int) -> tuple[int, ...]:
    if 0 <= mask < len(SEAT_MASKS):
        return SEAT_MASKS[mask]
    return tuple(seat for seat in SEATS if mask & (1 << seat))


def validate_ema_number(value: str) -> None:
    """Eight digits: the form the EMA gives its player numbers (e.g. 04010001)."""
    if not value.isascii() or not value.isdigit():
        raise ValidationError(
            _("An EMA number has digits only, e.g. 04010001."), code="ema_number_digits"
        )
    if len(value) != 8:
        raise ValidationError(
            _(
                "An EMA number has 8 digits; this one has %(count)s. "
                "Check it on the EMA ranking page."
            ),
            code="ema_number_length",
            params={"count": len(value)},
        )


def validate_country(value: str) -> None:
    if value not in COUNTRIES:
        raise ValidationError(
            _("“%(code)s” is not a country code: give the two letters of ISO 3166-1, e.g. DE."),
            code="country",
            params={"code": value},
        )


class Player(models.Model):
    display_name = models.CharField(
        max_length=60,
        unique=True,
        help_text=_("The name shown in standings and on sheets."),
        verbose_name=_("display name"),
    )
    real_name = models.CharField(max_length=120, blank=True, verbose_name=_("real name"))
    # The EMA's results files list players by last and first name (see `tournaments.ema`).
    last_name = models.CharField(
        max_length=60,
        blank=True,
        help_text=_("As the EMA lists the player; empty: the last word of the real name."),
        verbose_name=_("last name"),
    )
    first_name = models.CharField(
        max_length=60,
        blank=True,
        help_text=_("As the EMA lists the player; empty: the real name before its last word."),
        verbose_name=_("first name"),
    )
    ema_number = models.CharField(
        _("EMA number"),
        max_length=20,
        blank=True,
        validators=[validate_ema_number],
        help_text=_("European Mahjong Association ID: 8 digits."),
    )
    country = models.CharField(
        max_length=2,
        blank=True,
        validators=[validate_country],
        help_text=_("Two letters of ISO 3166-1, e.g. DE, FR or JP."),
        verbose_name=_("country"),
    )
    active = models.BooleanField(
        default=True, help_text=_("Inactive players are not offered."), verbose_name=_("active")
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
        help_text=_("The login of this player, if they have one."),
        verbose_name=_("user"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class RealNameShown(models.TextChoices):
        # The default is what every page did before players chose: signed-in visitors.
        SIGNED_IN = "signed_in", _("To anyone signed in")
        EVERYONE = "everyone", _("To everyone")
        ORGANISERS = "organisers", _("Only to the organisers of my events")

    real_name_shown = models.CharField(
        max_length=12,
        choices=RealNameShown.choices,
        default=RealNameShown.SIGNED_IN,
        help_text=_("Who sees the real name on the player's page; the player's login chooses."),
        verbose_name=_("real name shown"),
    )

    class Meta:
        ordering = ["display_name"]
        constraints = [
            models.UniqueConstraint(
                fields=["ema_number"],
                condition=~Q(ema_number=""),
                name="one_player_per_ema_number",
                violation_error_message=_("Another player has this EMA number already."),
            )
        ]

    def __str__(self) -> str:
        return self.display_name

    def save(self, *args, **kwargs) -> None:
        # The last guard: every path checks names with a message before it gets here. A
        # save of other fields (a login linked) leaves a name stored before as it is.
        fields = kwargs.get("update_fields")
        if fields is None or "display_name" in fields:
            self.display_name = clean_player_name(self.display_name)
        new = self._state.adding
        super().save(*args, **kwargs)
        if new:
            return  # no game or event shows a player who has just been made
        # Standings show display names: a rename changes the events this player played in,
        # and the pages of the player's games.
        versions.changed(
            Event.objects.filter(sessions__games__seats__player=self)
            .values_list("pk", flat=True)
            .distinct(),
            results=True,
        )
        versions.games_changed(Game.objects.filter(seats__player=self))

    def get_absolute_url(self) -> str:
        return reverse("tournaments:player", args=[self.pk])

    @property
    def country_name(self) -> str:
        """The English name of the player's country ("" without one)."""
        return COUNTRIES.get(self.country, self.country)

    def clean(self) -> None:
        try:
            self.display_name = clean_player_name(self.display_name)
        except ValidationError as err:
            raise ValidationError({"display_name": err.messages}) from None


class PlayerAlias(models.Model):
    """Another name of a player: the display name of a player merged into this one (the
    same person, entered twice), kept so that the player search still finds them."""

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="aliases", verbose_name=_("player")
    )
    name = models.CharField(max_length=60, verbose_name=_("name"))
    # The merged player's id: an old address of their page leads to this player.
    former_id = models.PositiveIntegerField(null=True, blank=True, unique=True)
    merged_at = models.DateTimeField(auto_now_add=True, verbose_name=_("merged at"))

    class Meta:
        ordering = ["name"]
        verbose_name = _("alias")
        verbose_name_plural = _("aliases")

    def __str__(self) -> str:
        return self.name


class EventQuerySet(models.QuerySet):
    def organised_by(self, user) -> EventQuerySet:
        """The events `user` may change: every event for a superuser, their own for an
        organiser, none for a visitor. The one place of the superuser rule."""
        if not user.is_authenticated:
            return self.none()
        if user.is_superuser:
            return self
        return self.filter(organisers=user)

    def visible_to(self, user) -> EventQuerySet:
        """Public events, and the private ones this user organises."""
        if user.is_authenticated and user.is_superuser:
            return self.organised_by(user)
        if user.is_authenticated:
            # A subquery rather than a join: no DISTINCT over the events, which is what
            # makes a join with the organisers cost.
            theirs = Event.organisers.through.objects.filter(user=user).values("event_id")
            return self.filter(Q(is_public=True) | Q(pk__in=theirs))
        return self.filter(is_public=True)


class SubstituteRule(models.TextChoices):
    # Today's rule: the game counts for the three others, nothing for the replaced player.
    UNRANKED = "unranked", _("A substitute is not ranked; the replaced player misses the game")
    # The EMA's: the replaced player is given the game at -30 match points.
    EMA = "ema", _("EMA: the replaced player's game counts −30 match points")


class Event(models.Model):
    class Kind(models.TextChoices):
        LEAGUE = "league", _("Club league")
        TOURNAMENT = "tournament", _("Tournament")

    name = models.CharField(max_length=120, verbose_name=_("name"))
    slug = models.SlugField(
        max_length=80,
        unique=True,
        help_text=_("Used in the event's address."),
        verbose_name=_("slug"),
    )
    kind = models.CharField(
        max_length=20, choices=Kind.choices, default=Kind.LEAGUE, verbose_name=_("kind")
    )
    starts_on = models.DateField(verbose_name=_("starts on"))
    ends_on = models.DateField(null=True, blank=True, verbose_name=_("ends on"))
    description = models.TextField(blank=True, verbose_name=_("description"))
    is_public = models.BooleanField(
        _("public"), default=True, help_text=_("Anyone may read a public event; others see it not.")
    )
    rules_preset = models.CharField(
        max_length=32,
        choices=[(name, name) for name in scoring.PRESETS],
        default="ari-ari",
        help_text=_("The rule set games of this event are scored under."),
        verbose_name=_("rules preset"),
    )
    rules_overrides = models.JSONField(
        default=dict,
        blank=True,
        help_text=_('Options that differ from the preset, e.g. {"kiriage": true}.'),
        verbose_name=_("rules overrides"),
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="organised_events",
        blank=True,
        verbose_name=_("organisers"),
    )
    # The two versions of the event's cached pages (`tournaments.versions`): `results`
    # is replaced whenever what the standings count or show changes, `play` with it and
    # whenever anything else at a table changes. Replaced after the change commits.
    results_token = models.CharField(
        max_length=32, default=new_version, editable=False, verbose_name=_("results token")
    )
    play_token = models.CharField(
        max_length=32, default=new_version, editable=False, verbose_name=_("play token")
    )
    # Self-registration before the day (`services.registrations`): closed unless opened.
    registration_open = models.BooleanField(
        default=False,
        help_text=_("Signed-in players may ask for a place; the organisers confirm each one."),
        verbose_name=_("registration open"),
    )
    registration_places = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=_("Confirmed places at most; later players go on the waiting list."),
        verbose_name=pgettext_lazy("registration", "places"),
    )
    registration_closes_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("After this, nobody registers or withdraws themselves."),
        verbose_name=_("registration closes at"),
    )
    # What the EMA's ranking needs of the event (`tournaments.ema`).
    ema_qualification = models.BooleanField(
        default=False,
        help_text=_("Players had to qualify to take part: the MERS weight counts one more."),
        verbose_name=_("qualification needed"),
    )
    substitute_rule = models.CharField(
        max_length=10,
        choices=SubstituteRule.choices,
        default=SubstituteRule.UNRANKED,
        help_text=_("What a game a substitute played counts for the player they replaced."),
        verbose_name=_("substitute rule"),
    )
    # Kept by the stage services (`services.stages`) beside the stages they describe, so
    # that the pages which show totals know without reading the stages: how many there
    # are, and whether one hides its totals from players.
    stage_count = models.PositiveSmallIntegerField(
        default=0, editable=False, verbose_name=_("stages")
    )
    totals_hidden = models.BooleanField(
        default=False, editable=False, verbose_name=_("totals hidden")
    )
    # Teams (`reading.teams`, `services.teams`): players of one team never share a table,
    # and the team table adds up its members' match points.
    team_event = models.BooleanField(
        default=False,
        help_text=_("Players play in teams: teammates never share a table."),
        verbose_name=_("team event"),
    )
    team_best = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(TEAM_MEMBERS_LIMIT)],
        help_text=_("A team's total counts its best this many members; empty: all of them."),
        verbose_name=_("members counted"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=models.F("starts_on")),
                name="event_ends_after_it_starts",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:event", args=[self.slug])

    def rules_spec(self) -> Any:
        """The `rules` field of this event's game records."""
        if not self.rules_overrides:
            return self.rules_preset
        return {"preset": self.rules_preset, "overrides": self.rules_overrides}

    def rules(self) -> scoring.Rules:
        return scoring.resolve_rules(self.rules_spec())

    @property
    def player_count(self) -> int:
        """4, or 3 for a three-player (sanma) event: how many seats its games have."""
        try:
            return self.rules().players
        except scoring.ScoringError:
            return 4

    @property
    def seats(self) -> range:
        """The seat numbers of this event's games: 0..3, or 0..2 at three players."""
        return range(self.player_count)

    def roster_players(self, session_number: int | None = None) -> models.QuerySet:
        """The players on this event's roster, by name; with `session_number`, only those
        not withdrawn by that session (round)."""
        entries = self.roster.all()
        if session_number is not None:
            entries = entries.playing_in(session_number)
        return Player.objects.filter(entries__in=entries).order_by("display_name")

    def clean(self) -> None:
        if self.ends_on and self.starts_on and self.ends_on < self.starts_on:
            raise ValidationError({"ends_on": _("The event cannot end before it starts.")})
        try:
            self.rules()
        except scoring.ScoringError as err:
            raise ValidationError({"rules_overrides": say(err)}) from None

    def is_organiser(self, user) -> bool:
        return Event.objects.organised_by(user).filter(pk=self.pk).exists()


class SessionQuerySet(models.QuerySet):
    def next_number(self) -> int:
        """The number after the highest of these sessions (1 for none):
        `event.sessions.next_number()`."""
        return (self.aggregate(last=models.Max("number"))["last"] or 0) + 1


class RoundSignal(models.TextChoices):
    """What a director tells every table of a round at once."""

    MINUTES_LEFT = "minutes", _("Minutes left")
    LAST_HAND = "last_hand", _("Last hand")


class Session(models.Model):
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="sessions", verbose_name=_("event")
    )
    number = models.PositiveIntegerField(
        help_text=_("Sessions are numbered 1, 2, 3 ..."), verbose_name=_("number")
    )
    date = models.DateField(verbose_name=_("date"))
    title = models.CharField(max_length=120, blank=True, verbose_name=_("title"))
    # The round clock: when the time of the games of this session is up, and its length.
    clock_ends_at = models.DateTimeField(null=True, blank=True, verbose_name=_("clock ends at"))
    clock_minutes = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("clock minutes")
    )
    # The director's word to the room ("10 minutes left", "last hand"), shown on every
    # table's game page and the live screen until cleared or the round is over.
    signal = models.CharField(
        max_length=10, blank=True, choices=RoundSignal.choices, verbose_name=_("round signal")
    )
    signal_minutes = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("minutes left")
    )
    signal_at = models.DateTimeField(null=True, blank=True, verbose_name=_("signal sent at"))
    # A team event's line-ups for this session are hidden from other teams until then.
    lineup_deadline = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("Captains submit line-ups until then; nobody else sees them before."),
        verbose_name=_("line-up deadline"),
    )

    objects = SessionQuerySet.as_manager()

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="unique_session_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="session_number_from_1"),
        ]

    def __str__(self) -> str:
        if self.title:
            return gettext("%(event)s · session %(number)s: %(title)s") % {
                "event": self.event,
                "number": self.number,
                "title": self.title,
            }
        return gettext("%(event)s · session %(number)s") % {
            "event": self.event,
            "number": self.number,
        }

    def get_absolute_url(self) -> str:
        return reverse("tournaments:session", args=[self.event.slug, self.number])

    def rules_spec(self) -> Any:
        """The `rules` of this session's game records: the preset of its stage when the
        stage names one, else the event's rules."""
        event = self.event
        if event.stage_count:
            preset = (
                Stage.objects.filter(
                    event_id=self.event_id,
                    first_session__lte=self.number,
                    last_session__gte=self.number,
                )
                .values_list("rules_preset", flat=True)
                .first()
            )
            if preset:
                return preset
        return event.rules_spec()


class Stage(models.Model):
    """A stage of an event (a qualifying stage, a semi-final, a final table): a run of the
    event's sessions, who enters it and what they carry into it. An event without stages
    is one stage of all its sessions, as before stages existed.

    Stage standings rank the entrants on carried points plus the stage's match points
    (`tournaments.reading.stages`); the carried points are worked out when read, from
    the previous stage's standings and each entrant's seed, so they follow any change of
    earlier results. Who entered is the director's decision at the cut, stored."""

    class Entrants(models.TextChoices):
        EVERYONE = "everyone", _("Everyone")
        TOP = "top", _("The top of the previous stage")
        SEEDS = "seeds", _("Seeded players, in seed order")
        LIST = "list", _("A list of players")
        # A team event's later stage: every member of the top `top` teams of the previous
        # stage's team table (`reading.teams.top_teams_cut`).
        TOP_TEAMS = "top_teams", _("The top teams of the previous stage")

    class Carry(models.TextChoices):
        NONE = "none", _("Nothing: totals start again")
        FULL = "full", _("The whole total")
        FACTOR = "factor", _("A part of the total")
        SEED_TABLE = "seed_table", _("Points by seed")
        BRACKETS = "brackets", _("Starting points by bracket")

    class Rounding(models.TextChoices):
        HALF_UP = "half_up", _("Tenths, halves away from zero")
        UP = "up", _("Tenths, up")
        DOWN = "down", _("Tenths, down")
        HALF_EVEN = "half_even", _("Tenths, halves to even")

    class TieBreak(models.TextChoices):
        TOTAL = "total", _("Total of the event so far")
        CARRIED = "carried", _("Carried points")
        PREVIOUS_RANK = "previous_rank", _("Rank in the previous stage")
        BEST_GAME = "best_game", _("Best single game")
        FIRSTS = "firsts", _("First places")
        SHARED = "shared", _("Shared place")

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="stages", verbose_name=_("event")
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    name = models.CharField(max_length=80, verbose_name=_("name"))
    first_session = models.PositiveIntegerField(verbose_name=_("first session"))
    last_session = models.PositiveIntegerField(verbose_name=_("last session"))
    entrants = models.CharField(
        max_length=10,
        choices=Entrants.choices,
        default=Entrants.EVERYONE,
        verbose_name=_("entrants"),
    )
    top = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=_("How many go through from the previous stage."),
        verbose_name=_("top"),
    )
    carry = models.CharField(
        max_length=12, choices=Carry.choices, default=Carry.NONE, verbose_name=_("carry")
    )
    carry_factor = models.DecimalField(
        max_digits=4, decimal_places=2, null=True, blank=True, verbose_name=_("factor")
    )
    carry_rounding = models.CharField(
        max_length=10,
        choices=Rounding.choices,
        default=Rounding.HALF_UP,
        verbose_name=_("rounding"),
    )
    # Seed table: match points by seed, as strings of decimals ("40", "30", ...); brackets:
    # starting points (integers) of each bracket of seeds, best bracket first.
    carry_table = models.JSONField(default=list, blank=True, verbose_name=_("carry table"))
    rules_preset = models.CharField(
        max_length=32,
        blank=True,
        choices=[(name, name) for name in scoring.PRESETS],
        help_text=_("Empty: the event's rules."),
        verbose_name=_("rules preset"),
    )
    seating_method = models.CharField(max_length=12, blank=True, verbose_name=_("seating method"))
    bye_points = models.DecimalField(
        max_digits=5,
        decimal_places=1,
        default=Decimal(0),
        help_text=_("Match points for a session an entrant sits out."),
        verbose_name=_("bye points"),
    )
    tie_breaks = models.JSONField(default=list, blank=True, verbose_name=_("tie-breaks"))
    hidden = models.BooleanField(
        default=False,
        help_text=_("Players see no totals of this stage; the organisers still do."),
        verbose_name=_("totals hidden"),
    )
    cut_at = models.DateTimeField(null=True, blank=True, verbose_name=_("cut at"))
    team_best = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(TEAM_MEMBERS_LIMIT)],
        help_text=_(
            "Team totals of this stage count the best this many members; empty: as the event says."
        ),
        verbose_name=_("members counted"),
    )

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="unique_stage_number"),
            models.CheckConstraint(
                condition=Q(last_session__gte=models.F("first_session")),
                name="stage_sessions_in_order",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:stage", args=[self.event.slug, self.number])

    def sessions(self) -> models.QuerySet:
        return self.event.sessions.filter(
            number__gte=self.first_session, number__lte=self.last_session
        )

    def unfinished_games(self) -> models.QuerySet:
        """The stage's games not finished yet: a cut after it waits for them."""
        return Game.objects.filter(
            session__event_id=self.event_id,
            session__number__gte=self.first_session,
            session__number__lte=self.last_session,
        ).exclude(status=Game.Status.FINISHED)


class StageEntrant(models.Model):
    """A player who entered a stage, with their seed (1 is the best)."""

    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, related_name="entries", verbose_name=_("stage")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    seed = models.PositiveIntegerField(verbose_name=_("seed"))

    class Meta:
        ordering = ["stage", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "player"], name="unique_stage_entrant"),
            models.UniqueConstraint(fields=["stage", "seed"], name="unique_stage_seed"),
        ]

    def __str__(self) -> str:
        return f"{self.stage} #{self.seed}: {self.player}"


class Team(models.Model):
    """A team of a team event: its members (regulars and reserves) and an optional captain,
    who submits the line-ups."""

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="teams", verbose_name=_("event")
    )
    name = models.CharField(max_length=60, verbose_name=_("name"))
    captain = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("A member whose login submits the team's line-ups."),
        verbose_name=_("captain"),
    )

    class Meta:
        ordering = ["event", "name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="unique_team_name"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:team", args=[self.event.slug, self.pk])


class TeamMember(models.Model):
    """A player of a team; one team per player in an event."""

    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="members", verbose_name=_("team")
    )
    # The team's event again, so that the database holds a player to one team per event.
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    reserve = models.BooleanField(
        default=False,
        help_text=_("A reserve plays only when a line-up names them."),
        verbose_name=_("reserve"),
    )

    class Meta:
        ordering = ["team", "reserve", "player__display_name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="one_team_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.team})"


class LineUp(models.Model):
    """The members a team's captain sends to one session; hidden from other teams and the
    public until the session's line-up deadline."""

    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="lineups", verbose_name=_("team")
    )
    session = models.ForeignKey(
        Session, on_delete=models.CASCADE, related_name="lineups", verbose_name=_("session")
    )
    players = models.ManyToManyField(Player, related_name="+", verbose_name=_("players"))
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    submitted_at = models.DateTimeField(verbose_name=_("submitted at"))

    class Meta:
        ordering = ["session", "team"]
        constraints = [
            models.UniqueConstraint(fields=["team", "session"], name="one_lineup_per_session"),
        ]

    def __str__(self) -> str:
        return f"{self.team} · {self.session}"


class RosterEntryQuerySet(models.QuerySet):
    def playing_in(self, session_number: int) -> RosterEntryQuerySet:
        """The entries still taking part in session (round) `session_number`."""
        return self.filter(Q(withdrawn_from__isnull=True) | Q(withdrawn_from__gt=session_number))

    def withdrawn_by(self, session_number: int) -> RosterEntryQuerySet:
        return self.filter(withdrawn_from__lte=session_number)

    def regulars(self) -> RosterEntryQuerySet:
        return self.filter(is_substitute=False)

    def substitutes(self) -> RosterEntryQuerySet:
        """The event's substitute pool."""
        return self.filter(is_substitute=True)


class RosterEntry(models.Model):
    """A player taking part in an event. Withdrawing keeps the entry (and every game
    played), so standings still show the player; seating leaves them out from the
    session `withdrawn_from` on."""

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="roster", verbose_name=_("event")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="entries", verbose_name=_("player")
    )
    withdrawn_from = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=_(
            "The first session (round) the player no longer plays in; empty while they take part."
        ),
        verbose_name=_("withdrawn from"),
    )
    is_substitute = models.BooleanField(
        default=False,
        help_text=_(
            "In the substitute pool: not seated as a regular player, but ready to take a "
            "no-show's seat or to fill a short table; the games count for the others."
        ),
        verbose_name=_("substitute"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    objects = RosterEntryQuerySet.as_manager()

    class Meta:
        verbose_name = _("roster entry")
        verbose_name_plural = _("roster entries")
        ordering = ["event", "player__display_name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="one_entry_per_player"),
            models.CheckConstraint(
                condition=Q(withdrawn_from__isnull=True) | Q(withdrawn_from__gte=1),
                name="withdrawn_from_session_1_on",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.event}"

    def plays_in(self, session_number: int) -> bool:
        return self.withdrawn_from is None or session_number < self.withdrawn_from


class Registration(models.Model):
    """A signed-in player's request for a place at an event, before the day. Asked places
    (waiting for the organisers) and confirmed ones count against the event's places; the
    rest wait in the order they asked (`asked_at`). A confirmed registration is on the
    roster. One row per player and event: asking again after withdrawing reuses it."""

    class Status(models.TextChoices):
        ASKED = "asked", _("Waiting for the organisers")
        WAITING = "waiting", _("On the waiting list")
        CONFIRMED = "confirmed", pgettext_lazy("registration", "Confirmed")
        DECLINED = "declined", pgettext_lazy("registration", "Declined")
        WITHDRAWN = "withdrawn", pgettext_lazy("registration", "Withdrawn")

    # Those holding a place, and those still open (not yet answered by the organisers).
    HOLDING = (Status.ASKED, Status.CONFIRMED)
    OPEN = (Status.ASKED, Status.WAITING)
    ACTIVE = (Status.ASKED, Status.WAITING, Status.CONFIRMED)

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="registrations", verbose_name=_("event")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="registrations", verbose_name=_("player")
    )
    status = models.CharField(max_length=10, choices=Status.choices, verbose_name=_("status"))
    asked_at = models.DateTimeField(verbose_name=_("asked at"))
    answered_at = models.DateTimeField(null=True, blank=True, verbose_name=_("answered at"))

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        ordering = ["event", "asked_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="one_registration_per_player"),
        ]
        indexes = [models.Index(fields=["event", "status", "asked_at"], name="registration_queue")]

    def __str__(self) -> str:
        return f"{self.player} for {self.event}: {self.status}"


class CheckIn(models.Model):
    """Whether a roster player is present for a session (round), marked before it is
    seated. A session with no check-in is seated from the roster as it stands; once one
    player is marked, seating takes the players marked present. At most one row per
    roster entry and session."""

    session = models.ForeignKey(
        Session, on_delete=models.CASCADE, related_name="check_ins", verbose_name=_("session")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="check_ins", verbose_name=_("player")
    )
    present = models.BooleanField(default=True, verbose_name=_("present"))
    # A no-show whose seat a substitute of the pool takes.
    replaced_by = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("replaced by"),
    )
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")
        ordering = ["session", "player__display_name"]
        constraints = [
            models.UniqueConstraint(fields=["session", "player"], name="one_check_in_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.session}: {'present' if self.present else 'absent'}"


class GameQuerySet(models.QuerySet):
    def finished(self) -> GameQuerySet:
        return self.filter(status=Game.Status.FINISHED)

    def in_progress(self) -> GameQuerySet:
        return self.filter(status=Game.Status.IN_PROGRESS)

    def next_table_number(self) -> int:
        """The table number after the highest of these games (1 for none):
        `session.games.next_table_number()`."""
        return (self.aggregate(last=models.Max("table_number"))["last"] or 0) + 1


class Game(models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")

    class EntryMode(models.TextChoices):
        HANDS = "hands", _("Hand by hand")
        FINAL_SCORES = "final_scores", _("Final scores only")

    session = models.ForeignKey(
        Session, on_delete=models.CASCADE, related_name="games", verbose_name=_("session")
    )
    table_number = models.PositiveIntegerField(default=1, verbose_name=_("table number"))
    status = models.CharField(
        max_length=20, choices=Status.choices, default=Status.IN_PROGRESS, verbose_name=_("status")
    )
    entry_mode = models.CharField(
        max_length=20,
        choices=EntryMode.choices,
        default=EntryMode.HANDS,
        verbose_name=_("entry mode"),
    )
    # Final-score-only games: the sticks left on the table (the scores are on the seats).
    leftover_sticks = models.PositiveSmallIntegerField(default=0, verbose_name=_("leftover sticks"))
    # Why the engine ended the game (last_hand, bust, ...); empty while it goes on.
    ended_by = models.CharField(max_length=20, blank=True, verbose_name=_("ended by"))
    # Derived, written with the results: the round and honba the next hand is played in.
    round_now = models.CharField(
        max_length=8,
        blank=True,
        default="E1-0",
        verbose_name=_("round now"),
        help_text=_("The round and honba of the next hand (E3-1); empty once the game is over."),
    )
    ended_early = models.CharField(
        max_length=10,
        choices=[("time", "Time was called")],
        blank=True,
        help_text=_("Set when the organiser ended the game after its last hand entered."),
        verbose_name=_("ended early"),
    )
    source_id = models.CharField(
        max_length=80,
        blank=True,
        help_text=_("The id of an imported log, so that an event imports it once."),
        verbose_name=_("source id"),
    )
    # The event of the game's session, kept beside `source_id` so that the database itself
    # holds a log id unique per event (a constraint cannot reach through the session).
    source_event = models.ForeignKey(
        "Event",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("source event"),
    )
    locked = models.BooleanField(
        default=False,
        help_text=_("A locked game's table link cannot change its hands."),
        verbose_name=_("locked"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["session", "table_number", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["source_event", "source_id"],
                condition=~Q(source_id=""),
                name="unique_game_source_id_per_event",
            ),
            models.CheckConstraint(condition=Q(leftover_sticks__lte=100), name="sane_sticks"),
            # A table of a session holds one game at a time; finished games may share a
            # table number (the four games of one scoresheet).
            models.UniqueConstraint(
                fields=["session", "table_number"],
                condition=Q(status="in_progress"),
                name="one_open_game_per_table",
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(session)s · table %(table)s") % {
            "session": self.session,
            "table": self.table_number,
        }

    def get_absolute_url(self) -> str:
        return reverse("tournaments:game", args=[self.pk])

    @property
    def event(self) -> Event:
        return self.session.event

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def awaits_final_scores(self) -> bool:
        """A final-score game whose scores are not entered yet: nothing to replay."""
        return self.entry_mode == self.EntryMode.FINAL_SCORES and any(
            seat.entered_score is None for seat in self.seats.all()
        )

    def ordered_seats(self) -> list[GameSeat]:
        seats = sorted(self.seats.all(), key=lambda s: s.seat)
        return seats

    def to_record(self, *, entries: dict[int, list] | None = None) -> dict[str, Any]:
        """The tenbou-game/1 document for this game: the one place engine input is built.
        With `entries`, the entry ids of its hands go into it too, read with the hands in
        one statement (see `Hand.records_by_game`)."""
        seats = self.ordered_seats()
        final_scores = self.entry_mode == self.EntryMode.FINAL_SCORES
        # Meta orderings give hands by number and penalties by time, so prefetched rows
        # (the games of a backup) are used as they are, without a query per game; else
        # they are read as plain values.
        prefetched = getattr(self, "_prefetched_objects_cache", {})
        if final_scores:
            hands = None
        elif "hands" in prefetched and entries is None:
            hands = [h.to_record() for h in self.hands.all()]
        else:
            hands = Hand.records_by_game(pk=self.pk, entries=entries).get(self.pk, [])
        if "penalties" in prefetched:
            penalties = [p.to_record() for p in self.penalties.all()]
        else:
            penalties = Penalty.records_by_game(pk=self.pk).get(self.pk, [])
        return self.document(
            rules=self.session.rules_spec(),
            players=[s.player.display_name for s in seats],
            final_scores=[s.entered_score for s in seats] if final_scores else None,
            leftover_sticks=self.leftover_sticks,
            hands=hands,
            ended_early=self.ended_early,
            penalties=penalties,
        )

    @staticmethod
    def document(
        *,
        rules,
        players: list[str],
        final_scores: list[int | None] | None,
        leftover_sticks: int,
        hands: list[dict] | None,
        ended_early: str,
        penalties: list[dict],
    ) -> dict[str, Any]:
        """A tenbou-game/1 document from a game's parts: `final_scores` for a game of
        final scores only, else its `hands` (hand objects)."""
        doc: dict[str, Any] = {"format": FORMAT, "rules": rules, "players": players}
        if hands is None:
            doc["final_scores"] = final_scores
            doc["leftover_sticks"] = leftover_sticks
        else:
            doc["hands"] = hands
            if ended_early:
                doc["ended_early"] = ended_early
        if penalties:
            doc["penalties"] = penalties
        return doc


class GameSeatQuerySet(models.QuerySet):
    def finished_in(self, event, *, first_session=None, last_session=None) -> GameSeatQuerySet:
        """The seats of the finished games of `event`, optionally within a range of sessions:
        what standings and results count."""
        seats = self.filter(game__session__event=event, game__status=Game.Status.FINISHED)
        if first_session is not None:
            seats = seats.filter(game__session__number__gte=first_session)
        if last_session is not None:
            seats = seats.filter(game__session__number__lte=last_session)
        return seats

    def count_finished_in(self, event) -> int:
        """How many seats `finished_in(event)` holds, counted by games: every game of an
        event has as many seats as its rules seat players (making, importing and reseating
        a game, a stage's own preset and a change of the event's rules all keep to it), so
        its finished games times that number: a quarter of the rows and no join to the
        seats, for the first page of results after a change, which counts them all."""
        games = Game.objects.filter(session__event=event, status=Game.Status.FINISHED)
        return games.count() * event.player_count


class GameSeat(models.Model):
    """A player at a seat of a game, with the results the engine derived for that seat."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="seats", verbose_name=_("game")
    )
    seat = models.PositiveSmallIntegerField(validators=SEAT_VALIDATORS, verbose_name=_("seat"))
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="seats", verbose_name=_("player")
    )
    # What an organiser typed for a final-score-only game.
    entered_score = models.IntegerField(null=True, blank=True, verbose_name=_("entered score"))
    # Derived: the current score (final score once finished), then placement and points.
    score = models.IntegerField(null=True, blank=True, verbose_name=_("score"))
    placement = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("placement"))
    match_points = models.DecimalField(
        max_digits=7, decimal_places=1, null=True, blank=True, verbose_name=_("match points")
    )
    penalty_points = models.DecimalField(
        max_digits=7,
        decimal_places=1,
        default=Decimal(0),
        help_text=_("Included in match points."),
        verbose_name=_("penalty points"),
    )
    is_substitute = models.BooleanField(
        _("substitute"),
        default=False,
        help_text=_(
            "Sits in for one game only: the game counts for the other three players, "
            "but the substitute is not ranked in the standings."
        ),
    )
    # The game's session while the game is not finished, empty once it is: the database
    # then keeps a player to one unfinished game per session (NULLs never clash).
    open_session = models.ForeignKey(
        Session,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        editable=False,
        verbose_name=_("open session"),
    )

    # Derived, for the statistics: what the seat's player did in the game's hands (chombo
    # hands left out), rewritten with the other results whenever the game is replayed (see
    # `tournaments.statistics.seat_figures`).
    hands = models.PositiveIntegerField(default=0, editable=False, verbose_name=_("hands"))
    wins = models.PositiveIntegerField(default=0, editable=False, verbose_name=_("wins"))
    tsumo = models.PositiveIntegerField(default=0, editable=False, verbose_name=_("tsumo"))
    deal_ins = models.PositiveIntegerField(default=0, editable=False, verbose_name=_("deal-ins"))
    riichi = models.PositiveIntegerField(default=0, editable=False, verbose_name=_("riichi"))
    dealer_hands = models.PositiveIntegerField(
        default=0, editable=False, verbose_name=_("dealer hands")
    )
    dealer_repeats = models.PositiveIntegerField(
        default=0, editable=False, verbose_name=_("dealer repeats")
    )
    won_total = models.IntegerField(default=0, editable=False, verbose_name=_("points won"))
    won_counted = models.PositiveIntegerField(default=0, editable=False)
    dealt_total = models.IntegerField(default=0, editable=False, verbose_name=_("points dealt in"))
    dealt_counted = models.PositiveIntegerField(default=0, editable=False)
    # Yaku key -> how many of the seat's wins had it.
    yaku = models.JSONField(default=dict, blank=True, editable=False, verbose_name=_("yaku"))

    objects = GameSeatQuerySet.as_manager()

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(
                fields=["open_session", "player"], name="one_open_game_per_player"
            ),
            models.UniqueConstraint(fields=["game", "seat"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["game", "player"], name="one_seat_per_player"),
            models.CheckConstraint(condition=Q(seat__gte=0, seat__lte=3), name="seat_0_to_3"),
            models.CheckConstraint(
                condition=Q(placement__isnull=True) | Q(placement__gte=1, placement__lte=4),
                name="placement_1_to_4",
            ),
        ]

    def __str__(self) -> str:
        return f"{WINDS[self.seat]}: {self.player}"

    @property
    def starting_wind(self) -> str:
        return WINDS[self.seat]


class PlayerTotal(models.Model):
    """What the standings count of one player's finished games (substitute seats left
    out): in one session of an event, or, with no session, in the whole event. Stored so
    that standings read a row per player instead of summing every seat; rewritten with
    the results in the same transaction (`tournaments.totals`)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    session = models.ForeignKey(Session, null=True, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    games = models.PositiveIntegerField()
    # Match points and penalties in whole tenths: exact, and read without decimal conversion.
    points_tenths = models.BigIntegerField()
    penalty_tenths = models.BigIntegerField()
    score = models.BigIntegerField()
    firsts = models.PositiveIntegerField()
    seconds = models.PositiveIntegerField()
    thirds = models.PositiveIntegerField()
    fourths = models.PositiveIntegerField()
    # A session's placements in play order (table, then game), one digit each: "132".
    placements = models.TextField(blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["event", "player"],
                condition=Q(session__isnull=True),
                name="one_event_total_per_player",
            ),
            models.UniqueConstraint(
                fields=["session", "player"], name="one_session_total_per_player"
            ),
        ]
        indexes = [
            models.Index(fields=["event", "session"], name="player_total_event_session"),
            # A recount reads a few players' rows of one event.
            models.Index(fields=["player", "event", "session"], name="player_total_player_event"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.session_id or self.event_id}: {self.games} games"


class StatisticsTotal(models.Model):
    """What the statistics count of one player's seats in finished games (substitute seats
    included): the seats' own figures added up, in one session of an event, or, with no
    session, in the whole event. Stored so that the statistics read a row per player
    instead of every seat; rewritten with the standings totals (`tournaments.totals`)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    session = models.ForeignKey(Session, null=True, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    games = models.PositiveIntegerField()
    firsts = models.PositiveIntegerField()
    seconds = models.PositiveIntegerField()
    thirds = models.PositiveIntegerField()
    fourths = models.PositiveIntegerField()
    # The sums of the seats' fields of the same names (`statistics.SEAT_FIGURES`).
    hands = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
    tsumo = models.PositiveIntegerField()
    deal_ins = models.PositiveIntegerField()
    riichi = models.PositiveIntegerField()
    dealer_hands = models.PositiveIntegerField()
    dealer_repeats = models.PositiveIntegerField()
    won_total = models.BigIntegerField()
    won_counted = models.PositiveIntegerField()
    dealt_total = models.BigIntegerField()
    dealt_counted = models.PositiveIntegerField()
    # Yaku key -> how many of the player's wins had it.
    yaku = models.JSONField(default=dict, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["event", "player"],
                condition=Q(session__isnull=True),
                name="one_event_statistics_per_player",
            ),
            models.UniqueConstraint(
                fields=["session", "player"], name="one_session_statistics_per_player"
            ),
        ]
        indexes = [
            models.Index(fields=["event", "session"], name="statistics_total_event_session"),
            # A recount reads a few players' rows of one event.
            models.Index(
                fields=["player", "event", "session"], name="statistics_total_player_event"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.session_id or self.event_id}: {self.hands} hands"


class SessionTotal(models.Model):
    """How many finished games of a session the standings count."""

    session = models.OneToOneField(
        Session, primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    games = models.PositiveIntegerField()

    def __str__(self) -> str:
        return f"session {self.session_id}: {self.games} games"


class Hand(models.Model):
    class Result(models.TextChoices):
        RON = "ron", _("Ron")
        TSUMO = "tsumo", _("Tsumo")
        DRAW = "draw", _("Exhaustive draw")
        NAGASHI = "nagashi", _("Nagashi mangan")
        ABORT = "abort", _("Abortive draw")
        CHOMBO = "chombo", _("Chombo")

    class AbortReason(models.TextChoices):
        NINE_TERMINALS = "nine_terminals", _("Nine terminals")
        FOUR_WINDS = "four_winds", _("Four winds")
        FOUR_KANS = "four_kans", _("Four kans")
        FOUR_RIICHI = "four_riichi", _("Four riichi")
        TRIPLE_RON = "triple_ron", _("Triple ron")

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="hands", verbose_name=_("game")
    )
    number = models.PositiveIntegerField(
        help_text=_("1 for the first hand of the game."), verbose_name=_("number")
    )
    result = models.CharField(max_length=10, choices=Result.choices, verbose_name=_("result"))
    # Seat sets as four-bit masks (seat 0 = bit 0), so the database can check their range.
    riichi_mask = models.PositiveSmallIntegerField(default=0, verbose_name=_("riichi mask"))
    tenpai_mask = models.PositiveSmallIntegerField(default=0, verbose_name=_("tenpai mask"))
    nagashi_mask = models.PositiveSmallIntegerField(default=0, verbose_name=_("nagashi mask"))
    abort_reason = models.CharField(
        max_length=20, choices=AbortReason.choices, blank=True, verbose_name=_("abort reason")
    )
    chombo_offender = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=SEAT_VALIDATORS, verbose_name=_("chombo offender")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    # Written by services whenever the game is replayed: the seat that dealt this hand and
    # each seat's score change in it (honba and sticks included). The statistics read the
    # seats' figures instead (`GameSeat.hands` and after).
    dealer = models.PositiveSmallIntegerField(
        null=True, blank=True, editable=False, verbose_name=_("dealer")
    )
    deltas = models.JSONField(default=list, blank=True, editable=False, verbose_name=_("deltas"))
    # The entry (an add or an edit, see `EntryReceipt`) that stored this hand as it is: a
    # phone that sent it knows its hand is on the server by this id. Empty for hands stored
    # before entries had ids, and for imported ones.
    entry = models.UUIDField(null=True, blank=True, editable=False, verbose_name=_("entry"))

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="unique_hand_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_from_1"),
            models.CheckConstraint(
                condition=Q(riichi_mask__lte=15, tenpai_mask__lte=15, nagashi_mask__lte=15),
                name="hand_seat_masks_in_range",
            ),
            models.CheckConstraint(
                condition=Q(chombo_offender__isnull=True) | Q(chombo_offender__lte=3),
                name="chombo_offender_0_to_3",
            ),
        ]

    def __str__(self) -> str:
        return f"hand {self.number} ({self.get_result_display()})"

    @property
    def riichi(self) -> tuple[int, ...]:
        return mask_seats(self.riichi_mask)

    @property
    def tenpai(self) -> tuple[int, ...]:
        return mask_seats(self.tenpai_mask)

    @property
    def nagashi(self) -> tuple[int, ...]:
        return mask_seats(self.nagashi_mask)

    def to_engine(self) -> payouts.Hand:
        """This hand as the engine's `Hand`."""
        fields = {name: getattr(self, name) for name in self.ENGINE_FIELDS}
        return self.engine_hand(**fields, wins=[win.to_engine() for win in self.wins.all()])

    # The stored fields `engine_hand` takes besides the wins.
    ENGINE_FIELDS = (
        "result",
        "riichi_mask",
        "tenpai_mask",
        "nagashi_mask",
        "abort_reason",
        "chombo_offender",
    )

    @classmethod
    def records_by_game(
        cls, *, entries: dict[int, list] | None = None, **games
    ) -> dict[int, list[dict[str, Any]]]:
        """The hand objects of the games that the lookups `games` select (`pk=...`,
        `session__event=...`), by game id, each game's in hand order, read as plain values:
        a model instance for every hand and win is the slower way, by most of a minute for
        an event's export. With `entries`, each hand's entry id (or None) goes into it, by
        game id, in the same order.

        The hands and their wins come in one statement (a row per win, or one for a hand
        without), so a hand saved or changed meanwhile is read whole or not at all: two
        queries could pair a ron with the wins of a moment later, none."""
        win_fields = [f"wins__{name}" for name in Win.ENGINE_FIELDS]
        rows = cls.objects.filter(**{f"game__{k}": v for k, v in games.items()})
        rows = rows.order_by("game_id", "number", "wins__order", "wins__pk")
        rows = rows.values_list(
            "pk", "game_id", "entry", *cls.ENGINE_FIELDS, "wins__pk", *win_fields
        )
        width = len(cls.ENGINE_FIELDS)
        hands: dict[int, tuple[int, Any, tuple, list[payouts.Win]]] = {}
        for hand_id, game_id, entry, *fields in rows:
            hand_fields, win_id, win = fields[:width], fields[width], fields[width + 1 :]
            _, _, _, wins = hands.setdefault(hand_id, (game_id, entry, tuple(hand_fields), []))
            if win_id is not None:
                wins.append(Win.engine_win(*win))
        records: dict[int, list[dict[str, Any]]] = {}
        for game_id, entry, hand_fields, wins in hands.values():
            values = dict(zip(cls.ENGINE_FIELDS, hand_fields, strict=True))
            hand = cls.engine_hand(**values, wins=wins)
            records.setdefault(game_id, []).append(dump_hand(hand))
            if entries is not None:
                entries.setdefault(game_id, []).append(entry)
        return records

    @staticmethod
    def engine_hand(
        *,
        result: str,
        riichi_mask: int,
        tenpai_mask: int,
        nagashi_mask: int,
        abort_reason: str,
        chombo_offender: int | None,
        wins: list[payouts.Win],
    ) -> payouts.Hand:
        """The engine's `Hand` from the stored fields of a hand (and its engine wins)."""
        return payouts.Hand(
            result=payouts.Result(result),
            riichi=tuple(mask_seats(riichi_mask)),
            wins=tuple(wins),
            tenpai=tuple(mask_seats(tenpai_mask)),
            nagashi=tuple(mask_seats(nagashi_mask)),
            reason=payouts.AbortReason(abort_reason) if abort_reason else None,
            offender=chombo_offender,
        )

    def to_record(self) -> dict[str, Any]:
        """This hand as a tenbou-game/1 hand object, written by the engine's one writer of
        hand objects (`scoring.record.dump_hand`)."""
        return dump_hand(self.to_engine())

    @classmethod
    def from_record(cls, game: Game, number: int, doc: dict[str, Any], **extra) -> Hand:
        """An unsaved hand (and its unsaved wins as `pending_wins`) from a hand object."""
        hand = cls(
            game=game,
            number=number,
            result=doc["result"],
            riichi_mask=seat_mask(doc.get("riichi", [])),
            tenpai_mask=seat_mask(doc.get("tenpai", [])),
            nagashi_mask=seat_mask(doc.get("nagashi", [])),
            abort_reason=doc.get("reason", ""),
            chombo_offender=doc.get("offender"),
            **extra,
        )
        hand.pending_wins = [
            Win(
                order=index,
                winner=w["winner"],
                loser=w.get("loser"),
                han=w.get("han"),
                fu=w.get("fu"),
                yakuman=w.get("yakuman"),
                pao=w.get("pao"),
                pao_yakuman=w.get("pao_yakuman"),
                yaku=w.get("yaku") or [],
                dora=w.get("dora"),
                is_open=w.get("open"),
                kita=w.get("kita"),
            )
            for index, w in enumerate(doc.get("wins", []))
        ]
        return hand


class EntryReceipt(models.Model):
    """One hand entry (an add, an edit or an undo) applied to a game, under the id the
    phone or the form made for it when the player confirmed it. The database holds each id
    once per game, so the same entry sent again (a lost answer, a second tap, a phone's
    outbox retrying) is answered from here with what was stored, never applied twice."""

    class Kind(models.TextChoices):
        ADD = "add", _("Hand added")
        EDIT = "edit", _("Hand edited")
        UNDO = "undo", _("Hand undone")

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="receipts", verbose_name=_("game")
    )
    entry = models.UUIDField(verbose_name=_("entry"))
    kind = models.CharField(max_length=8, choices=Kind.choices, verbose_name=_("kind"))
    number = models.PositiveIntegerField(
        help_text=_("The hand the entry added, changed or undid."), verbose_name=_("number")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("entry receipt")
        verbose_name_plural = _("entry receipts")
        ordering = ["game", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["game", "entry"], name="one_receipt_per_entry"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} of hand {self.number} ({self.entry})"


class PhoneContact(models.Model):
    """The last time a table's phone (or any browser entering the game's hands) reached the
    server, and how many confirmed hands it said were still waiting to be sent. A row of
    its own per game, so that a phone's report locks nothing that another table, or the
    game's own hand entry, waits for."""

    game = models.OneToOneField(
        Game,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="phone_contact",
        verbose_name=_("game"),
    )
    at = models.DateTimeField(verbose_name=_("last contact"))
    waiting = models.PositiveIntegerField(
        default=0,
        help_text=_("Hands the phone had confirmed but not yet sent, as it last reported."),
        verbose_name=_("waiting"),
    )

    class Meta:
        verbose_name = _("phone contact")
        verbose_name_plural = _("phone contacts")

    def __str__(self) -> str:
        return f"game {self.game_id}: {self.waiting} waiting at {self.at:%H:%M:%S}"


class Win(models.Model):
    hand = models.ForeignKey(
        Hand, on_delete=models.CASCADE, related_name="wins", verbose_name=_("hand")
    )
    order = models.PositiveSmallIntegerField(default=0, verbose_name=_("order"))
    winner = models.PositiveSmallIntegerField(validators=SEAT_VALIDATORS, verbose_name=_("winner"))
    loser = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=SEAT_VALIDATORS, verbose_name=_("loser")
    )
    han = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("han"))
    fu = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("fu"))
    yakuman = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("yakuman"))
    pao = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=SEAT_VALIDATORS, verbose_name=_("pao")
    )
    pao_yakuman = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        verbose_name=_("pao yakuman"),
        help_text=_(
            "How many of the yakuman multiples the liable player answers for, under "
            "rules where pao covers only the fed yakuman (empty: one)."
        ),
    )
    yaku = models.JSONField(default=list, blank=True, verbose_name=_("yaku"))
    dora = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("dora"))
    is_open = models.BooleanField(null=True, blank=True, verbose_name=_("is open"))
    # Three-player games: the North tiles the winner set aside, already counted in `dora`.
    kita = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("kita"))

    class Meta:
        ordering = ["hand", "order"]
        constraints = [
            models.CheckConstraint(condition=Q(winner__lte=3), name="win_winner_0_to_3"),
            models.CheckConstraint(
                condition=Q(loser__isnull=True) | (Q(loser__lte=3) & ~Q(loser=models.F("winner"))),
                name="win_loser_0_to_3_not_winner",
            ),
            models.CheckConstraint(
                condition=Q(pao__isnull=True) | Q(pao__lte=3), name="win_pao_0_to_3"
            ),
            models.CheckConstraint(
                condition=Q(pao_yakuman__isnull=True)
                | Q(pao__isnull=False, pao_yakuman__gte=1, pao_yakuman__lte=models.F("yakuman")),
                name="win_pao_yakuman_within_the_win",
            ),
            models.CheckConstraint(
                condition=Q(han__isnull=True) | Q(han__gte=1, han__lte=99), name="win_han_range"
            ),
            models.CheckConstraint(
                condition=Q(fu__isnull=True) | Q(fu__in=VALID_FU), name="win_fu_possible"
            ),
            models.CheckConstraint(
                condition=Q(yakuman__isnull=True) | Q(yakuman__gte=1, yakuman__lte=MAX_YAKUMAN),
                name="win_yakuman_range",
            ),
            models.CheckConstraint(
                condition=Q(han__isnull=False) | Q(yakuman__isnull=False),
                name="win_has_a_value",
            ),
        ]

    def __str__(self) -> str:
        return f"win by seat {self.winner} in {self.hand}"

    def to_engine(self) -> payouts.Win:
        """This win as the engine's `Win` (a yakuman has no han or fu)."""
        return self.engine_win(*(getattr(self, name) for name in self.ENGINE_FIELDS))

    # The stored fields `engine_win` takes, in its order.
    ENGINE_FIELDS = (
        "winner",
        "loser",
        "han",
        "fu",
        "yakuman",
        "pao",
        "pao_yakuman",
        "yaku",
        "dora",
        "is_open",
        "kita",
    )

    @staticmethod
    def engine_win(
        winner, loser, han, fu, yakuman, pao, pao_yakuman, yaku, dora, is_open, kita=None
    ) -> payouts.Win:
        """The engine's `Win` from the stored fields of a win, in `ENGINE_FIELDS` order."""
        limit = yakuman is not None
        return payouts.Win(
            winner=winner,
            loser=loser,
            han=None if limit else han,
            fu=None if limit else fu,
            yakuman=yakuman,
            pao=pao,
            pao_yakuman=pao_yakuman,
            yaku=tuple(yaku) or None,
            dora=dora,
            open=is_open,
            kita=kita,
        )


class Penalty(models.Model):
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="penalties", verbose_name=_("game")
    )
    seat = models.PositiveSmallIntegerField(validators=SEAT_VALIDATORS, verbose_name=_("seat"))
    match_points = models.DecimalField(
        max_digits=6,
        decimal_places=1,
        help_text=_("Added after uma and oka; negative to deduct."),
        verbose_name=_("match points"),
    )
    reason = models.CharField(max_length=200, verbose_name=_("reason"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        ordering = ["game", "created_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(seat__lte=3), name="penalty_seat_0_to_3"),
            models.CheckConstraint(condition=~Q(match_points=0), name="penalty_not_zero"),
        ]

    def __str__(self) -> str:
        return f"{self.match_points} for seat {self.seat}: {self.reason}"

    def to_record(self) -> dict[str, Any]:
        return self.record(self.seat, self.match_points, self.reason)

    @staticmethod
    def record(seat: int, match_points: Decimal, reason: str) -> dict[str, Any]:
        """A penalty object of a tenbou-game/1 document."""
        return {"seat": seat, "match_points": float(match_points), "reason": reason}

    @classmethod
    def records_by_game(cls, **games) -> dict[int, list[dict[str, Any]]]:
        """The penalty objects of the games that the lookups `games` select, by game id,
        each game's in the order they were given, read as plain values."""
        records: dict[int, list[dict[str, Any]]] = {}
        rows = cls.objects.filter(**{f"game__{k}": v for k, v in games.items()})
        rows = rows.order_by("game_id", "created_at", "pk")
        for game_id, *fields in rows.values_list("game_id", "seat", "match_points", "reason"):
            records.setdefault(game_id, []).append(cls.record(*fields))
        return records


class PendingImport(models.Model):
    """Logs a user uploaded for import, converted and waiting for the confirmation.

    Kept in a table, never in the web session: one per user (a new upload replaces the
    old), within a size quota, and gone after `PENDING_IMPORT_HOURS` (expired ones are
    removed whenever anyone uploads).
    """

    token = models.CharField(max_length=32, unique=True, verbose_name=_("token"))
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="pending_import",
        verbose_name=_("user"),
    )
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="+", verbose_name=_("event")
    )
    session_number = models.PositiveIntegerField(verbose_name=_("session number"))
    session_date = models.DateField(verbose_name=_("session date"))
    # One entry a file, in upload order: {"file_name", "game": converted game or None,
    # "problem": why it could not be converted, or ""}.
    logs = models.JSONField(default=list, verbose_name=_("logs"))
    uploaded_bytes = models.PositiveIntegerField(
        help_text=_("The size of the files uploaded."), verbose_name=_("uploaded bytes")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    expires_at = models.DateTimeField(verbose_name=_("expires at"))

    def __str__(self) -> str:
        return f"{len(self.logs)} log(s) for {self.event} by {self.user}"


def new_table_code() -> str:
    # 32 characters of 6 bits each: 192 random bits, far past guessing.
    return secrets.token_urlsafe(24)


class TableLinkQuerySet(models.QuerySet):
    def live(self) -> TableLinkQuerySet:
        return self.filter(revoked_at__isnull=True)


class TableLink(models.Model):
    """The address that lets the players at one table enter that game's hands without an
    account. Renewing revokes the old link and makes a new one; a revoked link opens
    nothing. The code is compared in constant time and shown only to organisers."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="table_links", verbose_name=_("game")
    )
    code = models.CharField(
        max_length=64, unique=True, default=new_table_code, editable=False, verbose_name=_("code")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    revoked_at = models.DateTimeField(null=True, blank=True, verbose_name=_("revoked at"))

    objects = TableLinkQuerySet.as_manager()

    class Meta:
        ordering = ["game", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game"], condition=Q(revoked_at__isnull=True), name="one_live_table_link"
            )
        ]

    def __str__(self) -> str:
        return f"table {self.game.table_number} link #{self.pk}"

    def get_absolute_url(self) -> str:
        """The address on the slip and in its QR code. The code follows `#`: browsers
        never send a fragment, so it stays out of every access log, proxy's included; the
        page the address opens posts the code."""
        return f"{reverse('tournaments:table_link', args=[self.pk])}#{self.code}"

    @property
    def is_live(self) -> bool:
        return self.revoked_at is None

    def matches(self, code: str) -> bool:
        return secrets.compare_digest(self.code.encode(), str(code).encode())


class TrailEntry(models.Model):
    """One change to an event's results: what it was before and after, who made it (a
    user, or a game's table link) and when. Written in the same transaction as the change."""

    class Kind(models.TextChoices):
        HAND_ADDED = "hand_added", _("Hand added")
        HAND_EDITED = "hand_edited", _("Hand edited")
        HAND_DELETED = "hand_deleted", _("Hand deleted")
        HAND_UNDONE = "hand_undone", _("Hand undone")
        FINAL_SCORES = "final_scores", _("Final scores")
        FINISHED = "finished", _("Game finished")
        REOPENED = "reopened", _("Game reopened")
        TIME_CALLED = "time_called", _("Time called")
        PENALTY_ADDED = "penalty_added", _("Penalty added")
        PENALTY_REMOVED = "penalty_removed", _("Penalty taken back")
        RULES_CHANGED = "rules_changed", _("Rules changed")
        SEATS_CHANGED = "seats_changed", _("Seats changed")
        LINK_CHANGED = "link_changed", _("Table link changed")
        ENTRY_CONFIRMED = "entry_confirmed", _("Registration confirmed")
        ENTRY_DECLINED = "entry_declined", _("Registration declined")
        GAME_CREATED = "game_created", _("Game created")
        GAME_DELETED = "game_deleted", _("Game deleted")
        PLAYER_WITHDRAWN = "withdrawn", _("Player withdrawn")
        PLAYER_RETURNED = "returned", _("Player back")
        REFEREE_CALLED = "referee_called", _("Referee called")
        REFEREE_ACKNOWLEDGED = "referee_coming", _("Referee on the way")
        REFEREE_RESOLVED = "referee_resolved", _("Referee call resolved")

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="trail", verbose_name=_("event")
    )
    game = models.ForeignKey(
        Game,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="trail",
        verbose_name=_("game"),
    )
    table_number = models.PositiveIntegerField(
        null=True, blank=True, verbose_name=_("table number")
    )
    session_number = models.PositiveIntegerField(
        null=True, blank=True, verbose_name=_("session number")
    )
    hand_number = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("hand number"))
    kind = models.CharField(max_length=20, choices=Kind.choices, verbose_name=_("kind"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        verbose_name=_("user"),
    )
    table_link = models.ForeignKey(
        TableLink,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="trail",
        verbose_name=_("table link"),
    )
    # Who, as it read when the change was made: kept if the user or link is gone later.
    author = models.CharField(max_length=160, verbose_name=_("author"))
    before = models.JSONField(
        null=True, blank=True, encoder=DjangoJSONEncoder, verbose_name=_("before")
    )
    after = models.JSONField(
        null=True, blank=True, encoder=DjangoJSONEncoder, verbose_name=_("after")
    )
    at = models.DateTimeField(auto_now_add=True, db_index=True, verbose_name=_("at"))

    class Meta:
        verbose_name = _("trail entry")
        verbose_name_plural = _("trail entries")
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["event", "-at"], name="trail_by_event_time")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} by {self.author}"


class RefereeCallQuerySet(models.QuerySet):
    def open(self) -> RefereeCallQuerySet:
        """Calls not yet resolved (acknowledged or not)."""
        return self.filter(resolved_at__isnull=True)


class RefereeCall(models.Model):
    """A table asking for a referee: called from its game page, acknowledged by an
    organiser (someone is on the way), then resolved. One open call per game at a time."""

    class Reason(models.TextChoices):
        RULING = "ruling", _("A ruling")
        DISPUTE = "dispute", _("A dispute")
        WRONG_SCORE = "wrong_score", _("A wrong score")
        OTHER = "other", _("Something else")

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="referee_calls", verbose_name=_("game")
    )
    reason = models.CharField(max_length=12, choices=Reason.choices, verbose_name=_("reason"))
    note = models.CharField(max_length=REFEREE_NOTE_LENGTH, blank=True, verbose_name=_("note"))
    called_at = models.DateTimeField(auto_now_add=True, verbose_name=_("called at"))
    called_by = models.CharField(max_length=160, verbose_name=_("called by"))
    acknowledged_at = models.DateTimeField(null=True, blank=True, verbose_name=_("acknowledged at"))
    acknowledged_by = models.CharField(
        max_length=160, blank=True, verbose_name=_("acknowledged by")
    )
    resolved_at = models.DateTimeField(null=True, blank=True, verbose_name=_("resolved at"))
    resolved_by = models.CharField(max_length=160, blank=True, verbose_name=_("resolved by"))

    objects = RefereeCallQuerySet.as_manager()

    class Meta:
        verbose_name = _("referee call")
        verbose_name_plural = _("referee calls")
        ordering = ["called_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(resolved_at__isnull=True),
                name="one_open_referee_call",
            )
        ]

    def __str__(self) -> str:
        return f"table {self.game.table_number}: {self.reason}"


class InvitationQuerySet(models.QuerySet):
    def pending_for(self, user) -> InvitationQuerySet:
        return self.filter(user=user).select_related("event", "player", "invited_by")


class Invitation(models.Model):
    """An offer the invited account accepts or declines on its invitations page: to
    organise an event, or to have a player linked to the login. Nobody is made an organiser
    or linked to a player without saying yes."""

    class Kind(models.TextChoices):
        ORGANISE = "organise", _("Organise an event")
        LINK = "link", _("Be linked to a player")

    kind = models.CharField(max_length=10, choices=Kind.choices, verbose_name=_("kind"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="invitations",
        verbose_name=_("invited account"),
    )
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("invited by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    objects = InvitationQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(kind="organise", event__isnull=False, player__isnull=True)
                    | Q(kind="link", event__isnull=True, player__isnull=False)
                ),
                name="invitation_names_its_event_or_player",
            ),
            models.UniqueConstraint(
                fields=["user", "event"],
                condition=Q(kind="organise"),
                name="one_organiser_invitation_per_event",
            ),
            models.UniqueConstraint(
                fields=["user", "player"],
                condition=Q(kind="link"),
                name="one_link_invitation_per_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.event or self.player} for {self.user}"


class PasswordResetRequest(models.Model):
    """One asked-for password reset, counted to throttle them per address and per email
    (settings.PASSWORD_RESETS_PER_*); rows older than a day are deleted as new ones come."""

    ip_address = models.GenericIPAddressField(null=True, blank=True)
    email = models.CharField(max_length=254)
    requested_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.email} from {self.ip_address} at {self.requested_at:%Y-%m-%d %H:%M}"


class Rating(models.Model):
    """A named computation over chosen events: its formula (with the version of that
    formula's rules pinned when it was made), a reckoning date, and for "best of n" its n.
    Values are computed when read (`reading.ratings`), kept in the view cache under the
    events' results versions, so they are never stale and never stored."""

    class Formula(models.TextChoices):
        MERS = "mers", _("EMA ranking (MERS)")
        TENHOU_R = "tenhou_r", _("Club rating (Tenhou R)")
        BEST_N = "best_n", _("Best results by match points")

    name = models.CharField(max_length=120, verbose_name=_("name"))
    formula = models.CharField(max_length=10, choices=Formula.choices, verbose_name=_("formula"))
    formula_version = models.PositiveSmallIntegerField(
        default=1,
        verbose_name=_("formula version"),
        help_text=_("The version of the formula's rules this rating keeps to."),
    )
    reckoning_date = models.DateField(
        verbose_name=_("reckoning date"),
        help_text=_("Results are counted as they stood on this day."),
    )
    best_of = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        verbose_name=_("results counted"),
        help_text=_("For best results: how many events of each player count."),
    )
    events = models.ManyToManyField(Event, related_name="ratings", verbose_name=_("events"))
    is_public = models.BooleanField(
        default=False,
        verbose_name=_("public"),
        help_text=_("Anyone may read a public rating while all its events are public."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="ratings",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        ordering = ["-reckoning_date", "name", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(formula="best_n", best_of__gte=1) | ~Q(formula="best_n"),
                name="rating_best_of_counts_something",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:rating", args=[self.pk])
