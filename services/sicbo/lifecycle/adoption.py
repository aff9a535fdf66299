"""Adopting a profile's optional choices: the application and the regulator's approval.

002/2004 art. 8 (許可): 場方決定採用本規章第一條、第二條、第五條及第六條規定的選項時 / 須先獲得博彩
監察協調局許可 / 且應於預定採用日期前三個工作天提交申請書: "when the house decides to adopt the
options of articles 1, 2, 5 and 6 it must first obtain the permission of the DICJ, and hand in
the application three working days before the planned adoption date".

- ``ProposePaytable`` records the application (the operator's), with the day it went in;
- ``ApprovePaytable`` records the permission: its adoption date is at least the notice after
  the application (working days of the table's calendar), never before the approval's own day
  (prior, not retroactive), and it names the regulator's reference where the profile's rule
  requires one. What the rule is (notice, reference) is the profile's ``[authorisation]``.
"""

from datetime import date, datetime

from sicbo.decider import Refused, refuse, require_role, stamp
from sicbo.game.choices import Authorisation
from sicbo.game.errors import InvalidChoice
from sicbo.game.house_edge import house_edge_report
from sicbo.game.profiles import Profile
from sicbo.lifecycle.calendar import TableCalendar
from sicbo.lifecycle.guards import calendar_of, profile_of, require_open
from sicbo.lifecycle.paytables import exact_ratio, same_profile
from sicbo.lifecycle.state import LifecycleState, Proposal
from sicbo_contracts.base import Role
from sicbo_contracts.lifecycle import (
    ApprovePaytable,
    LifecycleEvent,
    PaytableApproved,
    PaytableProposed,
    ProposePaytable,
)


def _authorisation(profile: Profile) -> Authorisation:
    auth = profile.authorisation
    if not profile.choices or auth is None:
        refuse(
            f"profile {profile.id!r} has no optional choices to adopt: its paytable is fixed"
            " (optional choices are those of 002/2004 arts. 1, 2, 5 and 6, authorised under"
            " art. 8)"
        )
    return auth


def propose_paytable(
    state: LifecycleState, command: ProposePaytable, at: datetime
) -> list[LifecycleEvent]:
    require_role(command, (Role.OPERATOR,), rule="002/2004 art. 8: the operator applies")
    config = require_open(state)
    profile = profile_of(config)
    auth = _authorisation(profile)
    try:
        paytable = profile.paytable(command.choices)
    except InvalidChoice as error:
        raise Refused(f"choices: {error}") from None
    calendar = calendar_of(config)
    today = calendar.day_of(at)
    if command.applied_on > today:
        refuse(
            f"applied_on {command.applied_on} is in the future (today is {today} at"
            f" {calendar.name}): the application to the regulator must already have been made"
            f" ({auth.rule})"
        )
    report = house_edge_report(paytable)
    return [
        PaytableProposed(
            **stamp(command, at),
            paytable=paytable.ref,
            choices=dict(sorted(paytable.choices.items())),
            applied_on=command.applied_on,
            max_rtp=exact_ratio(report.max_rtp),
            no_house_edge=sorted(edge.bet.id for edge in report.no_house_edge),
        )
    ]


def _working_days(calendar: TableCalendar, applied_on: date, earliest: date) -> str:
    holidays = calendar.skipped(applied_on, earliest)
    listed = f", not counting the holiday(s) {', '.join(map(str, holidays))}" if holidays else ""
    return f"working days are Mon-Fri at {calendar.name}{listed}"


def _require_notice(
    calendar: TableCalendar, auth: Authorisation, proposal: Proposal, adoption: date
) -> None:
    """002/2004 art. 8: the application went in ``notice_working_days`` before adoption."""
    earliest = calendar.earliest_adoption(proposal.applied_on, auth.notice_working_days)
    if adoption < earliest:
        refuse(
            f"applied for on {proposal.applied_on:%a %Y-%m-%d}, paytable {proposal.paytable!r}"
            f" can be adopted on {earliest:%a %Y-%m-%d} at the earliest, not"
            f" {adoption:%a %Y-%m-%d}: the application must reach the regulator"
            f" {auth.notice_working_days} working days before the adoption date ({auth.rule};"
            f" {_working_days(calendar, proposal.applied_on, earliest)})"
        )


def approve_paytable(
    state: LifecycleState, command: ApprovePaytable, at: datetime
) -> list[LifecycleEvent]:
    require_role(command, (Role.OPERATOR, Role.SUPERVISOR), rule="002/2004 art. 8")
    config = require_open(state)
    profile = profile_of(config)
    proposal = state.proposals.get(command.paytable)
    if proposal is None:
        known = ", ".join(state.proposals) or "none"
        refuse(
            f"paytable {command.paytable!r} was never proposed at {state.table} (proposed:"
            f" {known}); the operator applies first (002/2004 art. 8)"
        )
    if not same_profile(proposal.paytable, profile):
        refuse(
            f"paytable {proposal.paytable!r} is not of profile {profile.id!r} v{profile.version},"
            " which this table plays"
        )
    auth = _authorisation(profile)
    reference = command.regulator_reference.strip()
    if auth.reference_required and not reference:
        refuse(
            f"regulator_reference: none given for {proposal.paytable!r}; an approval records"
            f" the reference of the permission of the {auth.regulator}, obtained before"
            f" adoption ({auth.rule})"
        )
    calendar = calendar_of(config)
    _require_notice(calendar, auth, proposal, command.adoption_date)
    today = calendar.day_of(at)
    if command.adoption_date < today:
        refuse(
            f"adoption date {command.adoption_date} is before the approval ({today} at"
            f" {calendar.name}): the regulator's authorisation comes before adoption"
            f" ({auth.rule})"
        )
    flagged = sorted(proposal.no_house_edge)
    acknowledged = sorted(set(command.acknowledged_no_house_edge))
    if acknowledged != flagged:
        refuse(
            f"paytable {proposal.paytable!r} has NO HOUSE EDGE on: {', '.join(flagged) or 'none'}"
            f" (max RTP {proposal.max_rtp}); the approval must acknowledge exactly these bets,"
            f' it acknowledged: {", ".join(acknowledged) or "none"} (RULES.md "Triples")'
        )
    return [
        PaytableApproved(
            **stamp(command, at),
            paytable=proposal.paytable,
            adoption_date=command.adoption_date,
            no_house_edge=flagged,
            regulator_reference=reference,
        )
    ]
