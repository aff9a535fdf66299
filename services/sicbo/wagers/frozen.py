"""A cheaper ``dataclasses.replace`` for the wager state's frozen, slotted dataclasses.

``dataclasses.replace`` builds the copy through ``__init__``, which for a frozen class sets
every field through ``object.__setattr__`` after checking each one's ``init`` flag: about
half of the wager fold's own time went there. These classes have no ``__post_init__`` and no
field with ``init=False`` (checked once per class), so a copy may be made slot by slot.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")

_set = object.__setattr__


_names: dict[type, tuple[str, ...]] = {}


def _slots(cls: type) -> tuple[str, ...]:
    names = _names.get(cls)
    if names is None:
        fields = dataclasses.fields(cls)
        if hasattr(cls, "__post_init__") or any(not f.init for f in fields):
            raise TypeError(f"{cls.__name__} cannot be copied slot by slot")
        names = _names[cls] = tuple(f.name for f in fields)
    return names


def replace(obj: T, **changes: Any) -> T:
    """``obj`` with ``changes`` (field names of its class), as ``dataclasses.replace``."""
    cls: type[T] = type(obj)
    names = _slots(cls)
    copy: T = object.__new__(cls)
    for name in names:
        _set(copy, name, changes.pop(name) if name in changes else getattr(obj, name))
    if changes:
        raise TypeError(f"{cls.__name__} has no field {', '.join(changes)}")
    return copy
