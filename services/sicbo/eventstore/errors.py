"""Errors of the event store, typed so the shell can tell "re-decide" from "broken".

``AppendConflict`` is the normal, expected outcome of optimistic concurrency: another writer got
there first, so the caller re-reads and re-decides (see :mod:`sicbo.eventstore.retry`).
``StoreError`` is everything else the JetStream API refuses; retrying the same decision will not
help (or, for a timeout, the outcome is unknown and only a retry with the same msg id is safe).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# JetStream API error codes (nats-server server/errors.json) the store interprets.
WRONG_LAST_SEQUENCE = 10071  # "wrong last sequence: <actual>" (stand-alone / store-checked path)
WRONG_LAST_SEQUENCE_CONSTANT = 10164  # "wrong last sequence", no number (clustered in-flight path)
BATCH_DUPLICATE_MSG_ID = 10201  # "atomic publish batch contains duplicate message id"
NO_MESSAGE_FOUND = 10037  # STREAM.MSG.GET on a filter with nothing stored

CONFLICT_CODES = frozenset({WRONG_LAST_SEQUENCE, WRONG_LAST_SEQUENCE_CONSTANT})


class StoreError(Exception):
    """A JetStream API error (or missing reply) that is not a concurrency conflict."""

    def __init__(
        self,
        message: str,
        *,
        code: int | None = None,
        err_code: int | None = None,
        description: str = "",
    ) -> None:
        super().__init__(message)
        self.code = code  # HTTP-like status from the server (400, 404, 503, ...)
        self.err_code = err_code  # JetStream error code (10xxx), None for transport errors
        self.description = description


class AppendConflict(Exception):
    """The server refused an append because the stream moved past what the writer expected.

    ``filter_subject``/``expected`` repeat the writer's expectation; ``actual`` is the last
    sequence the server saw on that filter when it says so (10071 carries it, 10164 does not).
    """

    def __init__(
        self,
        *,
        filter_subject: str | None,
        expected: int | None,
        err_code: int,
        description: str,
        code: int = 400,
    ) -> None:
        self.filter_subject = filter_subject
        self.expected = expected
        self.err_code = err_code
        self.description = description
        self.code = code
        self.actual = _actual_from(description)
        super().__init__(
            f"append refused ({err_code} {description!r}): expected last sequence "
            f"{expected} on {filter_subject!r}"
        )


class DuplicateBatch(AppendConflict):
    """An atomic batch whose ``Nats-Msg-Id`` is already stored (within the duplicate window).

    The server refuses the *whole* batch with 10201 and, unlike a single publish, does not say
    where the original landed. It is a conflict for the caller's purposes: re-reading shows the
    effect is already in the log, and re-deciding yields nothing to append.
    """

    def __init__(
        self,
        *,
        msg_id: str,
        filter_subject: str | None,
        expected: int | None,
        description: str,
    ) -> None:
        super().__init__(
            filter_subject=filter_subject,
            expected=expected,
            err_code=BATCH_DUPLICATE_MSG_ID,
            description=description,
        )
        self.msg_id = msg_id


def _actual_from(description: str) -> int | None:
    """Parse ``"wrong last sequence: 42"`` into 42; None when the server gave no number."""
    head, sep, tail = description.rpartition(":")
    if not sep or "sequence" not in head:
        return None
    try:
        return int(tail.strip())
    except ValueError:
        return None


def conflict_or_raise(
    error: Mapping[str, Any], filter_subject: str | None, expected: int | None
) -> AppendConflict:
    """Return the AppendConflict for a wrong-last-sequence refusal; raise StoreError otherwise."""
    err_code = error.get("err_code")
    if err_code in CONFLICT_CODES:
        return AppendConflict(
            filter_subject=filter_subject,
            expected=expected,
            err_code=int(err_code),
            description=str(error.get("description", "")),
            code=int(error.get("code", 400)),
        )
    raise store_error(error, "append")


def store_error(error: Mapping[str, Any], what: str) -> StoreError:
    description = str(error.get("description", ""))
    err_code = error.get("err_code")
    code = error.get("code")
    return StoreError(
        f"{what} refused: {err_code} {description}",
        code=int(code) if code is not None else None,
        err_code=int(err_code) if err_code is not None else None,
        description=description,
    )
