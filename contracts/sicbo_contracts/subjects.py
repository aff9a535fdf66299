"""Every NATS subject, stream and bucket name of the floor, built and parsed here only.

Events: ``sicbo.evt.<table>.<aggregate>.<round>.<event-type token>``. Table-level events
(opened, limits, seats, faults, colour checks) use round 0, so one filter still fetches a
table's whole lifecycle. The token is the event's type tag with its dots replaced
(``round.started.v1`` -> ``round-started-v1``): subjects take no dots inside a token.
Commands: ``sicbo.cmd.<table>.<service>.<sender>`` (request/reply, a queue group per service):
the sender is who may publish there, a human role or a service account (:mod:`.access`), so
the NATS permissions of a user bind the authority its commands act with.
Queries: ``sicbo.qry.<table>.<query>`` (request/reply, a queue group per answering service).
Public results for partners live apart: ``sicbo.results.<table>`` on their own stream.
"""

import re
from enum import StrEnum
from functools import lru_cache
from typing import Any, NamedTuple

from sicbo_contracts.base import tag_of

EVENT_STREAM = "SICBO"
EVENTS_ALL = "sicbo.evt.>"
RESULTS_STREAM = "SICBO_RESULTS"
RESULTS_ALL = "sicbo.results.>"
ACCOUNT_STREAM = "SICBO_ACCOUNTS"  # players' accounts: apart from every table (:mod:`.accounts`)
ACCOUNTS_ALL = "sicbo.acct.>"
ACCOUNT_SERVICE = "accounts"  # the service that takes the cashier's commands
TIMERS_BUCKET = "sicbo-timers"  # KV: betting countdown deadlines
READMODELS_BUCKET = "sicbo-readmodels"  # KV: read models (statistics board, recall)
LAUNCHES_BUCKET = "sicbo-launches"  # KV: launch tokens used (their jti), each until it expires
TABLE_ROUND = 0  # the "round" token of table-level events

_EVENTS = "sicbo.evt"
_COMMANDS = "sicbo.cmd"
_QUERIES = "sicbo.qry"
_RESULTS = "sicbo.results"
_ACCOUNTS = "sicbo.acct"


class Aggregate(StrEnum):
    LIFECYCLE = "lc"  # table and round phases, and the result
    BETS = "bets"
    SETTLE = "settle"
    LAMP = "lamp"


# -- event subjects ----------------------------------------------------------------------------


def token(event_type: Any) -> str:
    """The subject token of an event type: its tag (a class, an instance or the tag itself)
    with the dots replaced, ``round.started.v1`` -> ``round-started-v1``."""
    tag = event_type if isinstance(event_type, str) else tag_of(event_type)
    return tag.replace(".", "-")


def tokens(*event_types: Any) -> frozenset[str]:
    return frozenset(token(t) for t in event_types)


def event(table: str, aggregate: Aggregate, round_no: int, event_type: Any) -> str:
    """Subject of one event; ``event_type`` is a tag, a token or an event class."""
    return f"{_EVENTS}.{table}.{aggregate.value}.{round_no}.{token(event_type)}"


def subject_of(evt: Any, aggregate: Aggregate) -> str:
    """Where an event is appended: round events under their round, table-level ones under 0."""
    round_no = getattr(evt, "round", None) or TABLE_ROUND
    return event(evt.table, aggregate, round_no, evt)


def table_filter(table: str) -> str:
    """Every event of one table, in log order: one consistent prefix of the table's log."""
    return f"{_EVENTS}.{table}.>"


def aggregate_filter(table: str, aggregate: Aggregate) -> str:
    """All events of one aggregate of a table (e.g. the lifecycle filter of 000 §3.9)."""
    return f"{_EVENTS}.{table}.{aggregate.value}.>"


def round_filter(table: str, aggregate: Aggregate, round_no: int) -> str:
    return f"{_EVENTS}.{table}.{aggregate.value}.{round_no}.>"


def round_history(table: str, round_no: int) -> str:
    """Every aggregate's events of one round: what replay reads."""
    return f"{_EVENTS}.{table}.*.{round_no}.>"


def events_of_type(
    event_type: Any, aggregate: Aggregate, *, table: str = "*", round_no: int | None = None
) -> str:
    """One event type's subjects: of a table (or any, ``*``), of a round (or any)."""
    round_token = "*" if round_no is None else str(round_no)
    return f"{_EVENTS}.{table}.{aggregate.value}.{round_token}.{token(event_type)}"


def all_tables(aggregate: Aggregate) -> str:
    return f"{_EVENTS}.*.{aggregate.value}.>"


def table_level(table: str = "*", aggregate: Aggregate = Aggregate.LIFECYCLE) -> str:
    """Table-level events (round 0) of a table, or of every table."""
    return f"{_EVENTS}.{table}.{aggregate.value}.{TABLE_ROUND}.>"


