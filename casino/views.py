"""The landing page (where each role goes next), the admin's door for people who are not floor staff, and the
site's icon at the address browsers ask for."""

from typing import Any

from django.contrib import admin
from django.contrib.auth import login as auth_login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from casino.start_page import destinations


@login_required
def home(request: HttpRequest) -> HttpResponse:
    groups = set(request.user.groups.values_list("name", flat=True))
    if groups == {"dealer"} and not request.user.is_staff:
        # A dealer signs in to run a table; the tablet landing lists the tables assigned to them.
        return redirect("tablet:home")
    return render(request, "home.html", {"destinations": destinations(request.user), "roles": sorted(groups)})


def _staff_only(request: HttpRequest, user: Any) -> HttpResponse:
    is_dealer = user.groups.filter(name="dealer").exists()
    return render(request, "admin/staff_only.html", {"signed_in_as": user, "is_dealer": is_dealer}, status=403)


@never_cache
def admin_login(request: HttpRequest) -> HttpResponse:
    """/admin/login/: Django's admin sign-in, except that someone who is not staff is told where they work.

    Django's admin answers a dealer's correct password with "enter the correct username and password for a
    staff account", as if the password were wrong. A dealer signed in already, or signing in here with the
    right password, gets a page that says the admin is for floor staff and links to the tablet.
    """
    if request.user.is_authenticated and not request.user.is_staff:
        return _staff_only(request, request.user)
    response = admin.site.login(request)
    context: dict[str, Any] = getattr(response, "context_data", None) or {}
    form = context.get("form")
    user: AbstractBaseUser | None = form.get_user() if form is not None and form.is_bound else None
    if user is not None and user.is_active and not getattr(user, "is_staff", False):
        # The admin's form authenticated them (right password) and then refused them for not being staff.
        auth_login(request, user)  # type: ignore[arg-type]  # the admin form authenticates a User
        return _staff_only(request, user)
    return response


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico: browsers ask for it on pages that name no icon (the API docs); the site's icon, not a 404 in
    the console and a warning in the log on every such page. A temporary redirect (302): the icon's hashed static name
    changes with the file, and a permanent one would stay cached."""
    return redirect(static("casino/favicon.svg"))
