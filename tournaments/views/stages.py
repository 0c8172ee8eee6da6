"""An event's stages: the list and the director's form, a stage's standings, the cut to
a stage (a preview of who goes through, then a confirmation), hiding a stage's totals, and
the final placement as a file."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import access, exports, services, versions
from ..forms.stages import CutNamesForm, StageForm
from ..models import Event, Player, Stage
from ..reading.placement import final_placement
from ..reading.stages import all_stage_standings, cut_preview
from ..tables import PlacementTable, placement_records
from ..wording.refusals import say

EXPORT_FORMATS = ("csv", "xlsx")


def _stage(event: Event, number: int) -> Stage:
    stage = Stage.objects.filter(event=event, number=number).first()
    if stage is None:
        raise Http404(_("This event has no such stage."))
    stage.event = event
    return stage


def stage_totals_hidden(event: Event) -> bool:
    """Whether a stage of the event hides its totals (from everyone but the organisers)."""
    return event.totals_hidden


def totals_hidden(request: HttpRequest, event: Event) -> bool:
    """Whether this visitor may not see the event's totals: a stage hides them and the
    visitor does not organise the event."""
    return event.totals_hidden and not access.organises(request, event.pk)


@access.readable_event
def stage_list(request: HttpRequest, event: Event) -> HttpResponse:
    stages = list(Stage.objects.filter(event=event).order_by("number"))
    context = {
        "event": event,
        "stages": stages,
        "is_organiser": access.organises(request, event.pk),
        "sessions": event.sessions.count(),
    }
    return render(request, "tournaments/stages.html", context)


@access.organiser_event
def stage_create(request: HttpRequest, event: Event) -> HttpResponse:
    last = Stage.objects.filter(event=event).order_by("-number").first()
    start = (last.last_session + 1) if last else 1
    initial = {
        "first_session": start,
        "last_session": start,
        "entrants": Stage.Entrants.TOP if last else Stage.Entrants.EVERYONE,
        "carry": Stage.Carry.NONE,
        "carry_rounding": Stage.Rounding.HALF_UP,
    }
    form = StageForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            stage = services.add_stage(event.pk, form.plan())
        except services.StageRefused as err:
            form.add_error(None, str(err))
        else:
            messages.success(request, _("Stage %(number)s added.") % {"number": stage.number})
            return redirect("tournaments:stages", event.slug)
    return render(
        request, "tournaments/stage_form.html", {"event": event, "form": form, "stage": None}
    )


@access.organiser_event
def stage_edit(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    stage = _stage(event, number)
    form = StageForm(request.POST or None, initial=StageForm.initial_of(stage))
    if request.method == "POST" and form.is_valid():
        try:
            services.change_stage(stage.pk, form.plan())
        except services.StageRefused as err:
            form.add_error(None, str(err))
        else:
            messages.success(request, _("Stage %(number)s saved.") % {"number": stage.number})
            return redirect("tournaments:stage", event.slug, stage.number)
    return render(
        request, "tournaments/stage_form.html", {"event": event, "form": form, "stage": stage}
    )


@require_POST
@access.organiser_event
def stage_remove(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    stage = _stage(event, number)
    try:
        services.remove_stage(stage.pk)
    except services.StageRefused as err:
        messages.error(request, str(err))
        return redirect("tournaments:stage", event.slug, number)
    messages.success(request, _("Stage %(number)s removed.") % {"number": number})
    return redirect("tournaments:stages", event.slug)


@require_POST
@access.organiser_event
def stage_hide(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    stage = _stage(event, number)
    hidden = request.POST.get("hidden") == "1"
    services.hide_stage_totals(stage.pk, hidden)
    messages.success(
        request,
        _("Players no longer see this stage's totals.")
        if hidden
        else _("Players see this stage's totals again."),
    )
    return redirect("tournaments:stage", event.slug, number)


@access.readable_event
def stage_detail(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    stage = _stage(event, number)
    hidden = totals_hidden(request, event)
    standings = all_stage_standings(event)[number - 1]
    context = {
        "event": event,
        "stage": stage,
        "standings": standings,
        "sessions": list(stage.sessions().order_by("number")),
        "hidden": hidden,
        "is_organiser": access.organises(request, event.pk),
    }
    return render(request, "tournaments/stage_detail.html", context)


@access.organiser_event
def stage_cut(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """GET: who a cut would let through, seed 1 first, with their carried points; POST
    with `confirm`: fix them as the stage's entrants."""
    stage = _stage(event, number)
    standings = all_stage_standings(event)
    previous = standings[number - 2] if number > 1 else None
    named_form = None
    named: list[int] | None = None
    refusal = None
    if stage.entrants in (Stage.Entrants.SEEDS, Stage.Entrants.LIST):
        named_form = CutNamesForm(request.POST or request.GET or None)
        if named_form.is_bound and named_form.is_valid():
            names = named_form.cleaned_data["names"]
            found = dict(
                Player.objects.filter(display_name__in=names).values_list("display_name", "pk")
            )
            unknown = [n for n in names if n not in found]
            if unknown:
                refusal = _("No player is called %(name)s.") % {"name": unknown[0]}
            elif len(set(names)) != len(names):
                refusal = _("A player is named twice.")
            else:
                named = [found[n] for n in names]
    preview = None
    earlier = event.stages.filter(number=number - 1).first()
    if earlier is not None:
        try:
            services.refuse_cut_before_the_end(earlier)
        except services.StageRefused as err:
            refusal = say(err)
    if refusal is None and (named_form is None or named is not None):
        preview = cut_preview(stage, previous, named)
        if preview.refusal is not None:
            refusal = say(preview.refusal)
        elif not preview.rows:
            refusal = _("Nobody would go through: the previous stage has no standings yet.")
    if request.method == "POST" and "confirm" in request.POST and refusal is None and preview:
        try:
            services.cut_to_stage(stage.pk, [row.player_id for row in preview.rows])
        except services.StageRefused as err:
            refusal = say(err)
        else:
            messages.success(
                request,
                _("%(count)s players go through to %(stage)s.")
                % {"count": len(preview.rows), "stage": stage.name},
            )
            return redirect("tournaments:stage", event.slug, number)
    context = {
        "event": event,
        "stage": stage,
        "previous": previous,
        "rows": preview.rows if preview and refusal is None else [],
        "teams": preview.teams if preview and refusal is None else [],
        "refusal": refusal,
        "named_form": named_form,
        "already_cut": stage.cut_at is not None,
    }
    return render(request, "tournaments/stage_cut.html", context)


