"""What every tablet page shares: dealer sign-in, the login guard, the list of tables and the table access check."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode, urlsplit

from django.contrib.auth import views as auth_views
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from audit.roles import COMPLIANCE, DEALER, FLOOR, has_role, role_label
from casino.engine.variants import HOME_VARIANTS
from tables.models import HomeGame, HomeHand, Table, TableType
from tables.selectors.rounds import round_shown
from tables.selectors.tables import tables_for

# A refusal names a round, game or hand by its number at the table and its id ("round 34 (id 46)"), the id being
# what an API client holds; on the tablet the dealer calls it by its number alone.
_ID_AFTER_NUMBER = re.compile(r"\b(round|game|hand) (\d+) \(id \d+\)")


def dealer_words(message: str) -> str:
    """A refusal as the dealer reads it: "round 34 is dealing", without the id an API client needs."""
    return _ID_AFTER_NUMBER.sub(r"\1 \2", message)


def tablet_login_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Signed-out visitors go to the dealer sign-in; an htmx poll or tap is told to load it as a whole page
    (HX-Redirect) instead of following a redirect and pasting the sign-in form into the round section."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        if request.headers.get("HX-Request") == "true":
            page = urlsplit(request.headers.get("HX-Current-URL", "")).path or reverse("tablet:home")
            response = HttpResponse(status=401)
            response["HX-Redirect"] = f"{reverse('tablet:login')}?{urlencode({'next': page})}"
            return response
        return redirect_to_login(request.get_full_path(), reverse("tablet:login"))

    return wrapper


class TabletLoginView(auth_views.LoginView):
    """The dealers' sign-in: big fields, then straight to their tables."""

    template_name = "tables/tablet/login.html"
    redirect_authenticated_user = True

    def get_default_redirect_url(self) -> str:
        return reverse("tablet:home")


@tablet_login_required
@require_GET
@never_cache
def tablet_home(request: HttpRequest) -> HttpResponse:
    _require_tablet_role(request)
    tables = list(tables_for(request.user).select_related("paytable"))
    return render(request, "tables/tablet/home.html", {"tables": [(table, _in_play(table)) for table in tables]})


def _in_play(table: Table) -> str:
    """What the table list says is going on: a Triple Draw round and its phase, a home game and its hand."""
    if table.table_type == TableType.TRIPLE_DRAW:
        rnd = round_shown(table)
        return f"round {rnd.number}: {rnd.get_phase_display().lower()}" if rnd is not None else ""
    game = HomeGame.objects.filter(table=table, status=HomeGame.Status.OPEN).order_by("-number").first()
    if game is None:
        return "no game open"
    hand = HomeHand.objects.filter(game=game, status=HomeHand.Status.IN_PLAY).order_by("-number").first()
    if hand is None:
        return f"game {game.number}, between hands"
    return f"game {game.number}, hand {hand.number}: {hand.phase.replace('_', ' ')}"


def _require_tablet_role(request: HttpRequest) -> None:
    """The tablet is the dealers' (and the floor's and compliance's, who watch it): another role (the count team)
    hears so, not "no tables are assigned to you. A floor supervisor assigns dealers to tables"."""
    if not has_role(request.user, DEALER, FLOOR, COMPLIANCE):
        raise PermissionDenied(f"The dealer tablet is for dealers, floor supervisors and compliance; your role "
                               f"({role_label(request.user)}) has no tables here.")


def table_for_user(request: HttpRequest, table_id: int) -> Table | HttpResponse:
    """The table if this user may open it; a plain 403 page if it is not theirs (never a hint of its state)."""
    _require_tablet_role(request)
    try:
        table = Table.objects.select_related("paytable").get(pk=table_id)
    except Table.DoesNotExist:
        raise Http404("No such table") from None
    if not tables_for(request.user).filter(pk=table.pk).exists():
        return render(request, "tables/tablet/forbidden.html", {"table": table}, status=403)
    return table


def table_for_screen(request: HttpRequest, table_id: int, *, home: bool,
                     other_page: str = "tablet:table") -> Table | HttpResponse:
    """`table_for_user`, for a page or tap of one game's screen (`home`: the home-game screen's, else Triple
    Draw's). A table of the other game (a stale tab, an address typed or bookmarked) is sent to its own game's
    `other_page` (the same page where that game has one: the rules), never shown the other game's screen; a tap
    changes nothing. htmx follows the redirect as a whole page (HX-Redirect), not as a section swapped in."""
    table = table_for_user(request, table_id)
    if isinstance(table, HttpResponse) or (table.table_type in HOME_VARIANTS) == home:
        return table
    if request.method != "GET" and not has_role(request.user, FLOOR, DEALER):
        # A tap from a read-only role is refused (403), as on its own game's screen, not sent on as a page is.
        raise PermissionDenied("Read only: your role can follow this table but not change it.")
    url = reverse(other_page, args=[table.pk])
    if request.headers.get("HX-Request") == "true":
        return HttpResponse(headers={"HX-Redirect": url})
    return HttpResponseRedirect(url)
