"""Contract conventions of DESIGN.md, checked on every Struct of every union."""

import inspect
from typing import get_args

import msgspec
import pytest

from sicbo_contracts import schemas
from sicbo_contracts.base import Command, Event

STRUCTS = sorted(
    {cls for union in schemas.UNIONS.values() for cls in get_args(union)}, key=lambda c: c.__name__
)


@pytest.mark.parametrize("cls", STRUCTS, ids=lambda c: c.__name__)
def test_frozen_keyword_only_and_versioned_tag(cls: type[msgspec.Struct]) -> None:
    config = cls.__struct_config__
    assert config.frozen, cls
    parameters = inspect.signature(cls).parameters.values()
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters), cls
    assert isinstance(config.tag, str) and config.tag.endswith(".v1"), cls
    assert config.tag != cls.__name__


@pytest.mark.parametrize("cls", STRUCTS, ids=lambda c: c.__name__)
def test_commands_refuse_unknown_fields_and_events_accept_them(cls: type) -> None:
    config = cls.__struct_config__  # type: ignore[attr-defined]
    if issubclass(cls, Command):
        assert config.forbid_unknown_fields
    if issubclass(cls, Event):
        assert not config.forbid_unknown_fields
        assert {"table", "actor", "at"} <= set(cls.__struct_fields__)  # type: ignore[attr-defined]
