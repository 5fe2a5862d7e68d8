"""seed_demo creates the demo logins idempotently and refuses to run with DEBUG off unless forced."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client, override_settings

from tables.models import HomeGame, HomeHand, Round, Table
from tables.services.home_games import game_close


def seed(*args: str) -> str:
    out = StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
@override_settings(DEBUG=True)
def test_it_creates_one_login_per_role_and_prints_them() -> None:
    output = seed()
    for username in ("admin", "floor", "dealer", "compliance"):
        assert User.objects.get(username=username).check_password(f"{username}-demo-pw")
        assert f"{username}-demo-pw" in output
    assert User.objects.get(username="admin").is_superuser
    assert list(User.objects.get(username="dealer").groups.values_list("name", flat=True)) == ["dealer"]
    assert "http://127.0.0.1:8000/admin/" in output


@pytest.mark.django_db
@override_settings(DEBUG=True)
def test_running_it_twice_changes_nothing() -> None:
    seed()
    users_before = list(User.objects.order_by("username").values_list("username", "password", "is_superuser"))
    seed()
    assert list(User.objects.order_by("username").values_list("username", "password", "is_superuser")) == users_before


@pytest.mark.django_db
@override_settings(DEBUG=False)
def test_it_refuses_with_debug_off() -> None:
    with pytest.raises(CommandError, match="DEBUG is off"):
        seed()
    assert not User.objects.exists()


@pytest.mark.django_db
@override_settings(DEBUG=False)
def test_force_seeds_even_with_debug_off() -> None:
    seed("--force")
    assert User.objects.filter(username="floor").exists()


@pytest.mark.django_db
@override_settings(DEBUG=True)
def test_the_banner_names_every_screen_and_each_one_answers(client: Client) -> None:
    output = seed("--host", "http://casino.test:8123")
    # The screens' addresses; the shoes' curl lines post to the API (tests/tables/test_shoe_demo.py pastes them).
    screens = "\n".join(line for line in output.splitlines() if not line.strip().startswith("curl "))
    paths = re.findall(r"http://casino\.test:8123(/\S*)", screens)
    assert "curl -s -X POST http://casino.test:8123/api/v1/shoe/cards/" in output
    for path in ("/tablet/", "/admin/", "/compliance/", "/api/docs/", "/api/redoc/", "/api/schema/", "/healthz"):
        assert path in paths
    for path in paths:
        assert client.get(path, follow=True).status_code == 200, path  # a sign-in page for the screens behind one
    assert "Times are shown in UTC" in output


@pytest.mark.django_db
@override_settings(DEBUG=False)
def test_force_never_resets_an_existing_users_password() -> None:
    User.objects.create_superuser(username="admin", password="a-private-password")
    output = seed("--force")
    admin = User.objects.get(username="admin")
    assert admin.check_password("a-private-password")
    assert not admin.check_password("admin-demo-pw")
    assert "admin exists already: left unchanged" in output
    # Missing logins are still created with their demo passwords.
    assert User.objects.get(username="dealer").check_password("dealer-demo-pw")


@pytest.mark.django_db
@override_settings(DEBUG=False)
def test_force_never_makes_a_demoted_admin_a_superuser_again() -> None:
    # The operator took the admin's superuser rights away; seeding needs them (it approves paytables), so it
    # stops with a clear message and changes nothing rather than restoring them.
    User.objects.create_user(username="admin", password="a-private-password", is_staff=True)
    with pytest.raises(CommandError, match="existing logins"):
        seed("--force")
    admin = User.objects.get(username="admin")
    assert (admin.is_superuser, admin.check_password("a-private-password")) == (False, True)
    assert not admin.check_password("admin-demo-pw")


@pytest.mark.django_db
@override_settings(DEBUG=True)
def test_an_existing_users_groups_are_kept() -> None:
    User.objects.create_user(username="compliance", password="own-pw")
    seed()
    compliance = User.objects.get(username="compliance")
    assert not compliance.groups.exists()
    assert compliance.check_password("own-pw")


@pytest.mark.django_db
@override_settings(DEBUG=True)
def test_the_banner_prints_the_port_it_was_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    # `manage.py seed_demo` for a server on another port printed :8000 in every address and each shoe's curl.
    output = seed("--port", "8713")
    assert "http://127.0.0.1:8713/admin/" in output
    assert "http://127.0.0.1:8713/api/v1/shoe/cards/" in output
    assert ":8000" not in output
    monkeypatch.setenv("PORT", "8714")  # as honcho sets it for the Procfile (make run with REDIS_URL)
    output = seed()
    assert "http://127.0.0.1:8714/tablet/" in output
    assert ":8000" not in output
    assert "http://casino.test:9000/floor/" in seed("--host", "http://casino.test:8123/", "--port", "9000")
    assert "http://casino.test:8123/floor/" in seed("--host", "http://casino.test:8123/")
    monkeypatch.setenv("PORT", "eighty")
    with pytest.raises(CommandError, match="PORT must be a port number"):
        seed()


@pytest.mark.django_db
@override_settings(DEBUG=True)
def test_a_demo_game_the_floor_closed_stays_closed_and_a_second_run_adds_nothing() -> None:
    seed()
    floor = User.objects.get(username="floor")
    game = HomeGame.objects.get(table__demo_key="pregnant-threes-1", status=HomeGame.Status.OPEN)
    game_close(game=game, actor=floor, reason="the demo players went home")
    games = list(HomeGame.objects.order_by("pk").values_list("pk", "status"))
    counts = (HomeHand.objects.count(), Round.objects.count(), Table.objects.count())
    seed()
    assert list(HomeGame.objects.order_by("pk").values_list("pk", "status")) == games
    assert (HomeHand.objects.count(), Round.objects.count(), Table.objects.count()) == counts
    assert not HomeGame.objects.filter(table__demo_key="pregnant-threes-1", status=HomeGame.Status.OPEN).exists()
