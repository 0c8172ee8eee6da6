"""The shape shared by an organiser's one-button changes of a game (finish, reopen, call
time, clear the final scores, revoke its link): the service runs as that organiser, its
refusal or success becomes a message, and the organiser is sent back to the game. The
views say who may make the change (`access.organiser_game`) and hand over the game."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.functional import Promise

from .. import services
from ..models import Game
from ..trail import Actor


def change_game(
    request: HttpRequest,
    game: Game,
    change: Callable[..., object],
    success: str | Promise | Callable[[Game], str],
) -> HttpResponse:
    try:
        change(game.pk, actor=Actor.of(request.user))
    except services.GameChangeRefused as err:
        messages.error(request, str(err))
    else:
        messages.success(request, success(game) if callable(success) else str(success))
    return redirect(game)
