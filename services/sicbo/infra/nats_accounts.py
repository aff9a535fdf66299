"""Who may do what on the floor's NATS: the accounts, users and permissions, in one place.

Rendered by :mod:`sicbo.infra.nats_config` into ``deploy/nats/accounts.conf`` (included by
``deploy/nats/floor.conf``) and into the accounts of ``deploy/nats-helm/values.yaml``; a test
fails when either file is stale, and tests/deploy/test_nats_permissions.py starts a server
with each and checks what every user is allowed and refused.

Every subject below is derived from the code that uses it:

- commands ``sicbo.cmd.<table>.<service>`` (:func:`commands_of`), served in a queue group and
  answered through ``allow_responses`` (a reply only to a request the service received);
- appends: each writer may publish exactly the event types its decider emits, on its own
  aggregate (``sicbo.evt.*.<aggregate>.*.<event-type>``), so dice cannot forge a lifecycle
  event nor the wager intake a settlement; the append's PubAck comes back on ``_INBOX``;
- reads of the log: Direct Get batches and ``STREAM.MSG.GET`` (:mod:`sicbo.eventstore.store`);
- the durable pull consumers: their info, ``MSG.NEXT`` and their own ``$JS.ACK`` subjects,
  never ``CONSUMER.CREATE`` (services never declare: DESIGN.md);
- the lifecycle's countdown bucket: KV put/delete and the watcher's ordered consumer.

The web gateway (``sicbo gateway serve``) is a reader and a sender, never a writer: it forwards
the commands its terminal and player pages may send (:data:`GATEWAY_COMMAND_SERVICES`), asks the
board and history queries and the demo's takeover, reads the log and watches it live (core
``sicbo.evt.>``), and stands in as the layout controller of the tables whose display page is
connected to it. It appends nothing and binds to no consumer.

Terminal roles (dealer, supervisor, inspector, operator) may only send commands to the
services whose deciders accept their role, and read the replies on their own inbox prefix
(``_INBOX.<role>.>``: connect with ``inbox_prefix="_INBOX.<role>"``), so a terminal sees
neither another role's replies nor a service's reads of the log. NATS checks subjects, not
payloads: the role named inside a command is checked by the decider, not here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, get_args

from sicbo_contracts.access import TERMINAL_ACTIONS
from sicbo_contracts.base import tag_of
from sicbo_contracts.dice import DiceEvent
from sicbo_contracts.illumination import IlluminationEvent
from sicbo_contracts.lifecycle import LifecycleEvent
from sicbo_contracts.routing import SERVICE_OF_TAG
from sicbo_contracts.settlement import SettlementEvent
from sicbo_contracts.subjects import (
    EVENT_STREAM,
    EVENTS_ALL,
    GATEWAY_INBOX,
    GATEWAY_SESSIONS_REVOKED,
    HISTORY_QUERY,
    PARTNER_DELIVER_ALL,
    RECALL_QUERY,
    RESULTS_ALL,
    RESULTS_STREAM,
    STATS_QUERY,
    TIMERS_BUCKET,
    Aggregate,
    DemoAsk,
    commands_of,
    demo,
    events_of_type,
    layout_light,
    layout_ping,
    queries_of,
    service_ping,
)
from sicbo_contracts.wagers import PlaceSlip, WagerEvent

INBOX = "_INBOX.>"
API = "$JS.API"


@dataclass(frozen=True, slots=True)
class Permissions:
    publish: tuple[str, ...] = ()
    subscribe: tuple[str, ...] = ()
    #: Publish denied although allowed above (or although nothing is listed: all allowed).
    deny_publish: tuple[str, ...] = ()
    #: May answer each request it receives, once, whatever its reply subject.
    allow_responses: bool = False


@dataclass(frozen=True, slots=True)
class User:
    name: str
    #: The environment variable holding the password (a Kubernetes Secret in production).
    password_env: str
    #: ``None``: everything inside its account.
    permissions: Permissions | None
    why: str


@dataclass(frozen=True, slots=True)
class Account:
    name: str
    users: tuple[User, ...]
    jetstream: bool = False
    exports: tuple[Mapping[str, Any], ...] = ()
    imports: tuple[Mapping[str, Any], ...] = ()
    why: str = ""


SYSTEM_ACCOUNT = "SYS"


# -- building blocks -------------------------------------------------------------------------


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


def service(
    name: str, *, publish: Iterable[str] = (), subscribe: Iterable[str] = (), why: str
) -> User:
    """A floor service: its ping, the replies to its own requests, answers to what it gets."""
    return User(
        name,
        f"{name.upper()}_PASSWORD",
        Permissions(
            publish=tuple(publish),
            subscribe=(service_ping(name), *subscribe, INBOX),
            allow_responses=True,
        ),
        why,
    )


def terminal(role: str, services: Iterable[str], why: str) -> User:
    """A terminal role: commands to these services, replies on its own inbox prefix."""
    return User(
        role,
        f"{role.upper()}_PASSWORD",
        Permissions(
            publish=tuple(commands_of(s) for s in services),
            subscribe=(f"_INBOX.{role}.>",),
        ),
        why,
    )


# -- the floor's users -----------------------------------------------------------------------

LOG = reads(EVENT_STREAM)

SERVICES: tuple[User, ...] = (
    service(
        "lifecycle",
        publish=(
            *appends(Aggregate.LIFECYCLE, LifecycleEvent),
            *LOG,
            *kv_bucket(TIMERS_BUCKET),  # the online betting countdown
        ),
        subscribe=(commands_of("lifecycle"),),
        why="round lifecycle: table and round phases; the betting countdown (KV sicbo-timers)",
    ),
    service(
        "dice",
        publish=(*appends(Aggregate.LIFECYCLE, DiceEvent), *LOG),
        subscribe=(commands_of("dice"),),
        why="dice capture: the result events, on the round's lifecycle (lc)",
    ),
    service(
        "wagers",
        publish=(*appends(Aggregate.BETS, WagerEvent), *LOG),
        subscribe=(commands_of("wagers"), queries_of(HISTORY_QUERY)),
        why="wager intake: bet slips and colour checks; a player's bet history",
    ),
    service(
        "settlement",
        publish=(
            *appends(Aggregate.SETTLE, SettlementEvent),
            *LOG,
            *pulls(EVENT_STREAM, "settlement"),
            commands_of("lifecycle"),  # CompleteRound once a round is settled
        ),
        why="settlement: consumer `settlement`; settles, then completes the round",
    ),
    service(
        "illumination",
        publish=(
            *appends(Aggregate.LAMP, IlluminationEvent),
            *LOG,
            *pulls(EVENT_STREAM, "illumination"),
            layout_light("*"),  # asks the table's layout controller
            commands_of("lifecycle"),  # ReportMalfunction on a fault
        ),
        why="illumination: consumer `illumination`; lights the layout, reports faults",
    ),
    service(
        "results",
        publish=(
            RESULTS_ALL,
            *LOG,
            *reads(RESULTS_STREAM),
            f"{API}.STREAM.INFO.{RESULTS_STREAM}",
            *pulls(EVENT_STREAM, "results-feed"),
        ),
        why="results feed: consumer `results-feed`; publishes to SICBO_RESULTS",
    ),
    service(
        "board",
        publish=LOG,
        subscribe=(queries_of(STATS_QUERY), queries_of(RECALL_QUERY)),
        why="statistics board and game recall: queries answered from the log",
    ),
    User(
        "layout",
        "LAYOUT_PASSWORD",
        Permissions(subscribe=(layout_light("*"), layout_ping("*")), allow_responses=True),
        "a table's layout controller (`sicbo layout-controller`): answers light requests",
    ),
)

#: The services the gateway sends commands to (sicbo.gateway.floor.GatewayFloor.send): those of
#: every action a terminal page offers (sicbo_contracts.access), and the online table's bet slip.
GATEWAY_COMMAND_SERVICES: tuple[str, ...] = tuple(
    sorted(
        {SERVICE_OF_TAG[tag] for actions in TERMINAL_ACTIONS.values() for tag in actions}
        | {SERVICE_OF_TAG[tag_of(PlaceSlip)]}
    )
)

#: The web gateway (sicbo.gateway) faces the browsers: its replies and Direct Get pages come on
#: its own inbox prefix only (``inbox_prefix=GATEWAY_INBOX``), so even a compromised gateway
#: cannot read or answer other clients' inboxes; allow_responses answers its ping and, for a
#: table whose display page is connected in controller mode, the illumination service's light
#: requests.
GATEWAY = User(
    "gateway",
    "GATEWAY_PASSWORD",
    Permissions(
        publish=(
            *(commands_of(s) for s in GATEWAY_COMMAND_SERVICES),
            queries_of(STATS_QUERY),  # the board page: statistics ...
            queries_of(RECALL_QUERY),  # ... and game recall
            queries_of(HISTORY_QUERY),  # a player's bet history
            demo("*", DemoAsk.TAKEOVER),  # demo only: nobody answers on a real floor
            demo("*", DemoAsk.RELEASE),
            demo("*", DemoAsk.CONTROL),
            GATEWAY_SESSIONS_REVOKED,  # a revocation, to every replica (sicbo.gateway.revocation)
            *LOG,
        ),
        subscribe=(
            service_ping("gateway"),
            GATEWAY_SESSIONS_REVOKED,
            EVENTS_ALL,
            layout_light("*"),
            layout_ping("*"),
            f"{GATEWAY_INBOX}.>",
        ),
        allow_responses=True,
    ),
    "the web gateway: forwards the pages' commands, asks queries, reads and watches the log",
)

TERMINALS: tuple[User, ...] = (
    terminal(
        "dealer",
        ("lifecycle", "dice", "wagers"),
        "runs the round, enters dice, places slips and issues colour checks at the table",
    ),
    terminal(
        "supervisor",
        ("lifecycle", "dice"),
        "no result, invalidation, limits and closures, corrections and overrides",
    ),
    terminal("inspector", ("lifecycle",), "clears an equipment fault (000 §7.7)"),
    terminal("operator", ("lifecycle", "wagers"), "opens tables, paytables, the cage"),
)

#: The operator's tooling (``sicbo provision``, replay, the CLI, `make run`): the whole FLOOR
#: account, except deleting or purging the audit log and the public feed.
FLOOR_ADMIN = User(
    "floor",
    "FLOOR_PASSWORD",
    Permissions(
        deny_publish=tuple(
            f"{API}.STREAM.{verb}.{stream}"
            for stream in (EVENT_STREAM, RESULTS_STREAM)
            for verb in ("DELETE", "PURGE")
        )
    ),
    "the operator's tooling: provisioning, replay, the sicbo CLI (never a service)",
)

# -- partners (deploy/nats/README.md) --------------------------------------------------------

PARTNER_COPY = "RESULTS"

PARTNERS_ADMIN = User(
    "partners-admin",
    "PARTNERS_ADMIN_PASSWORD",
    Permissions(
        publish=(
            f"{API}.INFO",
            f"{API}.STREAM.INFO.{PARTNER_COPY}",
            f"{API}.STREAM.CREATE.{PARTNER_COPY}",
            f"{API}.DIRECT.GET.{PARTNER_COPY}",
            f"{API}.DIRECT.GET.{PARTNER_COPY}.>",
        ),
        subscribe=(INBOX, RESULTS_ALL),
    ),
    "the operator's user in PARTNERS: creates and inspects the copy (`sicbo results copy`)",
)

PARTNER = User(
    "partner",
    "PARTNER_PASSWORD",
    Permissions(
        publish=(f"{API}.DIRECT.GET.{PARTNER_COPY}", f"{API}.DIRECT.GET.{PARTNER_COPY}.>"),
        subscribe=(RESULTS_ALL, INBOX),
    ),
    "a partner: results republished by the copy (stored only), its history by Direct Get",
)

ACCOUNTS: tuple[Account, ...] = (
    Account(
        SYSTEM_ACCOUNT,
        (User("sys", "SYS_PASSWORD", None, "monitoring"),),
        why="the system account",
    ),
    Account(
        "FLOOR",
        (FLOOR_ADMIN, *SERVICES, GATEWAY, *TERMINALS),
        jetstream=True,
        exports=(
            # Exactly what a mirror of SICBO_RESULTS in PARTNERS needs, and only for that
            # stream: create its consumer (nats-server 2.15 asks on this exact subject) ...
            {"service": f"{API}.CONSUMER.CREATE.{RESULTS_STREAM}", "accounts": ["PARTNERS"]},
            # ... which pushes the messages to this prefix ...
            {"stream": PARTNER_DELIVER_ALL, "accounts": ["PARTNERS"]},
            # ... and is paced by flow-control replies (without this the copy stalls: 10228).
            {"service": f"$JS.FC.{RESULTS_STREAM}.>", "accounts": ["PARTNERS"]},
        ),
        why="the floor: its services, its terminals, the operator's tooling",
    ),
    Account(
        "PARTNERS",
        (PARTNERS_ADMIN, PARTNER),
        jetstream=True,
        imports=(
            # The FLOOR's JetStream API under the prefix the copy names ($JS.floor.API),
            # limited to creating the mirror's consumer. No partner user may publish here.
            {
                "service": {
                    "account": "FLOOR",
                    "subject": f"{API}.CONSUMER.CREATE.{RESULTS_STREAM}",
                },
                "to": f"$JS.floor.API.CONSUMER.CREATE.{RESULTS_STREAM}",
            },
            {"service": {"account": "FLOOR", "subject": f"$JS.FC.{RESULTS_STREAM}.>"}},
            {"stream": {"account": "FLOOR", "subject": PARTNER_DELIVER_ALL}},
        ),
        why="integration partners: their own copy of the results feed, read-only users",
    ),
)


def users() -> dict[str, User]:
    """Every user of every account, by name (names are unique across accounts)."""
    return {u.name: u for a in ACCOUNTS for u in a.users}


def password_envs() -> list[str]:
    """Every password variable the configuration reads: the server needs all of them set."""
    return [u.password_env for a in ACCOUNTS for u in a.users]
