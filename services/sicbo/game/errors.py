"""Errors of the pure game library.

Each error names what is wrong in words a dealer or an integrator can act on; all of them are
``ValueError`` so callers that only care about "bad input" can catch one type.
"""


class GameError(ValueError):
    """Base of every rule violation the game library reports."""


class InvalidDice(GameError):
    """A result that is not three dice showing 1..6."""


class InvalidBet(GameError):
    """A bet id that is malformed or names no bet of the catalogue."""


class BetNotOffered(GameError):
    """A valid bet that the table's rule profile does not offer."""


class InvalidStake(GameError):
    """A stake that is not a positive whole number of minor units."""


class UnknownProfile(GameError):
    """A rule profile id that has no document."""


class InvalidChoice(GameError):
    """An operator's paytable choice outside what the rules allow."""
