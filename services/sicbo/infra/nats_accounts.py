"""Who may do what on the floor's NATS: the accounts, users and permissions, in one place.

Rendered by :mod:`sicbo.infra.nats_config` into ``deploy/nats/accounts.conf`` (included by
``deploy/nats/floor.conf``) and into the accounts of ``deploy/nats-helm/values.yaml``; a test
fails when either file is stale, and tests/deploy/test_nats_permissions.py starts a server
with each and checks what every user is allowed and refused.

Every subject below is derived from the code that uses it (the blocks:
:mod:`sicbo.infra.nats_permissions`):

- commands ``sicbo.cmd.<table>.<service>.<sender>``: a service takes every sender's
  (``sicbo.cmd.*.<service>.*``) in a queue group and answers on inboxes only (publish
  ``_INBOX.>``, never ``allow_responses``, which nats-server lets through to any reply subject,
  a stream's or the JetStream API's included, past a deny list too; the service itself drops a
  request whose reply subject is not an inbox: :mod:`sicbo.infra.replies`); a user publishes
  only on its own sender's subjects (:func:`~sicbo.infra.nats_permissions.sends_as`, from
  ``sicbo_contracts.access.SENDERS``), and the service refuses a command whose ``actor.role``
  is not that sender's, or whose type the sender may not send (DESIGN.md Roles: authority
  comes from the credential);
- appends: each writer may publish exactly the event types its decider emits, on its own
  aggregate (``sicbo.evt.*.<aggregate>.*.<event-type>``), so dice cannot forge a lifecycle
  event nor the wager intake a settlement; the append's PubAck comes back on ``_INBOX``;
- reads of the log: Direct Get batches and ``STREAM.MSG.GET`` (:mod:`sicbo.eventstore.store`);
- the durable pull consumers: their info, ``MSG.NEXT`` and their own ``$JS.ACK`` subjects,
  never ``CONSUMER.CREATE`` (services never declare: DESIGN.md);
- the lifecycle's countdown bucket: KV put/delete and the watcher's ordered consumer.

Players' accounts live in their own stream (``SICBO_ACCOUNTS``, ``sicbo.acct.<player>.<type>``):
the ``accounts`` user appends only the cashier's entries there and reads only that stream; the
operator (a terminal, or the gateway for one signed in) is the only sender of its commands.

Service-only commands come from their service's user only: ``CompleteRound`` from
``settlement`` (002 art. 4), a service's ``ReportMalfunction`` from ``illumination``
(000 §7.6-7.7), a reading (``ReadDice``) from ``reader``; the countdown's ``CloseBetting`` is
sent by the lifecycle to itself, in its process, and is refused from NATS.

The web gateway (``sicbo gateway serve``) is a reader and a sender, never a writer: it sends
as the human roles only (terminal roles and players, stamping the one signed in), asks the
board and history queries and the demo's takeover, reads the log and watches it live (core
``sicbo.evt.>``; the players' accounts too, ``sicbo.acct.>``, each page told of its own
player's only), and stands in as the layout controller of the tables whose display page is
connected to it. It appends nothing, binds to no consumer, and sends no service's command; its
one write is a used launch token's id, create-only, in the KV bucket ``sicbo-launches``.

Terminal roles (dealer, supervisor, inspector, operator) and the reader send as themselves
only, and read the replies on their own inbox prefix (``_INBOX.<user>.>``: connect with
``inbox_prefix=inbox(user)``), so a terminal sees neither another role's replies nor a
service's reads of the log.

Integration partners are accounts of their own, one per partner of the registry
(deploy/nats/partners.toml), beside ``PARTNERS`` and its copy of the results feed:
:mod:`sicbo.infra.partner_accounts`. :data:`ACCOUNTS` is the floor without partners (every
password user); :func:`accounts` adds a registry's partners.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sicbo.infra.nats_permissions import (
    ANSWERS,
    API,
    Account,
    Permissions,
    User,
    appends,
    kv_bucket,
    kv_create_and_get,
    pulls,
    reads,
    sender,
    sends_as,
    service,
)
from sicbo.infra.partner_accounts import partner_account, partners_account
from sicbo.infra.partner_registry import Partner
from sicbo_contracts.access import HUMAN_SENDERS, ServiceAccount
from sicbo_contracts.accounts import (
    AccountOpened,
    BalanceAdjusted,
    FundsDeposited,
    FundsWithdrawn,
    ReturnCredited,
    StakeDebited,
    StakeRefunded,
)
from sicbo_contracts.base import Role
from sicbo_contracts.dice import DiceEvent
from sicbo_contracts.illumination import IlluminationEvent
from sicbo_contracts.lifecycle import LifecycleEvent
from sicbo_contracts.settlement import SettlementEvent
from sicbo_contracts.subjects import (
    ACCOUNT_SERVICE,
    ACCOUNT_STREAM,
    ACCOUNTS_ALL,
    EVENTS_ALL,
    GATEWAY_INBOX,
    GATEWAY_SESSIONS_REVOKED,
    HISTORY_QUERY,
    LAUNCHES_BUCKET,
    PARTNER_DELIVER_ALL,
    RECALL_QUERY,
    RESULTS_ALL,
    RESULTS_STREAM,
    STATS_QUERY,
    TIMERS_BUCKET,
    Aggregate,
    DemoAsk,
    account_events_of_type,
    commands_of,
    demo,
    game_entries_of_type,
    layout_light,
    layout_ping,
    partition_stream,
    partition_token,
    queries_of,
    service_ping,
)
from sicbo_contracts.wagers import WagerEvent

SYSTEM_ACCOUNT = "SYS"


# -- the floor's users -----------------------------------------------------------------------


def log_reads(partitions: int = 1) -> tuple[str, ...]:
    """Reads of the floor's log, each of its streams (one per partition), and the one look-up
    that finds them (``STREAM.NAMES``: a service learns K from the server at start-up)."""
    return (
        f"{API}.STREAM.NAMES",
        *(s for p in range(partitions) for s in reads(partition_stream(p, partitions))),
    )


def log_appends(aggregate: Aggregate, events: Any, partitions: int = 1) -> tuple[str, ...]:
    """:func:`appends` as the streams of ``partitions`` store them (the partition token)."""
    subjects = appends(aggregate, events)
    if partitions == 1:
        return subjects
    return tuple(
        f"{s}.{partition_token(p, partitions)}" for s in subjects for p in range(partitions)
    )


def log_pulls(durable: str, partitions: int = 1) -> tuple[str, ...]:
    """A durable consumer of the floor's log: the one on each partition stream."""
    return tuple(
        s for p in range(partitions) for s in pulls(partition_stream(p, partitions), durable)
    )


