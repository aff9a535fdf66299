"""Wrong PINs per operator id: five in a row refuse the id for a minute."""

from sicbo.gateway.attempts import LOCKOUT_SECONDS, MAX_FAILURES, SignInAttempts


def test_five_wrong_pins_refuse_the_id_for_a_minute() -> None:
    attempts = SignInAttempts()
    for n in range(MAX_FAILURES - 1):
        attempts.failed("ana", now=100.0 + n)
        assert attempts.locked_for("ana", now=100.0 + n) == 0
    attempts.failed("ana", now=110.0)
    assert attempts.locked_for("ana", now=110.0) == LOCKOUT_SECONDS == 60
    assert attempts.locked_for("ana", now=150.0) == 20
    assert attempts.locked_for("ana", now=170.0) == 0
    assert attempts.locked_for("ben", now=110.0) == 0  # per id


def test_a_right_pin_forgets_the_wrong_ones() -> None:
    attempts = SignInAttempts()
    for n in range(MAX_FAILURES - 1):
        attempts.failed("ana", now=float(n))
    attempts.succeeded("ana")
    attempts.failed("ana", now=10.0)
    assert attempts.locked_for("ana", now=10.0) == 0


def test_after_a_lockout_the_count_starts_again() -> None:
    attempts = SignInAttempts(max_failures=2, lockout_seconds=5)
    attempts.failed("ana", now=0.0)
    attempts.failed("ana", now=1.0)
    assert attempts.locked_for("ana", now=1.0) == 5
    attempts.failed("ana", now=7.0)  # one wrong PIN after the lockout is not a new lockout
    assert attempts.locked_for("ana", now=7.0) == 0
