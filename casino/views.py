"""The landing page: where each role goes next (dealers straight to their tablet)."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render


@login_required
def home(request: HttpRequest) -> HttpResponse:
    groups = set(request.user.groups.values_list("name", flat=True))
    if groups == {"dealer"} and not request.user.is_staff:
        # A dealer signs in to run a table; the tablet landing lists the tables assigned to them.
        return redirect("tablet:home")
    return render(request, "home.html", {"groups": groups})
