"""Every way a schedule can be wrong is refused with a clear message, and nothing is written."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from casino.errors import DomainError
from paytables.models import Paytable
from paytables.selectors import paytable_as_dict
from paytables.services import paytable_create_draft, paytable_line_set
from tests.paytables.conftest import JACKS_9_6

pytestmark = pytest.mark.django_db

ROYAL = {"hand": "royal_flush", "pays": 800}

# (case, basis, wild_ranks, lines, field, words the message must contain)
BAD_SCHEDULES: list[tuple[str, str, list[str], list[dict[str, Any]], str, list[str]]] = [
    ("unknown hand code", "for_1", [], [ROYAL, {"hand": "big_pair", "pays": 1}], "lines", ["line 2", "big_pair"]),
    (
        "duplicate line",
        "for_1",
        [],
        [ROYAL, {"hand": "flush", "pays": 6}, {"hand": "flush", "pays": 5}],
        "lines",
        ["line 3", "duplicate"],
    ),
    (
        "duplicate qualified line",
        "for_1",
        [],
        [{"hand": "one_pair", "min_rank": "J", "pays": 1}, {"hand": "one_pair", "min_rank": "J", "pays": 2}],
        "lines",
        ["duplicate", "one_pair"],
    ),
    ("negative pays", "for_1", [], [ROYAL, {"hand": "flush", "pays": -1}], "lines", ["line 2", "negative"]),
    ("pays not a number", "for_1", [], [ROYAL, {"hand": "flush", "pays": "six"}], "lines", ["line 2", "six"]),
    ("pays dividing by zero", "for_1", [], [ROYAL, {"hand": "flush", "pays": "3/0"}], "lines", ["3/0"]),
    (
        "min_rank off one_pair",
        "for_1",
        [],
        [{"hand": "two_pair", "min_rank": "J", "pays": 2}],
        "lines",
        ["min_rank", "one_pair"],
    ),
    (
        "ranks off four_of_a_kind",
        "for_1",
        [],
        [{"hand": "full_house", "ranks": ["A"], "pays": 9}],
        "lines",
        ["ranks", "four_of_a_kind"],
    ),
    ("unknown min_rank", "for_1", [], [{"hand": "one_pair", "min_rank": "Z", "pays": 1}], "lines", ["Z"]),
    (
        "unknown rank in ranks",
        "for_1",
        [],
        [{"hand": "four_of_a_kind", "ranks": ["A", "1"], "pays": 80}],
        "lines",
        ["'1'"],
    ),
    (
        "wild code without wild ranks",
        "for_1",
        [],
        [{"hand": "four_wild", "pays": 200}],
        "lines",
        ["four_wild", "wild_ranks"],
    ),
    (
        "five of a kind without wild ranks",
        "for_1",
        [],
        [{"hand": "five_of_a_kind", "pays": 15}],
        "lines",
        ["five_of_a_kind", "wild_ranks"],
    ),
    (
        "natural royal without wild ranks",
        "for_1",
        [],
        [{"hand": "natural_royal_flush", "pays": 800}],
        "lines",
        ["natural_royal_flush"],
    ),
    ("no lines", "for_1", [], [], "lines", ["lines"]),
    (
        "no paying line",
        "to_1",
        [],
        [{"hand": "royal_flush", "pays": 0}, {"hand": "flush", "pays": 0}],
        "lines",
        ["pays more than 0"],
    ),
    ("unknown basis", "for_2", [], JACKS_9_6, "basis", ["for_2"]),
    ("unknown wild rank", "for_1", ["X"], JACKS_9_6, "wild_ranks", ["X"]),
    ("unknown line field", "for_1", [], [{"hand": "flush", "pays": 6, "colour": "red"}], "lines", ["colour"]),
]


@pytest.mark.parametrize(
    ("case", "basis", "wild", "lines", "field", "words"), BAD_SCHEDULES, ids=[c[0] for c in BAD_SCHEDULES]
)
def test_a_bad_schedule_is_refused_with_a_clear_message(
    case: str, basis: str, wild: list[str], lines: list[dict[str, Any]], field: str, words: list[str], floor_user: User
) -> None:
    with pytest.raises(DomainError) as caught:
        paytable_create_draft(name="Bad", basis=basis, wild_ranks=wild, lines=lines, actor=floor_user)
    error = caught.value
    assert error.code == "bad_paytable"
    assert error.field == field
    for word in words:
        assert word.lower() in error.message.lower(), (case, error.message)
    assert not Paytable.objects.exists()


@pytest.mark.parametrize(
    ("case", "basis", "wild", "lines", "field", "words"), BAD_SCHEDULES, ids=[c[0] for c in BAD_SCHEDULES]
)
def test_a_bad_schedule_leaves_a_draft_as_it_was(
    case: str,
    basis: str,
    wild: list[str],
    lines: list[dict[str, Any]],
    field: str,
    words: list[str],
    draft: Paytable,
    floor_user: User,
) -> None:
    with pytest.raises(DomainError):
        paytable_line_set(paytable=draft, basis=basis, wild_ranks=wild, lines=lines, actor=floor_user)
    draft.refresh_from_db()
    assert paytable_as_dict(draft) == {"name": "Jacks or Better 9/6", "basis": "for_1", "lines": JACKS_9_6}


def test_a_paytable_needs_a_name(floor_user: User) -> None:
    with pytest.raises(DomainError) as caught:
        paytable_create_draft(name="  ", basis="for_1", lines=JACKS_9_6, actor=floor_user)
    assert (caught.value.code, caught.value.field) == ("name_required", "name")


def test_deuces_wild_qualifiers_are_accepted_when_the_paytable_declares_its_wild_rank(floor_user: User) -> None:
    lines = [
        {"hand": "natural_royal_flush", "pays": 800},
        {"hand": "four_wild", "pays": 200},
        {"hand": "wild_royal_flush", "pays": 25},
        {"hand": "five_of_a_kind", "pays": 15},
        {"hand": "straight_flush", "pays": 9},
        {"hand": "four_of_a_kind", "ranks": ["A"], "pays": 80},
        {"hand": "four_of_a_kind", "ranks": ["2", "3", "4"], "pays": 40},
        {"hand": "four_of_a_kind", "pays": 5},
        {"hand": "full_house", "pays": 3},
        {"hand": "flush", "pays": 2},
        {"hand": "straight", "pays": 2},
        {"hand": "three_of_a_kind", "pays": 1},
    ]
    paytable = paytable_create_draft(name="Deuces", basis="for_1", wild_ranks=["2"], lines=lines, actor=floor_user)
    stored = paytable_as_dict(paytable)
    assert stored["wild_ranks"] == ["2"]
    assert stored["lines"][6] == {"hand": "four_of_a_kind", "ranks": ["4", "3", "2"], "pays": 40}
