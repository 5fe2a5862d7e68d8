"""Triple Draw hand composition (DESIGN 5): held cards plus the first 5 - held cards of each row."""

from __future__ import annotations

import pytest

from casino.engine.cards import parse_cards
from casino.engine.errors import DuplicateCardError, EngineError, HandSizeError, NotDealtError
from casino.engine.triple_draw import compose_hand, compose_hands, validate_round_cards

ROWS = [parse_cards("2c 3c 4c 5c 6c"), parse_cards("2d 3d 4d 5d 6d"), parse_cards("2h 3h 4h 5h 6h")]


def text(cards: tuple) -> str:  # type: ignore[type-arg]
    return " ".join(str(card) for card in cards)


@pytest.mark.parametrize(
    ("held", "expected"),
    [
        # "Players holding no cards will use Draw Cards 1, 2, 3, 4, and 5"
        ("", "2c 3c 4c 5c 6c"),
        # "Players holding one card will use Draw Cards 1, 2, 3, and 4"
        ("As", "As 2c 3c 4c 5c"),
        # "Players holding two cards will use Draw Cards 1, 2, and 3"
        ("As Ah", "As Ah 2c 3c 4c"),
        # "Players holding three cards will use Draw Cards 1 and 2"
        ("As Ah Ad", "As Ah Ad 2c 3c"),
        # "Players holding four cards will use Draw Card 1"
        ("As Ah Ad Ac", "As Ah Ad Ac 2c"),
        # "Players holding all five cards will not use any Draw Cards"
        ("As Ah Ad Ac Ks", "As Ah Ad Ac Ks"),
    ],
)
def test_held_cards_take_the_first_cards_of_the_row(held: str, expected: str) -> None:
    assert text(compose_hand(parse_cards(held), ROWS[0])) == expected


def test_held_pair_uses_first_three_cards_of_each_row() -> None:
    hands = compose_hands(parse_cards("As Ah"), ROWS, circles=3)
    assert [text(hand) for hand in hands] == ["As Ah 2c 3c 4c", "As Ah 2d 3d 4d", "As Ah 2h 3h 4h"]
    assert len(compose_hands(parse_cards("As Ah"), ROWS, circles=1)) == 1


def test_compose_rejects_bad_sizes_and_circles() -> None:
    with pytest.raises(HandSizeError):
        compose_hand(parse_cards("As Ah Ad Ac Ks Kh"), ROWS[0])
    with pytest.raises(HandSizeError):
        compose_hand(parse_cards("As"), ROWS[0][:4])
    with pytest.raises(EngineError):
        compose_hands(parse_cards("As"), ROWS, circles=4)
    with pytest.raises(DuplicateCardError) as error:
        compose_hand(parse_cards("2c Ah"), ROWS[0])
    assert error.value.token == "2c"


def test_validate_round_accepts_a_legal_round() -> None:
    dealt = {1: parse_cards("As Ah Ad Kc Qc"), 2: parse_cards("7s 7h 8d 9c Tc")}
    held = {1: parse_cards("As Ah Ad"), 2: parse_cards("")}
    validate_round_cards(dealt, held, ROWS)


def test_validate_round_rejects_a_card_dealt_twice() -> None:
    dealt = {1: parse_cards("As Ah Ad Kc Qc"), 2: parse_cards("7s 7h 8d 9c 2c")}
    with pytest.raises(DuplicateCardError) as error:
        validate_round_cards(dealt, {}, ROWS)
    assert error.value.token == "2c"
    assert "seat 2" in error.value.message
    assert "row 1" in error.value.message


def test_validate_round_rejects_a_held_card_that_was_not_dealt() -> None:
    dealt = {1: parse_cards("As Ah Ad Kc Qc")}
    with pytest.raises(NotDealtError) as error:
        validate_round_cards(dealt, {1: parse_cards("As Ks")}, ROWS)
    assert error.value.token == "Ks"


def test_validate_round_counts_held_cards_of_seats_without_recorded_deals() -> None:
    with pytest.raises(DuplicateCardError):
        validate_round_cards({}, {3: parse_cards("2d")}, ROWS)


def test_validate_round_checks_row_and_deal_sizes() -> None:
    with pytest.raises(HandSizeError):
        validate_round_cards({1: parse_cards("As Ah Ad Kc")}, {}, [])
    with pytest.raises(HandSizeError):
        validate_round_cards({}, {}, [parse_cards("As Ah Ad Kc")])
    with pytest.raises(HandSizeError):
        validate_round_cards({}, {}, [*ROWS, parse_cards("As Ah Ad Kc Ks")])
