"""Wrong PINs, counted per operator id (pure: the time comes in as an argument).

After ``MAX_FAILURES`` wrong PINs in a row an id is refused for ``LOCKOUT_SECONDS``, so a
4-digit PIN cannot be guessed by trying them all. Only ids on the operator list are counted,
so the memory is bounded by the list. Per gateway replica: behind N replicas an attacker gets
N times the attempts, still far from the 10,000 a 4-digit PIN needs.
"""

from dataclasses import dataclass, field

MAX_FAILURES = 5
LOCKOUT_SECONDS = 60.0


@dataclass
class SignInAttempts:
    max_failures: int = MAX_FAILURES
    lockout_seconds: float = LOCKOUT_SECONDS
    _failures: dict[str, int] = field(default_factory=dict)
    _locked_until: dict[str, float] = field(default_factory=dict)

    def locked_for(self, operator: str, now: float) -> float:
        """Seconds the id is still refused (0: it may try)."""
        return max(0.0, self._locked_until.get(operator, 0.0) - now)

    def failed(self, operator: str, now: float) -> None:
        failures = self._failures.get(operator, 0) + 1
        if failures >= self.max_failures:
            self._locked_until[operator] = now + self.lockout_seconds
            failures = 0
        self._failures[operator] = failures

    def succeeded(self, operator: str) -> None:
        self._failures.pop(operator, None)
        self._locked_until.pop(operator, None)