class EventSubject(NamedTuple):
    table: str
    aggregate: Aggregate
    round: int
    token: str


@lru_cache(maxsize=4096)  # every slip of a round has the same subject; replay parses each event
def parse_event_subject(subject: str) -> EventSubject | None:
    """The parts of a floor event subject; None for any other subject (another prefix, an
    unknown aggregate, a round that is not a number)."""
    parts = subject.split(".")
    if len(parts) == 7 and _PARTITION_TOKEN.fullmatch(parts[6]):  # as appended on K > 1
        del parts[6]
    if len(parts) != 6 or f"{parts[0]}.{parts[1]}" != _EVENTS or not parts[4].isdigit():
        return None
    aggregate = _AGGREGATES.get(parts[3])  # a dict, not Aggregate(): replay parses every event
    if aggregate is None:
        return None
    return EventSubject(parts[2], aggregate, int(parts[4]), parts[5])


_AGGREGATES = {a.value: a for a in Aggregate}


def on_its_own_subject(subject: str, event: object) -> bool:
    """Whether an event of the floor's log names the table and round its subject does, as
    every append does (``subject_of``). One that does not is no service's (a forged or
    misfiled entry: ``sicbo replay verify`` reports it, check "subject"), and folding it would
    give one table's state another's round: a round 1 started again on a table at round 77
    wedged it (every later command refused). Messages off the event subjects (a player's
    account) and events without a table are not judged here."""
    table = getattr(event, "table", None)
    parsed = parse_event_subject(subject) if table is not None else None
    if parsed is None:
        return True
    return parsed.table == table and parsed.round == (getattr(event, "round", None) or TABLE_ROUND)


# -- the partitioned log -----------------------------------------------------------------------
# With K = 1 the floor's events are the one stream ``SICBO`` (``sicbo.evt.>``), as always. With
# K > 1 each table's events live in the stream of its partition, ``SICBO_P<p>_OF_<K>``, which
# stores ``sicbo.evt.*.*.*.*.p<p>of<K>``: the event subject above plus a trailing partition
# token, appended by the event store on write and stripped on read, so every filter ending in
# ``>`` selects the same events in either layout. K is in the token and in the stream's name:
# a writer holding a wrong K finds no stream for its subject (no responders), never a wrong
# stream, and the streams of a larger K can be created beside those of the old one.

_PARTITION_TOKEN = re.compile(r"p(\d+)of(\d+)")
_FNV32_OFFSET = 0x811C9DC5
_FNV32_PRIME = 0x01000193


def fnv1a_32(data: bytes) -> int:
    """FNV-1a, 32 bits: the hash of NATS's ``partition()`` subject mapping function."""
    h = _FNV32_OFFSET
    for byte in data:
        h = ((h ^ byte) * _FNV32_PRIME) & 0xFFFFFFFF
    return h


@lru_cache(maxsize=4096)
def partition_of(table: str, partitions: int) -> int:
    """The partition of a table among ``partitions``: as NATS's ``{{partition(K,1)}}`` would
    map the table's token, so a later move to a server-side mapping keeps every table put."""
    if partitions < 1:
        raise ValueError(f"partitions must be at least 1, not {partitions}")
    return fnv1a_32(table.encode()) % partitions


def partition_token(partition: int, partitions: int) -> str:
    return f"p{partition}of{partitions}"


def partition_stream(partition: int, partitions: int) -> str:
    """The stream of one partition; ``SICBO`` itself when the log is not partitioned."""
    if partitions == 1:
        return EVENT_STREAM
    return f"{EVENT_STREAM}_P{partition}_OF_{partitions}"


def partition_subjects(partition: int, partitions: int) -> str:
    """What the stream of one partition stores (:data:`EVENTS_ALL` when not partitioned)."""
    if partitions == 1:
        return EVENTS_ALL
    return f"{_EVENTS}.*.*.*.*.{partition_token(partition, partitions)}"


def parse_partition_stream(name: str) -> tuple[int, int] | None:
    """``(partition, partitions)`` of a floor log stream's name, None for any other stream."""
    if name == EVENT_STREAM:
        return 0, 1
    match = re.fullmatch(rf"{EVENT_STREAM}_P(\d+)_OF_(\d+)", name)
    if match is None:
        return None
    partition, partitions = int(match[1]), int(match[2])
    return (partition, partitions) if partition < partitions and partitions > 1 else None


def without_partition(subject: str) -> str:
    """An event subject as the floor names it: the stored partition token dropped."""
    head, _, last = subject.rpartition(".")
    return head if head and _PARTITION_TOKEN.fullmatch(last) else subject


