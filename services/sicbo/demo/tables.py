"""The demo floor's tables (``sicbo run``), and the people who play them."""

from dataclasses import dataclass

from sicbo_contracts.base import Actor, Limits, Role
from sicbo_contracts.lifecycle import TableConfig

DEALER = Actor(id="dealer-1", role=Role.DEALER)
SECOND_DEALER = Actor(id="dealer-2", role=Role.DEALER)
SUPERVISOR = Actor(id="supervisor-1", role=Role.SUPERVISOR)
OPERATOR = Actor(id="operator-1", role=Role.OPERATOR)
INSPECTOR = Actor(id="inspector-1", role=Role.INSPECTOR)
PLAYERS = tuple(f"player-{n}" for n in range(1, 6))
#: The online table's simulated players: launched by the demo operator (``<operator>:<sub>``,
#: docs/launch.md), each with an account opened with demo funds (:mod:`sicbo.demo.wallets`).
ONLINE_PLAYERS = tuple(f"demo:player-{n}" for n in range(1, 4))
DEMO_CURRENCY = "EUR"
DEMO_FUNDS = 5_000_000  # minor units each: 50 000.00 EUR of demo money
LIMITS = Limits(minimum=100, maximum=50_000, unit=100)


@dataclass(frozen=True)
class DemoTable:
    table: str
    config: TableConfig
    #: The fault of the table's simulated layout controller (``sicbo layout-controller``).
    layout_fault: str = "none"
    layout_fault_every: int = 1
    #: Who bets here; players with an account bet from it (the online table's).
    players: tuple[str, ...] = PLAYERS
    #: How long the demo dealer waits after a round's result before starting the next: the
    #: player page holds the result (dice, lit spots, the win) until the next betting opens.
    result_seconds: float = 0.0


DEMO_TABLES = (
    DemoTable(
        "demo-cca",
        TableConfig(profile="cca-1992", limits=LIMITS, layout_controller=True),
        # The "big" lamp fails on every 7th round (a fault shows when big wins): 000 §7.6-7.7.
        layout_fault="dark:big",
        layout_fault_every=7,
    ),
    DemoTable(
        "demo-macau03", TableConfig(profile="macau-2003", limits=LIMITS, layout_controller=True)
    ),
    DemoTable(
        "demo-macau04",
        TableConfig(
            profile="macau-2004",
            limits=LIMITS,
            second_person_confirmation=True,
            # A correction, invalidation or player's sign waits for a second supervisor: the
            # demo's sofia proposes, sam approves (TableConfig.dual_control).
            dual_control=True,
            layout_controller=True,
        ),
    ),
    DemoTable(
        "demo-online",
        TableConfig(
            profile="online-live",
            limits=LIMITS,
            # Time for a person to pick a chip, tap spots and confirm (issue 15).
            betting_seconds=15,
            layout_controller=True,
            currency=DEMO_CURRENCY,
        ),
        players=ONLINE_PLAYERS,
        result_seconds=8.0,
    ),
)
