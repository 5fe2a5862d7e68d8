"""Root URL configuration: admin, sign-in, health, API and each app's screens."""

from csp.decorators import csp_exempt
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, JsonResponse
from django.urls import include, path, re_path
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from casino import health, views
from casino.api_errors import error_body


# Exempt: an unknown /api/ path answers 404 in JSON for every method, not Django's HTML CSRF page first.
@csrf_exempt
def api_not_found(request: HttpRequest, rest: str = "") -> JsonResponse:
    return JsonResponse(error_body("not_found", f"No API endpoint at {request.path}"), status=404)


handler500 = "casino.api_failures.server_error"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("compliance/", include("audit.urls")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # Swagger UI still loads its scripts from a CDN (serving it from the app is issue 18's): no CSP on it yet.
    path("api/docs/", csp_exempt()(SpectacularSwaggerView.as_view(url_name="api-schema")), name="api-docs"),
    path("api/v1/", include("casino.api_urls")),
    path("tablet/", include("tables.urls")),
    # [\s\S]: an encoded newline in a bad path must still get the JSON 404, not the HTML page.
    re_path(r"^api/(?P<rest>[\s\S]*)$", api_not_found),
]
