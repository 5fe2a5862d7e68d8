"""The dealer sign-in control on the tablet's table header: a fragment the tablet loads with htmx, and its two
taps (sign in, sign out), each one service call that re-renders the fragment."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from audit.roles import FLOOR, has_role
from casino.api_errors import http_status
from casino.errors import DomainError
from casino.users import request_user
from floor.access import is_dealer
from floor.models import DealerSession
from floor.services.dealers import dealer_sign_in, dealer_sign_out
from tables.models import Table
from tables.selectors.tables import tables_for
from tables.views.common import tablet_login_required


def _table(request: HttpRequest, table_id: int) -> Table | None:
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise Http404("No such table")
    return table if tables_for(request.user).filter(pk=table.pk).exists() else None


def _panel(request: HttpRequest, table: Table, error: str = "", status: int = 200) -> HttpResponse:
    session = DealerSession.objects.filter(table=table, signed_out_at__isnull=True).select_related("dealer").first()
    mine = session is not None and session.dealer_id == request.user.pk
    # Being logged in to the app is not being signed in at a table (dealer sessions are per table): say which.
    context = {
        "table": table,
        "session": session,
        "mine": mine,
        "viewer": request.user.get_username(),
        "viewer_is_dealer": is_dealer(request.user),
        "can_sign_in": is_dealer(request.user) and not mine,
        "can_sign_out": session is not None and (session.dealer_id == request.user.pk or has_role(request.user, FLOOR)),
        "error": error,
    }
    return render(request, "floor/tablet_dealer_panel.html", context, status=status)


@tablet_login_required
@require_GET
@never_cache
def dealer_panel(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _table(request, table_id)
    if table is None:
        return HttpResponse(status=403)
    return _panel(request, table)


@tablet_login_required
@require_POST
def dealer_panel_action(request: HttpRequest, table_id: int, action: str) -> HttpResponse:
    table = _table(request, table_id)
    if table is None:
        return HttpResponse(status=403)
    service = {"sign-in": dealer_sign_in, "sign-out": dealer_sign_out}.get(action)
    if service is None:
        raise Http404("No such action")
    try:
        service(table=table, actor=request_user(request))
    except DomainError as exc:
        return _panel(request, table, exc.message, status=http_status(exc))
    return _panel(request, table)
