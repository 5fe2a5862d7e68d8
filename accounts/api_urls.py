"""API routes of accounts under /api/v1/auth/."""

from django.urls import path

from accounts import apis

urlpatterns = [
    path("auth/token/", apis.TokenObtainApi.as_view(), name="auth-token"),
    path("auth/logout/", apis.TokenLogoutApi.as_view(), name="auth-logout"),
    path("auth/logout-all/", apis.TokenLogoutAllApi.as_view(), name="auth-logout-all"),
]
