"""The wager intake service: the slip and colour-check decider behind the shell, plus the bet
history query (004 "Rekod Pertaruhan").

(invariant) No wager after "no more bets" (000 §3.9, DESIGN.md): the state is folded from the
table's lifecycle and bets aggregates, and every append expects the LIFECYCLE filter
(``sicbo.evt.<table>.lc.>``) to still end at the event the decision saw. Slips do not move
that filter, so they do not conflict with each other; once ``BettingClosed`` is stored, every
slip decided before it is refused by the server (10071) and re-decided on the closed round.

The state also reads settlement's results: what a colour-check wager won comes back to the
player's checks, and a token is used or returned, as settlement paid it (sicbo.wagers.media).
"""

from faststream import FastStream

from sicbo.accounts.writer import AccountWriter
from sicbo.shell.bootstrap import Runtime, service_app
from sicbo.shell.commands import DeciderSpec
from sicbo.shell.listener import QueryHandler
from sicbo.wagers import decider
from sicbo.wagers.queries import HistoryQueries
from sicbo.wagers.wallet import StakeWallet
from sicbo_contracts.dice import DiceEvent
from sicbo_contracts.lifecycle import LifecycleEvent
from sicbo_contracts.settlement import SettlementEvent
from sicbo_contracts.subjects import HISTORY_QUERY, Aggregate, queries_of
from sicbo_contracts.wagers import WagerCommand, WagerEvent

SPEC: DeciderSpec[decider.WagerState] = DeciderSpec(
    service="wagers",
    aggregate=Aggregate.BETS,
    command_type=WagerCommand,
    event_type=LifecycleEvent | DiceEvent | WagerEvent | SettlementEvent,
    initial=decider.initial_state,
    evolve=decider.evolve,
    decide=decider.decide,
    reads=frozenset({Aggregate.LIFECYCLE, Aggregate.BETS, Aggregate.SETTLE}),
    expects_on=Aggregate.LIFECYCLE,
    msg_id_of=decider.msg_id_of,
    one_at_a_time=False,  # slips pipeline: their expectation is on the lifecycle, not each other
    # A slip's first try decides on the table's state as read up to 25 ms before, holding every
    # slip this replica stored since: a flood of slips reads the log once in 25 ms, not once a
    # wave. What it may miss is another writer's since: the lifecycle's (the expectation
    # refuses the slip: no bet after "no more bets", 000 §3.9), another replica's slip of the
    # same version or medium (its msg id is taken: decided again on a fresh read), settlement's
    # returns of colour checks (a refusal is decided again on a fresh read). docs/architecture.md
    reuse_state_for=0.025,
)


def app(nats_url: str) -> FastStream:
    def queries(runtime: Runtime) -> dict[str, QueryHandler]:
        return {queries_of(HISTORY_QUERY): HistoryQueries(runtime.store).on_request}

    return service_app(
        SPEC.service,
        nats_url,
        commands=SPEC,
        queries=queries,
        # Stakes from the player's account, debited before the slip is stored (issue 14).
        escrow=lambda nc: StakeWallet(AccountWriter(nc)),
    )
