"""A cheaper ``dataclasses.replace`` for the wager state's frozen, slotted dataclasses.

``dataclasses.replace`` builds the copy through ``__init__``, which for a frozen class sets
every field through ``object.__setattr__`` after checking each one's ``init`` flag: about
half of the wager fold's own time went there. These classes have no ``__post_init__`` and no
field with ``init=False`` (checked once per class), so a copy may be made slot by slot.

The copy of each class is a function generated once for it (as ``dataclasses`` generates
``__init__``): every field read by name from the old object, then the changes set over it.
A loop over the field names with ``getattr`` and a test per field was the largest own cost
of replay's wager fold (issue 16 item 2, docs/benchmarks.md).
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

Copier = Callable[[Any, dict[str, Any]], Any]

_copiers: dict[type, Copier] = {}


def _copier(cls: type) -> Copier:
    fields = dataclasses.fields(cls)
    if hasattr(cls, "__post_init__") or any(not f.init for f in fields):
        raise TypeError(f"{cls.__name__} cannot be copied slot by slot")
    names = tuple(f.name for f in fields)
    if not all(name.isidentifier() for name in names):  # dataclasses' own rule; never here
        raise TypeError(f"{cls.__name__} has a field that is not an identifier")
    slotted = {n for n in names if isinstance(cls.__dict__.get(n), types.MemberDescriptorType)}
    body = "\n".join(
        f"    _set_{name}(copy, obj.{name})"
        if name in slotted
        else f"    _set(copy, {name!r}, obj.{name})"
        for name in names
    )
    source = (
        "def copy(obj, changes):\n"
        "    copy = _new(_cls)\n"
        f"{body}\n"
        "    if changes:\n"
        "        if not _names.issuperset(changes):\n"
        "            _unknown(changes)\n"
        "        for name, value in changes.items():\n"
        "            _set(copy, name, value)\n"
        "    return copy\n"
    )

    def unknown(changes: dict[str, Any]) -> None:
        extra = ", ".join(name for name in changes if name not in names)
        raise TypeError(f"{cls.__name__} has no field {extra}")

    scope: dict[str, Any] = {
        "_new": object.__new__,
        "_set": object.__setattr__,
        "_cls": cls,
        "_names": frozenset(names),
        "_unknown": unknown,
    }
    for name in slotted:  # each slot's own setter: no look-up of the name per copy
        scope[f"_set_{name}"] = cls.__dict__[name].__set__
    exec(source, scope)  # the source is made above from the class's own field names
    copier: Copier = scope["copy"]
    return copier


def replace(obj: T, **changes: Any) -> T:
    """``obj`` with ``changes`` (field names of its class), as ``dataclasses.replace``."""
    cls = type(obj)
    copier = _copiers.get(cls)
    if copier is None:
        copier = _copiers[cls] = _copier(cls)
    copy: T = copier(obj, changes)
    return copy
