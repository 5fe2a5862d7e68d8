"""Root URL configuration: admin, sign-in, health, API and each app's screens."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, JsonResponse
from django.urls import include, path, re_path
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from casino import health, views
from casino.api_docs import same_origin_only
from casino.api_errors import error_body


# Exempt: an unknown /api/ path answers 404 in JSON for every method, not Django's HTML CSRF page first.
@csrf_exempt
def api_not_found(request: HttpRequest, rest: str = "") -> JsonResponse:
    return JsonResponse(error_body("not_found", f"No API endpoint at {request.path}"), status=404)


handler500 = "casino.api_failures.server_error"

urlpatterns = [
    path("", views.home, name="home"),
    # Load balancers and people type it both ways.
    re_path(r"^healthz/?$", health.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    # Before the admin's own: someone who is not floor staff is told where they work, not "wrong password".
    path("admin/login/", views.admin_login, name="admin-login"),
    path("admin/", admin.site.urls),
    path("compliance/home/", include("tables.compliance_urls")),
    path("compliance/", include("audit.urls")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", same_origin_only(SpectacularSwaggerView.as_view(url_name="api-schema")), name="api-docs"),
    path("api/redoc/", same_origin_only(SpectacularRedocView.as_view(url_name="api-schema")), name="api-redoc"),
    path("api/v1/", include("casino.api_urls")),
    path("tablet/", include("tables.urls")),
    path("floor/", include("floor.urls")),
    # [\s\S]: an encoded newline in a bad path must still get the JSON 404, not the HTML page.
    re_path(r"^api/(?P<rest>[\s\S]*)$", api_not_found),
]
