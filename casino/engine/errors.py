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
    """An announced option with an unknown name or a value outside what the rules allow.

    `option` is the option's code (DESIGN 7), so a form can show the error beside its field; `token` is the
    offending input (the bad value, or the option itself when it is unknown or missing).
    """

    code = "bad_rules"

    def __init__(self, message: str, *, token: str | None = None, option: str | None = None) -> None:
        super().__init__(message, token=token)
        self.option = option

    @property
    def field(self) -> str | None:
        """The option's code, under the name the API's error shape uses."""
        return self.option


class NotDealtError(EngineError):
    """A held card that was not among the cards dealt to that seat."""

    code = "card_not_dealt"


class AnnouncementError(RulesError):
    """A home game's announcement that is incomplete or wrong (DESIGN 7: "before the first card"); `token` is the
    option's code."""

    code = "bad_announcement"

    def __init__(self, message: str, *, option: str) -> None:
        super().__init__(message, token=option, option=option)