LOG = log_reads()


def services(k: int = 1) -> tuple[User, ...]:
    """The services' users for a floor log of ``k`` streams (partitions)."""
    log = log_reads(k)
    return (
        service(
            "lifecycle",
            publish=(
                *log_appends(Aggregate.LIFECYCLE, LifecycleEvent, k),
                *log,
                *kv_bucket(TIMERS_BUCKET),  # the online betting countdown
            ),
            subscribe=(commands_of("lifecycle"),),
            why="round lifecycle: table and round phases; the betting countdown (KV sicbo-timers)",
        ),
        service(
            "dice",
            publish=(*log_appends(Aggregate.LIFECYCLE, DiceEvent, k), *log),
            subscribe=(commands_of("dice"),),
            why="dice capture: the result events, on the round's lifecycle (lc)",
        ),
        service(
            "wagers",
            publish=(
                *log_appends(Aggregate.BETS, WagerEvent, k),
                *log,
                # Debit-then-slip: a slip's stakes from the player's account, refunded if the
                # slip is not stored (issue 14); it reads the account it debits.
                *(game_entries_of_type(t) for t in (StakeDebited, StakeRefunded)),
                *reads(ACCOUNT_STREAM),
            ),
            subscribe=(commands_of("wagers"), queries_of(HISTORY_QUERY)),
            why="wager intake: bet slips and colour checks, stakes debited; a player's bet history",
        ),
        service(
            "settlement",
            publish=(
                *log_appends(Aggregate.SETTLE, SettlementEvent, k),
                *log,
                *log_pulls("settlement", k),
                *pulls(ACCOUNT_STREAM, "settlement-debits"),  # debits after their round closed
                *sends_as(ServiceAccount.SETTLEMENT),  # CompleteRound once settled (002 art. 4)
                # Returns credited, voids refunded, corrections adjusted; debits without a slip
                # refunded when betting closes (issue 14).
                *(
                    game_entries_of_type(t)
                    for t in (StakeRefunded, ReturnCredited, BalanceAdjusted)
                ),
                *reads(ACCOUNT_STREAM),
            ),
            why=(
                "settlement: consumers `settlement` and `settlement-debits`; settles, pays the"
                " accounts, completes the round"
            ),
        ),
        service(
            "illumination",
            publish=(
                *log_appends(Aggregate.LAMP, IlluminationEvent, k),
                *log,
                *log_pulls("illumination", k),
                layout_light("*"),  # asks the table's layout controller
                *sends_as(ServiceAccount.ILLUMINATION),  # ReportMalfunction on a fault (000 §7.7)
            ),
            why="illumination: consumer `illumination`; lights the layout, reports faults",
        ),
        service(
            "results",
            publish=(
                RESULTS_ALL,
                *log,
                *reads(RESULTS_STREAM),
                f"{API}.STREAM.INFO.{RESULTS_STREAM}",
                *log_pulls("results-feed", k),
            ),
            why="results feed: consumer `results-feed`; publishes to SICBO_RESULTS",
        ),
        service(
            ACCOUNT_SERVICE,
            publish=(
                # The cashier's entries only; the game's (debits, returns) are not its to write.
                *(
                    account_events_of_type(t)
                    for t in (AccountOpened, FundsDeposited, FundsWithdrawn)
                ),
                *reads(ACCOUNT_STREAM),  # its own log only: it never reads a table's
            ),
            subscribe=(commands_of(ACCOUNT_SERVICE),),
            why="players' accounts: the operator's cashier's commands (SICBO_ACCOUNTS)",
        ),
        service(
            "board",
            publish=log,
            subscribe=(queries_of(STATS_QUERY), queries_of(RECALL_QUERY)),
            why="statistics board and game recall: queries answered from the log",
        ),
        User(
            "layout",
            "LAYOUT_PASSWORD",
            Permissions(publish=(ANSWERS,), subscribe=(layout_light("*"), layout_ping("*"))),
            "a table's layout controller (`sicbo layout-controller`): answers light requests",
        ),
    )


