"""The landing page: where each role goes next."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


@login_required
def home(request: HttpRequest) -> HttpResponse:
    groups = set(request.user.groups.values_list("name", flat=True))
    return render(request, "home.html", {"groups": groups})
