"""Compliance pages of home games (under /compliance/home/): a hand's or a game's audit timeline with the replay
verdict, the way compliance sees a Triple Draw round's (read-only, the compliance role)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.text import slugify

from audit.chain_status import chain_status
from audit.views import compliance_view
from casino.engine.home.action_words import action_words
from tables.models import HomeGame, HomeGamePlayer, HomeHand
from tables.selectors.home import game_view, hand_view
from tables.selectors.home_ledger import ledger_rows
from tables.selectors.home_records import game_record, game_replay, hand_verdict, hands_in_record
from tables.selectors.home_timeline import finding, game_events, hand_events


@compliance_view
def hand_timeline(request: HttpRequest, hand_id: int) -> HttpResponse:
    hand = get_object_or_404(HomeHand.objects.select_related("game__table"), pk=hand_id)
    verdict, error = finding(lambda: hand_verdict(hand))
    summary, summary_error = finding(lambda: hand_view(hand, hand.game))
    labels = {p["seat"]: f"Seat {p['seat']} · {p['name']}" if p["name"] else f"Seat {p['seat']}"
              for p in (summary or {}).get("players", [])}
    first_record = (hand.original_record or {}).get("actions", [])
    return render(request, "tables/compliance/home_timeline.html", {
        "title": f"Timeline of {hand}", "subject": str(hand), "game": hand.game, "hand": hand,
        "hand_summary": summary, "summary_error": summary_error, "game_summary": game_view(hand.game),
        # In words as every other screen shows them; the page also gives the record's notation for compliance.
        "action_lines": [action_words(text, labels) for text in (summary or {}).get("actions", [])],
        "first_action_lines": [action_words(text, labels) for text in first_record],
        "events": hand_events(hand), "ledger": ledger_rows(hand.game, hand),
        "verdict": verdict, "verdict_error": error, "chain": chain_status(),
    })


@compliance_view
def game_timeline(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(HomeGame.objects.select_related("table"), pk=game_id)
    verdict, error = finding(lambda: game_replay(game))
    return render(request, "tables/compliance/home_timeline.html", {
        "title": f"Timeline of {game}", "subject": str(game), "game": game, "game_summary": game_view(game),
        "hands": hands_in_record(game), "ledger": ledger_rows(game),
        "events": game_events(game), "verdict": verdict, "verdict_error": error, "chain": chain_status(),
    })


@compliance_view
def game_record_download(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game's DESIGN 9 record as a file (what `replay_game` reads; the API's GET /games/{id}/export/), named
    after its table and number: "freak-of-nature-1-game-1-record.json"."""
    game = get_object_or_404(HomeGame.objects.select_related("table"), pk=game_id)
    response = JsonResponse(game_record(game), json_dumps_params={"indent": 2, "ensure_ascii": False})
    name = f"{slugify(game.table.name) or 'table'}-game-{game.number}-record.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@compliance_view
def player_in_game(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's events (a join, chips, a leave) link here: their row on their game's page, where each person at a
    seat taken again has their own."""
    player = get_object_or_404(HomeGamePlayer, pk=player_id)
    return HttpResponseRedirect(reverse("home-compliance:game", args=[player.game_id]) + f"#player-{player.pk}")
