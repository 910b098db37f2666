"""Errors a user can cause. Each is a ValueError so callers may catch broadly, and each
message is one line a person can act on (the CLI prints it without a traceback)."""


class MeepleError(ValueError):
    """Base of every error caused by bad input rather than by a bug."""


class IllegalAction(MeepleError):
    """An action the rules forbid; the state is unchanged.

    `rule` names the rule or ruling that forbids it (e.g. "T4", "M2", "K6") so a player or
    a bug report can look it up.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"illegal action ({rule}): {message}")
        self.rule = rule


class OptionError(MeepleError):
    """A bad game option, player count or bot name."""


class RecordError(MeepleError):
    """A malformed or inconsistent game record or serialized state."""


class DataError(MeepleError):
    """A component data file that fails validation."""