@access.readable_event
def placement_export(request: HttpRequest, event: Event) -> HttpResponse:
    """The final placement as CSV or XLSX (`?_export=csv`)."""
    if totals_hidden(request, event):
        raise Http404(_("The organisers hide the totals for now."))
    export_format = request.GET.get("_export", "csv")
    if export_format not in EXPORT_FORMATS:
        export_format = "csv"
    names = dict(Stage.objects.filter(event=event).values_list("number", "name"))
    table = PlacementTable(placement_records(final_placement(event), names))
    return exports.export_response(
        request,
        event,
        table,
        export_format=export_format,
        name=f"{event.slug}-placement",
        title=_("Final placement"),
    )


def placement_context(request: HttpRequest, event: Event) -> dict:
    """What the standings page shows of the final placement: for an event with stages,
    the placement table; nothing for one without (its standings are its placement)."""
    if not event.stage_count:
        return {"placement": None}

    def build() -> str:
        names = dict(Stage.objects.filter(event=event).values_list("number", "name"))
        rows = placement_records(final_placement(event), names)
        return render_to_string(
            "tournaments/partials/placement_table.html", {"placement": rows}, request
        )

    address = reverse("tournaments:placement_export", args=[event.slug])
    return {
        # The table as drawn, kept under the results version, which every change of a
        # stage replaces.
        "placement": versions.cached("placement", event, versions.RESULTS, build),
        "placement_links": [(f.upper(), f"{address}?_export={f}") for f in EXPORT_FORMATS],
    }
