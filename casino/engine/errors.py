"""Engine error types: each carries the offending value so tools can name it."""

from __future__ import annotations


class EngineError(ValueError):
    """Base of every rules-engine error; `token` is the offending input."""

    code = "invalid"

    def __init__(self, message: str, *, token: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.token = token


class CardError(EngineError):
    """Unknown rank or suit, or a malformed card token."""

    code = "bad_card"


class DuplicateCardError(CardError):
    """The same card twice where one deck allows it once."""

    code = "duplicate_card"


class HandSizeError(EngineError):
    """The wrong number of cards."""

    code = "wrong_card_count"


class WildSpecError(EngineError):
    """A wild-card specification that names nothing or names something that is not a rank or card."""

    code = "bad_wild_spec"


class UnknownVariantError(EngineError):
    """A variant code that is not in the registry."""

    code = "unknown_variant"


class RulesError(EngineError):
    """An announced option with an unknown name or a value outside what the rules allow."""

    code = "bad_rules"


class NotDealtError(EngineError):
    """A held card that was not among the cards dealt to that seat."""

    code = "card_not_dealt"
