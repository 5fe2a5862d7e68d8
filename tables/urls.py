"""Dealer tablet pages (mounted under /tablet/)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from tables import views

app_name = "tablet"

urlpatterns = [
    path("", views.tablet_home, name="home"),
    path("login/", views.TabletLoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(next_page="tablet:login"), name="logout"),
    path("tables/<int:table_id>/", views.table_screen, name="table"),
    path("tables/<int:table_id>/state/", views.table_state, name="state"),
    path("tables/<int:table_id>/rules/", views.table_rules, name="rules"),
    path("tables/<int:table_id>/do/<slug:action>/", views.table_action, name="action"),
]
