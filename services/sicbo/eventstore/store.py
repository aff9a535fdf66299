"""The event store: append with expectations, atomic batches, and fast history reads.

Built on nats-py's core connection and the raw JetStream wire API rather than ``js.publish``
because we need what nats-py 2.16 does not model: the atomic-batch headers and the batch PubAck
(``batch``/``count``), typed refusals (10071/10164/10201) and Direct Get batches. Every call is a
request/reply, so a refused append always gets an answer (``js.publish_async`` never resolves
on a refusal, nats.py#985).

Server behaviour this module relies on (measured on nats-server 2.15.1, see the tests):

* ``Nats-Expected-Last-Subject-Sequence`` + ``...-Subject: <wildcard filter>`` is checked
  against the last stored message matching the filter; 0 means "nothing matches yet". A stale
  writer gets 10071 ``wrong last sequence: <actual>`` (10164 without the number in clusters).
* Single publish: the expectation is checked BEFORE ``Nats-Msg-Id`` dedupe. A retried command
  whose own first attempt already moved the filter therefore gets 10071, not ``duplicate``.
  :meth:`EventStore.append` recognises that case when its own message is the last one on the
  filter and reports it as a duplicate; otherwise the caller re-reads, and can find the command
  id in ``StoredEvent.headers["Nats-Msg-Id"]``.
* Atomic batch: the intermediate messages get an empty reply (we publish them without a reply
  subject); the commit reply carries ``{"seq": <last>, "batch": id, "count": n}`` or the
  refusal of the whole batch. An expectation on message 1 is checked at commit against the
  stream as it was before the batch. ``Nats-Msg-Id`` is allowed in a batch (2.12.0 refused it
  with 10177; later servers accept it): a batch containing an id that is already stored is
  refused as a whole with 10201, and here dedupe is checked BEFORE the expectation. There is no
  ``duplicate: true`` for batches, so :class:`DuplicateBatch` is raised.
"""

from __future__ import annotations

import base64
import json
import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from nats.aio.client import Client as NATS
from nats.errors import NoRespondersError
from nats.errors import TimeoutError as NatsTimeoutError
from nats.js.client import JetStreamContext
from opentelemetry.propagate import inject

from sicbo.eventstore.consumer_read import ConsumerReadError, read_by_consumer
from sicbo.eventstore.direct_get import read_pages
from sicbo.eventstore.errors import (
    BATCH_DUPLICATE_MSG_ID,
    NO_MESSAGE_FOUND,
    DuplicateBatch,
    StoreError,
    conflict_or_raise,
    store_error,
)
from sicbo.eventstore.records import (
    Appended,
    BatchMessage,
    Expect,
    HeadersWanted,
    StoredEvent,
    parse_headers,
    stored_from_direct_get,
)
from sicbo_contracts.subjects import EVENTS_ALL

MSG_ID = "Nats-Msg-Id"
EXPECTED_LAST_SUBJECT_SEQUENCE = "Nats-Expected-Last-Subject-Sequence"
EXPECTED_LAST_SUBJECT_SEQUENCE_SUBJECT = "Nats-Expected-Last-Subject-Sequence-Subject"
BATCH_ID = "Nats-Batch-Id"
BATCH_SEQUENCE = "Nats-Batch-Sequence"
BATCH_COMMIT = "Nats-Batch-Commit"

MAX_BATCH = 1000  # server limit per atomic batch (jetstream.limits.batch.max_msgs default)
READ_PAGE = 1000  # messages per Direct Get batch request; 1000 and 5000 measured the same


