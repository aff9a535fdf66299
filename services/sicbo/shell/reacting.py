"""What the services that react to the log share: the job signature, the one "not done yet,
redeliver" signal, and the one way to ask the lifecycle something.

A job (settlement, illumination, the results feed) runs for one stored event of its durable
consumer and returns when its work is in the log; it raises :class:`NotDone` (or a store
error) when it must run again later, and the message is then redelivered
(:func:`sicbo.shell.bootstrap.service_app`).
"""

from collections.abc import Awaitable, Callable

import msgspec
from nats.aio.client import Client as NATS
from nats.errors import NoRespondersError
from nats.errors import TimeoutError as NatsTimeoutError

from sicbo.shell.codec import encode
from sicbo_contracts.access import ServiceAccount
from sicbo_contracts.base import Command
from sicbo_contracts.replies import Reply
from sicbo_contracts.subjects import command

#: The job for one event: its subject, stream sequence and data. Raises to be redelivered.
Job = Callable[[str, int, bytes], Awaitable[None]]

_reply: msgspec.json.Decoder[Reply] = msgspec.json.Decoder(Reply)


class NotDone(Exception):
    """The job is not finished (the lifecycle did not answer, the log read was behind):
    redeliver the event later."""


async def ask_lifecycle(nc: NATS, cmd: Command, *, sender: ServiceAccount, timeout: float) -> Reply:
    """Send a service command to the lifecycle as ``sender`` (the service's own subject, the
    only one its NATS user may publish on) and return its reply; NotDone when no replica
    answers in time (the job is redelivered and asks again, with the same command id)."""
    subject = command(cmd.table, "lifecycle", sender)
    try:
        msg = await nc.request(subject, encode(cmd), timeout=timeout)
    except (NoRespondersError, NatsTimeoutError) as exc:
        raise NotDone(f"lifecycle did not answer {cmd.command_id}") from exc
    return _reply.decode(msg.data)
