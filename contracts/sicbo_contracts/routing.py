"""Which service takes which command, by the command's type tag, and where a command goes."""

from typing import Any, get_args

from sicbo_contracts.access import sender_for
from sicbo_contracts.accounts import AccountCommand, PlayerAccountCommand
from sicbo_contracts.base import Command, tag_of
from sicbo_contracts.dice import DiceCommand
from sicbo_contracts.lifecycle import LifecycleCommand
from sicbo_contracts.subjects import command
from sicbo_contracts.wagers import WagerCommand

COMMANDS_BY_SERVICE: dict[str, tuple[Any, ...]] = {
    "lifecycle": get_args(LifecycleCommand),
    "dice": get_args(DiceCommand),
    "wagers": get_args(WagerCommand),
    "accounts": get_args(AccountCommand),
}

SERVICE_OF_TAG: dict[str, str] = {
    tag_of(cls): service for service, classes in COMMANDS_BY_SERVICE.items() for cls in classes
}


def command_subject(cmd: Command | PlayerAccountCommand) -> str:
    """Where ``cmd`` is sent: its service's subject of the sender its actor's role is (a
    service's command: that service's account, :func:`sicbo_contracts.access.sender_for`).
    Only a NATS user allowed that sender's subjects may publish there."""
    tag = tag_of(cmd)
    return command(cmd.key, SERVICE_OF_TAG[tag], sender_for(cmd.actor.role, tag))
