"""Illumination of the layout's winning areas (000 §2.3, §5.5; 002 art. 3(2)).

Events on ``sicbo.evt.<table>.lamp.<round>.<type>``, appended by the illumination service once
per result (a confirmed result, and each correction of it): the layout was lit as expected, or
it was not (an equipment fault: 000 §7.6-7.7, 004 "Ralat Pengendalian").

The layout controller protocol, request/reply on ``sicbo.layout.<table>.light``: the service
sends :class:`LightLayout` (the winning spots, as canonical bet ids); the controller switches
every lamp off, lights those spots and replies :class:`LayoutReport` with what it actually lit.
No reply within the service's deadline is a fault too.
"""

import msgspec

from sicbo_contracts.base import Dice, Event, Id, RoundNo, TableId

# ---- events -----------------------------------------------------------------------------------


class LayoutIlluminated(Event, frozen=True, kw_only=True, tag="lamp.layout-illuminated.v1"):
    """The controller lit exactly the winning areas of the result (000 §2.3)."""

    round: int
    dice: Dice  # the result lit, lowest to highest
    spots: list[str]  # bet ids lit, in catalogue order
    #: Stream sequence of the ResultConfirmed or ResultCorrected this lights.
    source_seq: int


class IlluminationFault(Event, frozen=True, kw_only=True, tag="lamp.illumination-fault.v1"):
    """The winning areas were not lit, or not lit correctly (000 §7.6): the wagers still settle
    by the dice, and the lifecycle is told of the malfunction (000 §7.7, 004)."""

    round: int
    dice: Dice
    expected: list[str]  # the winning spots the controller was asked to light
    missing: list[str]  # expected but not lit
    extra: list[str]  # lit but not winning
    timed_out: bool  # no report within the deadline (or no controller answered at all)
    detail: str
    source_seq: int


IlluminationEvent = LayoutIlluminated | IlluminationFault

# ---- the layout controller protocol ----------------------------------------------------------


class LightLayout(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    tag="layout.light.v1",
    tag_field="type",
    forbid_unknown_fields=True,
):
    """Switch every lamp off, then light ``spots`` (bet ids); reply with a LayoutReport."""

    request_id: Id
    table: TableId
    round: RoundNo
    spots: list[str]


class LayoutReport(
    msgspec.Struct, frozen=True, kw_only=True, tag="layout.report.v1", tag_field="type"
):
    """What the controller lit, as it reads its own lamps back."""

    request_id: Id
    table: TableId
    round: int
    lit: list[str]


LayoutMessage = LightLayout | LayoutReport
