"""Which service takes which command, by the command's type tag."""

from typing import Any, get_args

from sicbo_contracts.base import tag_of
from sicbo_contracts.dice import DiceCommand
from sicbo_contracts.lifecycle import LifecycleCommand
from sicbo_contracts.wagers import WagerCommand

COMMANDS_BY_SERVICE: dict[str, tuple[Any, ...]] = {
    "lifecycle": get_args(LifecycleCommand),
    "dice": get_args(DiceCommand),
    "wagers": get_args(WagerCommand),
}

SERVICE_OF_TAG: dict[str, str] = {
    tag_of(cls): service for service, classes in COMMANDS_BY_SERVICE.items() for cls in classes
}
