"""Every NATS subject of the floor, in one place (DESIGN.md "Event store on JetStream").

Events: ``sicbo.evt.<table>.<aggregate>.<round>.<event-type>``. Table-level events (opened,
limits, seats, faults) use round 0, so one filter still fetches a table's whole lifecycle.
Commands: ``sicbo.cmd.<table>.<service>`` (request/reply, a queue group per service).
Public results for partners live apart: ``sicbo.results.<table>`` on their own stream.
"""

from enum import StrEnum

EVENT_STREAM = "SICBO"
EVENTS_ALL = "sicbo.evt.>"
RESULTS_STREAM = "SICBO_RESULTS"
RESULTS_ALL = "sicbo.results.>"
TIMERS_BUCKET = "sicbo-timers"  # KV: betting countdown deadlines
READMODELS_BUCKET = "sicbo-readmodels"  # KV: read models (statistics board, recall)
TABLE_ROUND = 0  # the "round" token of table-level events


class Aggregate(StrEnum):
    LIFECYCLE = "lc"  # table and round phases, and the result
    BETS = "bets"
    SETTLE = "settle"
    LAMP = "lamp"


def event(table: str, aggregate: Aggregate, round_no: int, event_type: str) -> str:
    """Subject of one event; the event type token has its dots replaced (``round-started-v1``)."""
    return f"sicbo.evt.{table}.{aggregate.value}.{round_no}.{event_type.replace('.', '-')}"


def aggregate_filter(table: str, aggregate: Aggregate) -> str:
    """All events of one aggregate of a table (e.g. the lifecycle filter of 000 §3.9)."""
    return f"sicbo.evt.{table}.{aggregate.value}.>"


def round_filter(table: str, aggregate: Aggregate, round_no: int) -> str:
    return f"sicbo.evt.{table}.{aggregate.value}.{round_no}.>"


def round_history(table: str, round_no: int) -> str:
    """Every aggregate's events of one round: what replay reads."""
    return f"sicbo.evt.{table}.*.{round_no}.>"


def all_tables(aggregate: Aggregate) -> str:
    return f"sicbo.evt.*.{aggregate.value}.>"


def command(table: str, service: str) -> str:
    return f"sicbo.cmd.{table}.{service}"


def commands_of(service: str) -> str:
    return f"sicbo.cmd.*.{service}"


def results(table: str) -> str:
    return f"sicbo.results.{table}"


def parse_event_subject(subject: str) -> tuple[str, Aggregate, int, str]:
    """(table, aggregate, round, event type token) of an event subject."""
    _, _, table, aggregate, round_no, event_type = subject.split(".", 5)
    return table, Aggregate(aggregate), int(round_no), event_type


# illumination


def layout_light(table: str) -> str:
    """The table's layout controller: request LightLayout, reply LayoutReport (000 §2.3)."""
    return f"sicbo.layout.{table}.light"


def layout_ping(table: str) -> str:
    """Liveness of the table's layout controller process."""
    return f"sicbo.layout.{table}.ping"