def subject_matches(subject: str, filter_subject: str) -> bool:
    """NATS subject matching: ``*`` is one token, a trailing ``>`` one or more."""
    tokens, pattern = subject.split("."), filter_subject.split(".")
    for i, want in enumerate(pattern):
        if want == ">":
            return len(tokens) > i
        if i >= len(tokens) or (want != "*" and want != tokens[i]):
            return False
    return len(tokens) == len(pattern)


def aggregate_of(subject: str) -> Aggregate | None:
    parsed = parse_event_subject(subject)
    return parsed.aggregate if parsed is not None else None


# -- player accounts -------------------------------------------------------------------------
# ``sicbo.acct.<player>.<event-type token>``: a player's account is one aggregate, in its own
# stream (a player bets at many tables, and the table log will be partitioned by table). The
# game's entries, each about one slip of a table's round, also name the round:
# ``sicbo.acct.<player>.<event-type token>.<table>.<round>`` (since contracts 1.2.0), so the
# round's debits are one filter across every account (``round_entries``: the reconciler at
# "no more bets" reads those, not every account's debits). The account's filter ``.>`` holds
# both forms; a game entry stored before 1.2.0 is on the shorter one.


def account_event(player: str, event_type: Any, table: str | None = None, round_no: int = 0) -> str:
    """Subject of one event of a player's account (a game entry's names its table's round)."""
    subject = f"{_ACCOUNTS}.{_token(player, 'player')}.{token(event_type)}"
    return subject if table is None else f"{subject}.{_token(table, 'table')}.{round_no}"


def account_subject_of(evt: Any) -> str:
    """Where an account's event is appended: a game entry (one with a table and a round)
    under its round."""
    table = getattr(evt, "table", None)
    return account_event(evt.player, evt, table, getattr(evt, "round", 0) if table else 0)


def account_filter(player: str) -> str:
    """Every event of one account, in log order (its expectation filter too)."""
    return f"{_ACCOUNTS}.{_token(player, 'player')}.>"


def account_events_of_type(event_type: Any, player: str = "*") -> str:
    """One cashier's event type's subjects, of an account or of every account (``*``)."""
    return f"{_ACCOUNTS}.{player}.{token(event_type)}"


def game_entries_of_type(event_type: Any, player: str = "*") -> str:
    """One game entry type's subjects (under their table's round), of one account or all."""
    return f"{_ACCOUNTS}.{player}.{token(event_type)}.*.*"


def round_entries(event_type: Any, table: str, round_no: int) -> str:
    """Every account's game entries of one type about ``table``'s round ``round_no``."""
    return f"{_ACCOUNTS}.*.{token(event_type)}.{_token(table, 'table')}.{round_no}"


class AccountSubject(NamedTuple):
    player: str
    token: str
    table: str | None = None  # a game entry's table and round (None: a cashier's, or pre-1.2.0)
    round: int | None = None


@lru_cache(maxsize=4096)  # an account's entries of a round share a subject; replay parses each
def parse_account_subject(subject: str) -> AccountSubject | None:
    """The parts of an account event subject; None for any other subject."""
    parts = subject.split(".")
    if len(parts) not in (4, 6) or f"{parts[0]}.{parts[1]}" != _ACCOUNTS or not all(parts[2:]):
        return None
    if len(parts) == 4:
        return AccountSubject(parts[2], parts[3])
    if not parts[5].isdigit() or not parts[5].isascii():
        return None
    return AccountSubject(parts[2], parts[3], parts[4], int(parts[5]))


# -- commands, queries, results --------------------------------------------------------------


_BAD_TOKEN = re.compile(r"[\s.*>]")


def _token(value: str, what: str) -> str:
    """One subject token: refuse an empty one, or one that would split or widen the subject."""
    if not value or _BAD_TOKEN.search(value):
        raise ValueError(f"{what} {value!r} cannot be a subject token (empty, a dot, * or >)")
    return value


def command(table: str, service: str, sender: str) -> str:
    """Where ``sender`` (a role or a service account, :mod:`.access`) sends ``service`` a
    command for ``table`` (the accounts service: for a player's account, ``table`` is the
    player: the command's ``key``)."""
    return (
        f"{_COMMANDS}.{_token(table, 'table')}.{_token(service, 'service')}"
        f".{_token(sender, 'sender')}"
    )


def commands_of(service: str, sender: str = "*", table: str = "*") -> str:
    """A service's commands (its queue subscription: every table, every sender), or one
    sender's to it (that sender's NATS permission)."""
    return f"{_COMMANDS}.{table}.{service}.{sender}"


class CommandSubject(NamedTuple):
    table: str
    service: str
    sender: str


def parse_command_subject(subject: str) -> CommandSubject | None:
    """The parts of a command subject; None for any other subject."""
    parts = subject.split(".")
    if len(parts) != 5 or f"{parts[0]}.{parts[1]}" != _COMMANDS or not all(parts[2:]):
        return None
    return CommandSubject(parts[2], parts[3], parts[4])


