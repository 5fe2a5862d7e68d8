"""A refusal about a round, a home game or a home hand names the id an API client holds (and puts in the path),
beside the number the table calls it by: "round 1 (id 46)". It said "round 1" only, which the client could not tell
from round id 1."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from tables.models import Round, Table
from tests.tables.helpers import start

pytestmark = pytest.mark.django_db


def _error(response: object) -> dict[str, str]:
    body = response.json()  # type: ignore[attr-defined]
    return dict(body["error"])


def test_wrong_phase_and_round_in_play_name_the_rounds_id(
    manual_table: Table, rng_table: Table, dealer_api: APIClient, floor_api: APIClient
) -> None:
    start(dealer_api, rng_table.pk)  # the other table's round takes the first id
    round_id = start(dealer_api, manual_table.pk)
    rnd = Round.objects.get(pk=round_id)
    assert rnd.number == 1
    assert rnd.pk != 1  # number and id differ
    ref = f"round 1 (id {rnd.pk})"

    refused = dealer_api.post(f"/api/v1/rounds/{round_id}/rows/", {}, format="json")
    assert refused.status_code == 409
    assert _error(refused) == {
        "code": "wrong_phase", "message": f"cannot record rows: {ref} is betting, not drawing"}

    # Starting another round while one is unfinished: the client learns which round to finish, by id.
    again = dealer_api.post(f"/api/v1/tables/{manual_table.pk}/rounds/")
    assert again.status_code == 409
    assert _error(again) == {"code": "round_in_play", "message": f"{ref} is still betting"}

    closing = floor_api.post(f"/api/v1/tables/{manual_table.pk}/close/")
    assert closing.status_code == 409
    assert f"{ref} is still betting" in _error(closing)["message"]

    floor_api.post(f"/api/v1/rounds/{round_id}/void/", {"reason": "test"}, format="json")
    voided = floor_api.post(f"/api/v1/rounds/{round_id}/void/", {"reason": "again"}, format="json")
    assert voided.status_code == 409
    assert _error(voided)["message"] == f"{ref} is already voided"


def test_home_refusals_name_the_hands_and_games_id(
    home_table: Callable[..., Table], dealer_api: APIClient, floor_api: APIClient
) -> None:
    """The same for home games: the API's paths hold a hand's or a game's id, the table calls them by number."""
    body = {"players": [{"seat": s, "name": f"P{s}", "buy_in_cents": 10_000} for s in (1, 2)]}
    other = dealer_api.post(f"/api/v1/tables/{home_table('five-card-draw').pk}/games/", body, format="json").json()
    dealer_api.post(f"/api/v1/games/{other['id']}/hands/", {}, format="json")  # takes the first hand id
    table = home_table("five-card-draw")
    game = dealer_api.post(f"/api/v1/tables/{table.pk}/games/", body, format="json").json()
    hand = dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {}, format="json").json()
    assert (game["number"], hand["number"]) == (1, 1)
    assert game["id"] != 1
    assert hand["id"] != 1
    hand_ref, game_ref = f"hand 1 (id {hand['id']})", f"game 1 (id {game['id']})"

    again = dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {}, format="json")
    assert again.status_code == 409
    assert _error(again) == {"code": "hand_in_play", "message": f"{hand_ref} is still in play"}
    closing = floor_api.post(f"/api/v1/games/{game['id']}/close/", {}, format="json")
    assert closing.status_code == 409
    assert _error(closing)["message"] == f"{hand_ref} is in play: finish or void it first"
    opening = dealer_api.post(f"/api/v1/tables/{table.pk}/games/", body, format="json")
    assert opening.status_code == 409
    assert _error(opening)["message"] == f"{game_ref} is still open on {table.name}"

    floor_api.post(f"/api/v1/hands/{hand['id']}/void/", {"reason": "misdeal"}, format="json")
    late = dealer_api.post(f"/api/v1/hands/{hand['id']}/actions/", {"seat": 1, "action": "check"}, format="json")
    assert late.status_code == 409
    assert _error(late) == {"code": "hand_over", "message": f"{hand_ref} is voided"}
    ruling = floor_api.post(f"/api/v1/hands/{hand['id']}/void/", {"reason": "again"}, format="json")
    assert ruling.status_code == 409
    assert _error(ruling)["message"] == f"{hand_ref} is voided: a ruling applies to the hand in play"
    floor_api.post(f"/api/v1/games/{game['id']}/close/", {"reason": "end of the session"}, format="json")
    closed = dealer_api.post(f"/api/v1/games/{game['id']}/hands/", {}, format="json")
    assert closed.status_code == 409
    assert _error(closed) == {"code": "game_over", "message": f"{game_ref} is closed"}