SERVICES: tuple[User, ...] = services()


#: The web gateway (sicbo.gateway) faces the browsers: its replies and Direct Get pages come on
#: its own inbox prefix only (``inbox_prefix=GATEWAY_INBOX``), so even a compromised gateway
#: cannot read other clients' inboxes; it answers (to inboxes only) its ping and, for a
#: table whose display page is connected in controller mode, the illumination service's light
#: requests.
def gateway(k: int = 1) -> User:
    """The gateway's user for a floor log of ``k`` streams."""
    return User(
        "gateway",
        "GATEWAY_PASSWORD",
        Permissions(
            publish=(
                # As the operator signed in (or the player): the human roles' commands only, never
                # a service's (sicbo.gateway.floor.GatewayFloor.send).
                *sends_as(*HUMAN_SENDERS),
                queries_of(STATS_QUERY),  # the board page: statistics ...
                queries_of(RECALL_QUERY),  # ... and game recall
                queries_of(HISTORY_QUERY),  # a player's bet history
                demo("*", DemoAsk.TAKEOVER),  # demo only: nobody answers on a real floor
                demo("*", DemoAsk.RELEASE),
                demo("*", DemoAsk.CONTROL),
                # A revocation, to every replica (sicbo.gateway.revocation).
                GATEWAY_SESSIONS_REVOKED,
                *kv_create_and_get(LAUNCHES_BUCKET),  # each launch token once, on every replica
                *log_reads(k),
                # A signed-in player's own balance and statement, the cashier's look-ups (issue 14).
                *reads(ACCOUNT_STREAM),
                ANSWERS,  # its ping; a display page's answers to light requests
            ),
            subscribe=(
                service_ping("gateway"),
                GATEWAY_SESSIONS_REVOKED,
                EVENTS_ALL,
                ACCOUNTS_ALL,  # each player's page told of their own account's entries only
                layout_light("*"),
                layout_ping("*"),
                f"{GATEWAY_INBOX}.>",
            ),
        ),
        "the web gateway: forwards the pages' commands, asks queries, reads and watches the log",
    )


GATEWAY = gateway()

TERMINALS: tuple[User, ...] = (
    sender(Role.DEALER, "runs the round, enters dice, places slips and issues colour checks"),
    sender(Role.SUPERVISOR, "no result, invalidation, limits and closures, corrections, overrides"),
    sender(Role.INSPECTOR, "clears an equipment fault (000 §7.7)"),
    sender(Role.OPERATOR, "opens tables, paytables, the cage"),
)

#: An automatic dice reader (DESIGN.md: a second source of the result): its readings only.
READER = sender(ServiceAccount.READER, "an automatic dice reader: sends its readings (ReadDice)")


#: The operator's tooling (``sicbo provision``, replay, the CLI, `make run`): the whole FLOOR
#: account, except deleting or purging the audit log and the public feed.
def floor_admin(k: int = 1) -> User:
    """The operator's tooling, for a floor log of ``k`` streams (none of them deleted)."""
    logs = tuple(partition_stream(p, k) for p in range(k))
    return User(
        "floor",
        "FLOOR_PASSWORD",
        Permissions(
            deny_publish=tuple(
                f"{API}.STREAM.{verb}.{stream}"
                for stream in (*logs, RESULTS_STREAM, ACCOUNT_STREAM)
                for verb in ("DELETE", "PURGE")
            )
        ),
        "the operator's tooling: provisioning, replay, the sicbo CLI (never a service)",
    )


FLOOR_ADMIN = floor_admin()


def accounts(partners: Sequence[Partner] = (), partitions: int = 1) -> tuple[Account, ...]:
    """Every account: the system's, the floor's, the partners' copy, one per partner; the
    floor's users for a log of ``partitions`` streams (``sicbo provision --partitions``)."""
    return (
        Account(
            SYSTEM_ACCOUNT,
            (User("sys", "SYS_PASSWORD", None, "monitoring"),),
            why="the system account",
        ),
        Account(
            "FLOOR",
            (
                floor_admin(partitions),
                *services(partitions),
                gateway(partitions),
                *TERMINALS,
                READER,
            ),
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
        partners_account(partners),
        *(partner_account(p) for p in partners),
    )


#: The accounts without any partner (the floor's own users: every password user).
ACCOUNTS = accounts()


def users() -> dict[str, User]:
    """Every password user of every account, by name (names are unique across accounts);
    partners sign in by nkey (:mod:`sicbo.infra.partner_accounts`), with no password."""
    return {u.name: u for a in ACCOUNTS for u in a.users}


def password_envs() -> list[str]:
    """Every password variable the configuration reads: the server needs all of them set."""
    return [u.password_env for a in ACCOUNTS for u in a.users]
