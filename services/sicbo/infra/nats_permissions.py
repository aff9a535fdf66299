"""The building blocks of the floor's NATS accounts (:mod:`sicbo.infra.nats_accounts`): users,
their permissions, and the subjects a kind of work needs, each derived from the code that uses
it (:mod:`sicbo_contracts.subjects`, :mod:`sicbo_contracts.access`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, get_args

from sicbo_contracts.access import SENDERS
from sicbo_contracts.routing import SERVICE_OF_TAG
from sicbo_contracts.subjects import Aggregate, commands_of, events_of_type, inbox, service_ping

INBOX = "_INBOX.>"
#: Where a user that answers requests may publish its answers: inboxes, never a stream subject.
#: Not ``allow_responses``: nats-server lets a response through to any reply subject, past the
#: publish deny list too (tests/deploy/test_reply_subjects.py), so a request whose reply
#: subject was a stream subject made a service store its answer in the log.
ANSWERS = INBOX
API = "$JS.API"


@dataclass(frozen=True, slots=True)
class Permissions:
    publish: tuple[str, ...] = ()
    subscribe: tuple[str, ...] = ()
    #: Publish denied although allowed above (or although nothing is listed: all allowed).
    deny_publish: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class User:
    name: str
    #: The environment variable holding the password (a Kubernetes Secret in production).
    password_env: str
    #: ``None``: everything inside its account.
    permissions: Permissions | None
    why: str


@dataclass(frozen=True, slots=True)
class NkeyUser:
    """A user known by its public nkey only: it signs the server's nonce with a seed that
    never leaves it (an integration partner, deploy/nats/partners.toml)."""

    name: str
    public_key: str
    permissions: Permissions
    why: str


@dataclass(frozen=True, slots=True)
class Account:
    name: str
    users: tuple[User, ...]
    jetstream: bool = False
    exports: tuple[Mapping[str, Any], ...] = ()
    imports: tuple[Mapping[str, Any], ...] = ()
    why: str = ""
    #: Users that authenticate by nkey (no password, none in the server's environment).
    nkey_users: tuple[NkeyUser, ...] = ()


def appends(aggregate: Aggregate, events: Any) -> tuple[str, ...]:
    """The subjects of every event type of the union ``events``, any table, any round."""
    return tuple(events_of_type(cls, aggregate) for cls in get_args(events))


def reads(stream: str) -> tuple[str, ...]:
    """History by Direct Get batches (any replica) and ``STREAM.MSG.GET`` (the leader)."""
    return (f"{API}.DIRECT.GET.{stream}", f"{API}.STREAM.MSG.GET.{stream}")


def pulls(stream: str, durable: str) -> tuple[str, ...]:
    """Bind to a provisioned durable pull consumer, fetch, ack/nak. No create, no delete."""
    return (
        f"{API}.CONSUMER.INFO.{stream}.{durable}",
        f"{API}.CONSUMER.MSG.NEXT.{stream}.{durable}",
        f"$JS.ACK.{stream}.{durable}.>",
    )


def kv_bucket(bucket: str) -> tuple[str, ...]:
    """Put, delete, get and watch one KV bucket (the watcher is an ordered consumer)."""
    stream = f"KV_{bucket}"
    return (
        f"$KV.{bucket}.>",
        f"{API}.STREAM.INFO.{stream}",
        f"{API}.DIRECT.GET.{stream}.>",
        f"{API}.CONSUMER.CREATE.{stream}",
        f"{API}.CONSUMER.CREATE.{stream}.>",
        f"{API}.CONSUMER.INFO.{stream}.>",
        f"{API}.CONSUMER.DELETE.{stream}.>",
        f"$JS.FC.{stream}.>",
    )


def kv_create_and_get(bucket: str) -> tuple[str, ...]:
    """Write and read keys of one KV bucket, no watcher, no consumer: ``kv.create`` (a put
    expecting no earlier revision) and the get it falls back on."""
    stream = f"KV_{bucket}"
    return (
        f"$KV.{bucket}.>",
        f"{API}.STREAM.INFO.{stream}",
        f"{API}.DIRECT.GET.{stream}.>",
    )


def sends_as(*senders: str) -> tuple[str, ...]:
    """The command subjects of these senders (sicbo_contracts.access.SENDERS), each to the
    services that take one of its commands, any table: ``sicbo.cmd.*.<service>.<sender>``.
    A sender that never speaks NATS (the countdown) has none."""
    return tuple(
        commands_of(service, sender)
        for sender in senders
        if SENDERS[sender].over_nats
        for service in sorted({SERVICE_OF_TAG[tag] for tag in SENDERS[sender].actions})
    )


def service(
    name: str, *, publish: Iterable[str] = (), subscribe: Iterable[str] = (), why: str
) -> User:
    """A floor service: its ping, the replies to its own requests, answers to what it gets
    (to inboxes only)."""
    return User(
        name,
        f"{name.upper()}_PASSWORD",
        Permissions(
            publish=(*publish, ANSWERS),
            subscribe=(service_ping(name), *subscribe, INBOX),
        ),
        why,
    )


def sender(name: str, why: str) -> User:
    """A terminal role or a device (the dice reader): its own commands, replies on its own
    inbox prefix (connect with ``inbox_prefix=inbox(name)``)."""
    return User(
        name,
        f"{name.upper()}_PASSWORD",
        Permissions(publish=sends_as(name), subscribe=(f"{inbox(name)}.>",)),
        why,
    )