def query(table: str, name: str) -> str:
    """A table's query (``bets.history``, ``stats``, ``recall``)."""
    return f"{_QUERIES}.{table}.{name}"


def queries_of(name: str) -> str:
    """Every table's queries of one kind (one queue group across the replicas)."""
    return f"{_QUERIES}.*.{name}"


HISTORY_QUERY = "bets.history"  # 004 "Rekod Pertaruhan", answered by wager intake
STATS_QUERY = "stats"  # the statistics board (004), answered by the board
RECALL_QUERY = "recall"  # game recall of the last rounds, answered by the board


def history_query(table: str) -> str:
    """Where a player's bet history of a table is asked for (:mod:`.wagers`)."""
    return query(table, HISTORY_QUERY)


def stats_query(table: str) -> str:
    """Where a table's statistics board is asked for (:mod:`.board`)."""
    return query(table, STATS_QUERY)


def recall_query(table: str) -> str:
    """Where a table's game recall is asked for (:mod:`.board`)."""
    return query(table, RECALL_QUERY)


def results(table: str) -> str:
    return f"{_RESULTS}.{table}"


#: Every table's results and nothing else (no heartbeats): one token after the prefix.
RESULTS_TABLES = f"{_RESULTS}.*"
#: The last token of a table's heartbeat subject.
HEARTBEAT = "heartbeat"
#: Every table's heartbeats.
HEARTBEATS_ALL = f"{_RESULTS}.*.{HEARTBEAT}"


def heartbeat(table: str) -> str:
    """Where the feed says a table's last result every few seconds (docs/feed.md): apart from
    ``results(table)``, whose last message the feed reads to know what it published."""
    return f"{_RESULTS}.{_token(table, 'table')}.{HEARTBEAT}"


def table_of(subject: str) -> str | None:
    """The table of a command, query, result, layout, demo or event subject (the token after
    the two-token prefix); None when the subject has none."""
    parts = subject.split(".")
    if len(parts) < 3 or parts[0] != "sicbo" or not parts[2]:
        return None
    return parts[2]


# -- services, layout controllers, the gateway --------------------------------------------------


def service_ping(service: str) -> str:
    """Liveness of a service (any replica answers)."""
    return f"sicbo.svc.{service}.ping"


def layout_light(table: str) -> str:
    """The table's layout controller: request LightLayout, reply LayoutReport (000 §2.3)."""
    return f"sicbo.layout.{table}.light"


def layout_ping(table: str) -> str:
    """Liveness of the table's layout controller process."""
    return f"sicbo.layout.{table}.ping"


def inbox(user: str) -> str:
    """A user's own inbox prefix (``inbox_prefix=`` of nats-py): a terminal, a reader or the
    gateway may subscribe to its own replies only (``<prefix>.>``)."""
    return f"{INBOX_ROOT}.{_token(user, 'user')}"


INBOX_ROOT = "_INBOX"


def is_inbox(subject: str) -> bool:
    """Whether a reply subject is an inbox (``_INBOX.<token>...``: nats-py's own inboxes and
    each user's :func:`inbox` prefix): the only subjects a request is answered on. No stream of
    the floor stores an inbox subject, so an answer never becomes an entry of a log."""
    head, _, rest = subject.partition(".")
    tokens = rest.split(".")
    return (
        head == INBOX_ROOT
        and bool(rest)
        and all(tokens)
        and not any(t in ("*", ">") or " " in t for t in tokens)
    )


#: The gateway's replies and reads come on this inbox prefix only (its NATS permissions).
GATEWAY_INBOX = inbox("gateway")
#: A revoked operator's sessions, announced to every gateway replica (the gateway user only).
GATEWAY_SESSIONS_REVOKED = "sicbo.gateway.sessions.revoked"


# -- the demo floor (``make run``) ---------------------------------------------------------------


class DemoAsk(StrEnum):
    """What the web terminal asks the demo floor's simulated dealer (:mod:`.demo`)."""

    TAKEOVER = "takeover"  # a person takes the table over
    RELEASE = "release"  # and hands it back
    CONTROL = "control"  # who plays the table now


def demo(table: str, ask: DemoAsk) -> str:
    return f"sicbo.demo.{table}.{ask.value}"


# -- the partners' copy of the results -----------------------------------------------------------

#: The partners' copy of the feed in the PARTNERS account.
PARTNER_STREAM = "RESULTS"
#: Where the floor's mirror consumer delivers; FLOOR exports ``sicbo.partners.deliver.>``.
PARTNER_DELIVER_ALL = "sicbo.partners.deliver.>"


def partner_deliver(stream: str = PARTNER_STREAM) -> str:
    return f"sicbo.partners.deliver.{stream}"
