"""The live floor view: every table as a tile, polled by htmx every few seconds (204 while nothing changed), where
the floor answers a dealer's call; and the pits page where tables are put in pits."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from casino.errors import DomainError
from casino.users import request_user
from floor.access import require_floor_view
from floor.selectors.floor_view import floor_view
from floor.services.pits import table_set_pit
from floor.views.common import floor_page, nav_context
from tables.models import Table
from tables.services.floor_calls import floor_call_answer

POLL_SECONDS = 3


@floor_page(require_floor_view)
@require_GET
@never_cache
def floor_home(request: HttpRequest) -> HttpResponse:
    return render(
        request, "floor/floor.html", {"view": floor_view(), "poll": POLL_SECONDS, **nav_context(request.user)}
    )


@floor_page(require_floor_view)
@require_GET
@never_cache
def floor_tiles(request: HttpRequest) -> HttpResponse:
    """The tiles fragment; 204 (htmx leaves the page alone) while what they show has not changed."""
    view = floor_view()
    if request.GET.get("v") == view.token:
        return HttpResponse(status=204)
    return render(request, "floor/_tiles.html", {"view": view, "poll": POLL_SECONDS})


@floor_page(require_floor_view)
@require_POST
def answer_call(request: HttpRequest, call_id: int) -> HttpResponse:
    """The floor answers a dealer's call from its alert ("On my way", an optional note); back to the live view, where
    the alert is gone, or where a refusal (answered already, a note too long) says why."""
    try:
        call = floor_call_answer(call=call_id, actor=request_user(request), note=request.POST.get("note", ""))
    except DomainError as exc:
        messages.error(request, f"Not answered: {exc.message}.")
    else:
        messages.success(request, f"Answered the call at {call.table.name}: the tablet shows you are on your way.")
    return redirect("floor:home")


@floor_page(require_floor_view)
@require_http_methods(["GET", "POST"])
def pits(request: HttpRequest) -> HttpResponse:
    errors: dict[int, str] = {}
    if request.method == "POST":
        table_id = request.POST.get("table_id", "")
        table = Table.objects.filter(pk=int(table_id)).first() if table_id.isdigit() and len(table_id) < 19 else None
        if table is None:
            messages.error(request, "Choose a table.")
            return redirect("floor:pits")
        try:
            table_set_pit(table=table, pit=request.POST.get("pit", ""), actor=request_user(request))
        except DomainError as exc:
            errors[table.pk] = exc.message
        else:
            messages.success(request, f"{table.name} is now in {table.pit or 'no pit'}.")
            return redirect("floor:pits")
    tables = Table.objects.order_by("pit", "name")
    return render(
        request,
        "floor/pits.html",
        {"tables": tables, "errors": errors, **nav_context(request.user)},
        status=400 if errors else 200,
    )
