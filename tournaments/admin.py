"""The admin, for organisers with staff status.

Anything that changes a game's outcome is read-only here: the admin would store it
without replaying the game, and every later hand, score and match point would then be
wrong. Hands, wins and penalties are changed on the game page, rules on the event's
rules page, seats on the game's edit page; all of those replay the game.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import services
from .models import (
    Event,
    Game,
    GameSeat,
    Hand,
    Penalty,
    Player,
    Registration,
    RosterEntry,
    Session,
    Win,
)
from .trail import Actor
from .wording.refusals import say

REPLAYED = gettext_lazy(
    "Results are derived by replaying the game and cannot be edited here. Change hands, "
    "final scores and penalties on the game page, and seats on the game's edit page."
)


class ViewOnlyAdmin(admin.ModelAdmin):
    """Shows rows but never changes them, with a note saying where changes are made."""

    view_only_note = ""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def changelist_view(self, request, extra_context=None):
        messages.info(request, self.view_only_note)
        return super().changelist_view(request, extra_context)

    def get_fieldsets(self, request, obj=None):
        fields = self.get_fields(request, obj)
        return [(None, {"fields": fields, "description": self.view_only_note})]


class ViewOnlyInline:
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "real_name", "ema_number", "active", "user", "created_at"]
    list_filter = ["active"]
    search_fields = ["display_name", "real_name", "ema_number"]
    autocomplete_fields = ["user"]


class SessionInline(admin.TabularInline):
    model = Session
    extra = 0
    fields = ["number", "date", "title"]
    show_change_link = True


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "kind", "starts_on", "ends_on", "is_public", "rules_preset"]
    list_filter = ["kind", "is_public", "rules_preset"]
    search_fields = ["name", "slug", "description"]
    date_hierarchy = "starts_on"
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]
    readonly_fields = ["rules_preset", "rules_overrides", "created_at"]
    inlines = [SessionInline]
    fieldsets = [
        (
            None,
            {"fields": ["name", "slug", "kind", "starts_on", "ends_on", "description"]},
        ),
        (gettext_lazy("Who may see and change it"), {"fields": ["is_public", "organisers"]}),
        (
            gettext_lazy("Rules"),
            {
                "fields": ["rules_preset", "rules_overrides"],
                "description": gettext_lazy(
                    "Change the rules on the event's Rules page, which re-scores "
                    "every game of the event."
                ),
            },
        ),
        (None, {"fields": ["created_at"]}),
    ]

    def get_readonly_fields(self, request, obj=None):
        # A new event has no games yet, so its preset may be chosen here.
        if obj is None:
            return ["created_at"]
        return self.readonly_fields


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "event", "number", "date", "title"]
    list_filter = ["event", "date"]
    search_fields = ["title", "event__name"]
    list_select_related = ["event"]


class GameSeatInline(ViewOnlyInline, admin.TabularInline):
    model = GameSeat
    fields = [
        "seat",
        "player",
        "entered_score",
        "score",
        "placement",
        "match_points",
        "penalty_points",
    ]
    readonly_fields = fields


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "table_number", "status", "entry_mode", "ended_by", "updated_at"]
    list_filter = ["status", "entry_mode", "session__event"]
    search_fields = ["session__event__name", "seats__player__display_name", "source_id"]
    list_select_related = ["session__event"]
    readonly_fields = [
        "session",
        "status",
        "ended_by",
        "entry_mode",
        "leftover_sticks",
        "source_id",
        "created_at",
        "updated_at",
    ]
    fieldsets = [
        (None, {"fields": ["session", "table_number"]}),
        (
            gettext_lazy("Results"),
            {
                "fields": ["entry_mode", "status", "ended_by", "leftover_sticks"],
                "description": REPLAYED,
            },
        ),
        (None, {"fields": ["source_id", "created_at", "updated_at"]}),
    ]
    inlines = [GameSeatInline]

    def has_add_permission(self, request) -> bool:
        # A game needs its four seats and a first replay: create it from its session page.
        return False

    # Deleting, as on the game's own page: one game at a time, by its event's organisers,
    # and only once it holds no hands, final scores or penalties.
    def has_delete_permission(self, request, obj=None) -> bool:
        if not super().has_delete_permission(request, obj):
            return False
        if obj is None:
            return True
        return obj.session.event.is_organiser(request.user) and not services.game_results(obj)

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def get_deleted_objects(self, objs, request):
        # The seats go with their game; they are not deleted on their own anywhere.
        to_delete, model_count, _, protected = super().get_deleted_objects(objs, request)
        return to_delete, model_count, set(), protected

    def delete_model(self, request, obj) -> None:
        services.delete_game(obj.pk, actor=Actor.of(request.user))


class GameSeatForm(forms.ModelForm):
    class Meta:
        model = GameSeat
        fields = ["player"]

    def clean_player(self):
        # The game is read-only here, so the model's own uniqueness check skips it.
        player = self.cleaned_data["player"]
        others = GameSeat.objects.filter(game=self.instance.game_id).exclude(pk=self.instance.pk)
        if others.filter(player=player).exists():
            raise ValidationError(_("%(player)s already plays at this table.") % {"player": player})
        game = self.instance.game
        if not game.is_finished:
            clashes = services.open_seat_clashes(game.session_id, [player], exclude=game.pk)
            if player.pk in clashes:
                raise ValidationError(
                    say(services.player_clash_message([player], clashes[player.pk]))
                )
        return player


@admin.register(GameSeat)
class GameSeatAdmin(admin.ModelAdmin):
    form = GameSeatForm
    list_display = ["game", "seat", "player", "score", "placement", "match_points"]
    list_filter = ["game__status", "game__session__event"]
    search_fields = ["player__display_name", "game__session__event__name"]
    list_select_related = ["game__session__event", "player"]
    readonly_fields = [
        "game",
        "seat",
        "entered_score",
        "score",
        "placement",
        "match_points",
        "penalty_points",
    ]
    autocomplete_fields = ["player"]
    fieldsets = [
        (
            None,
            {
                "fields": ["game", "seat", "player"],
                "description": gettext_lazy(
                    "Putting another player in this seat keeps the seat's results; "
                    "the game is replayed on save."
                ),
            },
        ),
        (
            gettext_lazy("Results"),
            {
                "fields": ["entered_score", "score", "placement", "match_points", "penalty_points"],
                "description": REPLAYED,
            },
        ),
    ]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def save_model(self, request, obj, form, change):
        # Through the one writer of outcomes: the seat changes and the game is replayed.
        services.put_player_in_seat(obj.game_id, obj.seat, obj.player)


class WinInline(ViewOnlyInline, admin.TabularInline):
    model = Win
    fields = [
        "order",
        "winner",
        "loser",
        "han",
        "fu",
        "yakuman",
        "pao",
        "pao_yakuman",
        "dora",
        "is_open",
    ]
    readonly_fields = fields


@admin.register(Hand)
class HandAdmin(ViewOnlyAdmin):
    view_only_note = gettext_lazy(
        "Hands are shown here but changed only on the game page, so that the game is "
        "replayed from that hand on."
    )
    list_display = ["game", "number", "result", "created_by", "created_at"]
    list_filter = ["result", "game__session__event"]
    search_fields = ["game__session__event__name"]
    list_select_related = ["game__session__event", "created_by"]
    inlines = [WinInline]


@admin.register(Win)
class WinAdmin(ViewOnlyAdmin):
    view_only_note = gettext_lazy(
        "Wins are shown here but changed only with their hand on the game page."
    )
    list_display = ["hand", "winner", "loser", "han", "fu", "yakuman"]
    list_filter = ["hand__result"]
    search_fields = ["hand__game__session__event__name"]
    list_select_related = ["hand__game__session__event"]


@admin.register(Penalty)
class PenaltyAdmin(ViewOnlyAdmin):
    view_only_note = gettext_lazy(
        "Penalties are shown here but given only on the game page, so that match points "
        "are recomputed."
    )
    list_display = ["game", "seat", "match_points", "reason", "created_by", "created_at"]
    list_filter = ["game__session__event"]
    search_fields = ["reason", "game__session__event__name"]
    list_select_related = ["game__session__event", "created_by"]


@admin.register(RosterEntry)
class RosterEntryAdmin(admin.ModelAdmin):
    list_display = ["player", "event", "withdrawn_from", "is_substitute", "created_at"]
    list_filter = ["event", "is_substitute"]
    search_fields = ["player__display_name", "event__name"]
    autocomplete_fields = ["player", "event"]


@admin.register(Registration)
class RegistrationAdmin(ViewOnlyAdmin):
    # Answers lock the event and move the waiting list up: they are given on its page.
    view_only_note = gettext_lazy(
        "Registrations are answered on the event's Registrations page, which keeps the "
        "places and the waiting list in order."
    )
    list_display = ["player", "event", "status", "asked_at", "answered_at"]
    list_filter = ["status", "event"]
    search_fields = ["player__display_name", "event__name"]
    list_select_related = ["player", "event"]