@pytest.mark.parametrize("missing", [99_999, 2**70])
def test_an_unknown_home_game_or_hand_is_one_404_naming_the_id(floor_api: APIClient, missing: int) -> None:
    """Reads and rulings answered Django's bare "Not found.", actions and cards the service's "hand 99999 does
    not exist": one shape now, whichever endpoint the client called."""
    games = [("get", f"games/{missing}/", None), ("get", f"games/{missing}/export/", None),
             ("get", f"games/{missing}/replay/", None), ("get", f"games/{missing}/hands/", None),
             ("post", f"games/{missing}/hands/", {}), ("post", f"games/{missing}/close/", {"reason": "r"}),
             ("post", f"games/{missing}/players/", {"seat": 1, "buy_in_cents": 1_000}),
             ("post", f"games/{missing}/players/1/chips/", {"amount_cents": 500}),
             ("post", f"games/{missing}/players/1/leave/", {}), ("post", f"games/{missing}/floor-call/", {})]
    hands = [("get", f"hands/{missing}/", None), ("post", f"hands/{missing}/void/", {"reason": "r"}),
             ("post", f"hands/{missing}/actions/", {"seat": 1, "action": "check"}),
             ("post", f"hands/{missing}/cards/", {"seat": 1, "cards": ["2c", "3c", "4c", "5c", "7d"]}),
             ("post", f"hands/{missing}/muck/", {"seat": 1}),
             ("post", f"hands/{missing}/award/", {"seats": [1], "reason": "r"}),
             ("post", f"hands/{missing}/correct/", {"index": 0, "action": "", "reason": "r"}),
             ("post", f"hands/{missing}/correct-card/", {"card": "2c", "replacement": "3c", "reason": "r"})]
    for kind, calls in (("game", games), ("hand", hands)):
        for method, path, body in calls:
            answer = getattr(floor_api, method)(f"/api/v1/{path}", body, format="json")
            assert answer.status_code == 404, (path, answer.content)
            assert _error(answer) == {"code": f"{kind}_not_found", "message": f"{kind} {missing} does not exist"}, path


@pytest.mark.parametrize("missing", [99_999, 2**70])
def test_an_unknown_round_or_table_read_is_named_as_a_write_to_it_is(floor_api: APIClient, missing: int) -> None:
    # Seen by fix-api6: GET rounds/{id}/, its export and replay, and GET tables/{id}/ answered Django's bare
    # "Not found." where a write to the same id said "round 99999 does not exist".
    for kind, path in (("round", f"rounds/{missing}/"), ("round", f"rounds/{missing}/export/"),
                       ("round", f"rounds/{missing}/replay/"), ("round", f"rounds/{missing}/settle/"),
                       ("table", f"tables/{missing}/")):
        answer = (floor_api.post(f"/api/v1/{path}", {}, format="json") if path.endswith("settle/")
                  else floor_api.get(f"/api/v1/{path}"))
        assert answer.status_code == 404, (path, answer.content)
        assert _error(answer) == {"code": "not_found", "message": f"{kind} {missing} does not exist"}, path