class EventStore:
    """Appends to and reads from one JetStream stream (the floor's ``SICBO`` log)."""

    def __init__(
        self,
        js_or_nc: NATS | JetStreamContext,
        stream: str,
        *,
        timeout: float = 5.0,
        carry_trace: bool = True,
    ) -> None:
        if isinstance(js_or_nc, JetStreamContext):
            # nats-py keeps these private; a JetStreamContext is only the connection plus the
            # API prefix (which differs when a JetStream domain is used).
            self._nc: NATS = js_or_nc._nc
            self._api = js_or_nc._prefix
        else:
            self._nc = js_or_nc
            self._api = "$JS.API"
        self.stream = stream
        self._timeout = timeout
        #: Whether appends carry the current trace context (``traceparent``); not on a stream
        #: others read, such as the partners' results: the floor's insides stay inside.
        self._carry_trace = carry_trace

    # -- appending ------------------------------------------------------------------------

    async def append(
        self,
        subject: str,
        data: bytes,
        *,
        expect: Expect | None = None,
        msg_id: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Appended:
        """Append one event; raise :class:`AppendConflict` if ``expect`` no longer holds."""
        hdrs = _headers(headers, self._carry_trace)
        if msg_id is not None:
            hdrs[MSG_ID] = msg_id
        if expect is not None:
            hdrs.update(_expect_headers(expect))
        ack = await self._request(subject, data, hdrs)
        error = ack.get("error")
        if error is None:
            return Appended(seq=int(ack["seq"]), duplicate=bool(ack.get("duplicate", False)))
        conflict = conflict_or_raise(error, *_expected(expect))
        if msg_id is not None and expect is not None:
            # The server checks the expectation before dedupe, so a retry of an append that
            # did land looks like a conflict. If our own message is what moved the filter, it
            # is a duplicate; in every other case the caller must re-read and re-decide.
            own = await self._last_with_msg_id(expect.filter_subject, msg_id)
            if own is not None:
                return Appended(seq=own, duplicate=True)
        raise conflict

    async def append_batch(
        self,
        items: Sequence[tuple[str, bytes]],
        *,
        expect: Expect | None = None,
        msg_id: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> list[Appended]:
        """Append up to 1000 events atomically: all are stored, or none. ``expect`` and
        ``msg_id`` go on the first message (the expectation is checked at commit against the
        stream as it was before the batch), ``headers`` and the trace context on every one.
        Raises :class:`AppendConflict`, or :class:`DuplicateBatch` if ``msg_id`` is stored."""
        return await self.append_messages(
            [
                BatchMessage(subject, data, msg_id if n == 0 else None, headers)
                for n, (subject, data) in enumerate(items)
            ],
            expect=expect,
        )

    async def append_messages(
        self, messages: Sequence[BatchMessage], *, expect: Expect | None = None
    ) -> list[Appended]:
        """:meth:`append_batch` where each message has its own msg id and headers (several
        commands' events in one atomic batch, each deduplicated by its own id: a batch holding
        an id already stored is refused whole, :class:`DuplicateBatch`)."""
        if not messages:
            raise ValueError("an atomic batch needs at least one message")
        if len(messages) > MAX_BATCH:
            raise ValueError(f"an atomic batch holds at most {MAX_BATCH} messages")
        batch_id = uuid.uuid4().hex  # the server accepts ids up to 64 characters
        trace = _headers(None, self._carry_trace)
        staged: list[tuple[str, bytes, dict[str, str]]] = []
        for number, message in enumerate(messages, start=1):
            hdrs = {**trace, **(message.headers or {})}
            hdrs[BATCH_ID], hdrs[BATCH_SEQUENCE] = batch_id, str(number)
            if message.msg_id is not None:
                hdrs[MSG_ID] = message.msg_id
            if number == 1 and expect is not None:
                hdrs.update(_expect_headers(expect))
            staged.append((message.subject, message.data, hdrs))
        *first, (commit_subject, commit_data, commit_hdrs) = staged
        for subject, data, hdrs in first:
            # No reply subject (the server would only answer an empty ack). Order is kept by
            # the connection's single write buffer; a lost message fails the commit (10176).
            await self._nc.publish(subject, data, headers=hdrs)
        commit_hdrs[BATCH_COMMIT] = "1"
        ack = await self._request(commit_subject, commit_data, commit_hdrs)
        last = len(staged)
        error = ack.get("error")
        if error is not None:
            ids = [m.msg_id for m in messages if m.msg_id is not None]
            if error.get("err_code") == BATCH_DUPLICATE_MSG_ID and ids:
                raise DuplicateBatch(
                    msg_id=", ".join(ids),
                    filter_subject=expect.filter_subject if expect else None,
                    expected=expect.last_sequence if expect else None,
                    description=str(error.get("description", "")),
                )
            raise conflict_or_raise(error, *_expected(expect))
        count, final = int(ack.get("count", 0)), int(ack["seq"])
        if count != last or ack.get("batch") != batch_id:
            raise StoreError(f"unexpected batch ack {ack!r} for {last} messages of {batch_id}")
        # A committed batch occupies consecutive sequences ending at the ack's sequence.
        return [Appended(seq=final - last + n) for n in range(1, last + 1)]

    # -- reading --------------------------------------------------------------------------

    async def read(
        self,
        filter_subject: str,
        *,
        after_seq: int = 0,
        bulk: bool = False,
        headers: HeadersWanted = True,
    ) -> list[StoredEvent]:
        """Every stored message matching ``filter_subject`` after ``after_seq``, in order.

        ``bulk``: a long history read once (replay verify): through a short-lived consumer
        (:mod:`.consumer_read`, a third of Direct Get's server CPU a message), by Direct Get
        where that cannot be had. Never on a service's hot path (a consumer per read).
        ``headers`` (with ``bulk``): False, the events' headers may be left empty, for a reader
        that reads none; a function of the subject, only the headers of the events whose
        subject it accepts are sure to be there (:data:`~.records.HeadersWanted`).

        Direct Get batches (:mod:`.direct_get`). In a cluster any current replica may answer,
        so a read can miss the newest writes: it is always a prefix of the log, and the
        expectation on the next append (or the follower's check against the leader) catches
        the staleness.
        """
        if bulk:
            try:
                return await read_by_consumer(
                    self._nc,
                    self._api,
                    self.stream,
                    filter_subject,
                    after_seq=after_seq,
                    timeout=self._timeout,
                    headers=headers,
                )
            except ConsumerReadError:
                pass  # e.g. no right to make consumers: the same events by Direct Get
        return await read_pages(
            self._nc,
            f"{self._api}.DIRECT.GET.{self.stream}",
            filter_subject,
            after_seq=after_seq,
            timeout=self._timeout,
            page=READ_PAGE,
            parse=stored_from_direct_get,
            seq_of=lambda e: e.seq,
        )

    async def read_all(
        self, *, after_seq: int = 0, filter_subject: str = EVENTS_ALL
    ) -> list[StoredEvent]:
        """The floor's whole log (or a sub-filter) after ``after_seq``: replay's entry point."""
        return await self.read(filter_subject, after_seq=after_seq)

    async def last_sequence(self, filter_subject: str) -> int:
        """The last stream sequence matching ``filter_subject`` (wildcards allowed), 0 if none.

        ``STREAM.MSG.GET`` with ``last_by_subj`` accepts a wildcard filter (verified on
        2.15.1) and runs the very lookup (``LoadLastMsg``) the server uses to check
        ``Nats-Expected-Last-Subject-Sequence-Subject``, so the answer agrees with the
        append check. The stream leader answers (where appends are checked too), unlike
        Direct Get which any replica may serve; one request, no consumer. Prefer the last seq
        of the events you decided on when you have them (:func:`last_seq_on`): an expectation
        must come from the same snapshot as the decision.
        """
        found = await self._msg_get({"last_by_subj": filter_subject})
        return int(found["seq"]) if found is not None else 0

    async def get(self, seq: int, *, table: str | None = None) -> StoredEvent | None:
        """One message by its stream sequence (None if there is none). ``table``: whose
        event it is, for the floor's partitioned log (:class:`~.partitioned.FloorLog`) where
        a sequence is one partition stream's; one stream needs none."""
        found = await self._msg_get({"seq": seq})
        if found is None:
            return None
        hdrs = parse_headers(base64.b64decode(found["hdrs"])) if found.get("hdrs") else {}
        return StoredEvent(
            seq=int(found["seq"]),
            subject=str(found["subject"]),
            data=base64.b64decode(found.get("data") or ""),
            headers=hdrs,
            time=datetime.fromisoformat(str(found["time"]).replace("Z", "+00:00")),
        )

    # -- internals ------------------------------------------------------------------------

    async def _request(self, subject: str, data: bytes, hdrs: dict[str, str]) -> dict[str, Any]:
        try:
            reply = await self._nc.request(subject, data, timeout=self._timeout, headers=hdrs)
        except NoRespondersError as exc:
            raise StoreError(f"no stream stores {subject!r}", code=503) from exc
        except NatsTimeoutError as exc:
            raise StoreError(
                f"no ack for {subject!r} within {self._timeout}s: the append may or may not "
                "be stored; retry with the same msg id"
            ) from exc
        try:
            parsed: dict[str, Any] = json.loads(reply.data)
        except ValueError as exc:
            raise StoreError(f"not a JetStream reply on {subject!r}: {reply.data[:200]!r}") from exc
        return parsed

    async def _msg_get(self, body: dict[str, Any]) -> dict[str, Any] | None:
        """STREAM.MSG.GET (leader-answered); None when no message matches."""
        resp = await self._request(
            f"{self._api}.STREAM.MSG.GET.{self.stream}", json.dumps(body).encode(), {}
        )
        error = resp.get("error")
        if error is not None:
            if error.get("err_code") == NO_MESSAGE_FOUND:  # not 404 alone: that is also
                return None  # "stream not found", which must not read as "sequence 0"
            raise store_error(error, f"STREAM.MSG.GET {body!r}")
        message: dict[str, Any] = resp["message"]
        return message

    async def _last_with_msg_id(self, filter_subject: str, msg_id: str) -> int | None:
        found = await self._msg_get({"last_by_subj": filter_subject})
        if found is None or not found.get("hdrs"):
            return None
        hdrs = parse_headers(base64.b64decode(found["hdrs"]))
        return int(found["seq"]) if hdrs.get(MSG_ID) == msg_id else None


def _headers(extra: Mapping[str, str] | None, carry_trace: bool = True) -> dict[str, str]:
    """Caller headers plus the current OpenTelemetry context, so one trace follows a command."""
    hdrs = dict(extra) if extra else {}
    if carry_trace:
        inject(hdrs)
    return hdrs


def _expected(expect: Expect | None) -> tuple[str | None, int | None]:
    return (expect.filter_subject, expect.last_sequence) if expect else (None, None)


def _expect_headers(expect: Expect) -> dict[str, str]:
    if expect.last_sequence < 0:
        raise ValueError("last_sequence must be >= 0")
    return {
        EXPECTED_LAST_SUBJECT_SEQUENCE: str(expect.last_sequence),
        EXPECTED_LAST_SUBJECT_SEQUENCE_SUBJECT: expect.filter_subject,
    }
