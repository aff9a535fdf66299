"""The accounts service: the operator's cashier's commands behind the shell.

Each player's account is one aggregate (``sicbo.acct.<player>.>`` in ``SICBO_ACCOUNTS``):
every append expects the account's last sequence, so of two commands racing to spend the same
funds, one is stored and the other decided again on the new balance (and refused if the funds
are gone). A retried command id is answered "duplicate" and appends nothing.
"""

from faststream import FastStream

from sicbo.accounts import decider
from sicbo.shell.bootstrap import service_app
from sicbo.shell.commands import DeciderSpec, KeyedLog
from sicbo_contracts.accounts import AccountCommand, AccountEvent
from sicbo_contracts.subjects import (
    ACCOUNT_SERVICE,
    ACCOUNT_STREAM,
    account_filter,
    account_subject_of,
)

ACCOUNT_LOG = KeyedLog(
    stream=ACCOUNT_STREAM, subject_of=account_subject_of, filter_of=account_filter
)

SPEC: DeciderSpec[decider.AccountState] = DeciderSpec(
    service=ACCOUNT_SERVICE,
    keyed=ACCOUNT_LOG,
    command_type=AccountCommand,
    event_type=AccountEvent,
    initial=decider.initial_state,
    evolve=decider.evolve,
    decide=decider.decide,
)


def app(nats_url: str) -> FastStream:
    return service_app(SPEC.service, nats_url, commands=SPEC)
