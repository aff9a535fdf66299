"""Requests are answered on inboxes only (issue 25): the one check every answering process
makes before it acts on a request and before it answers one.

A request's reply subject is the sender's to choose, and an answer is published with the
answering process's permissions: a reply subject set to a stream subject made a service store
its answer in the log, the feed or the accounts (and one such entry wedged a table). The NATS
users of the floor may publish answers on inboxes only (:data:`sicbo.infra.nats_permissions.
ANSWERS`); this is the same rule in the process, so it holds on a server without accounts too,
and the sender is told of in the log, not answered.
"""

import logging

from nats.aio.msg import Msg

from sicbo_contracts.subjects import is_inbox, parse_command_subject

log = logging.getLogger(__name__)


def misdirected(msg: Msg) -> bool:
    """Whether ``msg`` asks for its answer somewhere that is not an inbox: then it is neither
    acted on nor answered, and one line names its sender and both subjects. A message with
    no reply subject is not misdirected (nobody is answered)."""
    if not msg.reply or is_inbox(msg.reply):
        return False
    command = parse_command_subject(msg.subject)
    sender = command.sender if command is not None else "unknown (not a command subject)"
    log.warning(
        "ignored a request on %s from sender %s: its reply subject %r is not an inbox"
        " (answers go to _INBOX.> only); nothing done, nothing answered",
        msg.subject,
        sender,
        msg.reply,
    )
    return True


async def answer(msg: Msg, data: bytes) -> None:
    """Answer ``msg`` if it asked for an answer on an inbox; one asked elsewhere is logged
    (:func:`misdirected`) and not answered. A handler that acts before it answers asks
    :func:`misdirected` first, so it neither acts nor answers."""
    if msg.reply and not misdirected(msg):
        await msg.respond(data)
