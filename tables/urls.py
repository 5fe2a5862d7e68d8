"""Dealer tablet pages (mounted under /tablet/)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from tables.views import common, home, triple_draw

app_name = "tablet"

urlpatterns = [
    path("", common.tablet_home, name="home"),
    path("login/", common.TabletLoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(next_page="tablet:login"), name="logout"),
    # A home-game table gets its own screen (tables/views/home.py); every other table the Triple Draw screen.
    path("tables/<int:table_id>/", home.table_screen, name="table"),
    path("tables/<int:table_id>/state/", triple_draw.table_state, name="state"),
    path("tables/<int:table_id>/rules/", triple_draw.table_rules, name="rules"),
    path("tables/<int:table_id>/do/<slug:action>/", triple_draw.table_action, name="action"),
    path("tables/<int:table_id>/home/state/", home.home_state, name="home-state"),
    path("tables/<int:table_id>/home/rules/", home.home_rules, name="home-rules"),
    path("tables/<int:table_id>/home/do/<slug:action>/", home.home_action, name="home-action"),
]
