"""A suspended online round resumed (004 "Ralat Pengendalian"): the supervisor's command and
the betting countdown that starts again. Part of the round lifecycle's contracts
(:mod:`.lifecycle` lists them in its unions); kept apart so that module stays readable."""

from sicbo_contracts.base import Command, Event, Reason, RoundNo, Time


class ResumeRound(Command, frozen=True, kw_only=True, tag="round.resume.v1"):
    """004 "Ralat Pengendalian": the dealer told the supervisor of the problem, it was solved
    quickly, so the suspended round "resumes and continues as usual" (suspend-round tables;
    a land table's fault is cleared by an inspector, ClearFault, 000 §7.7)."""

    round: RoundNo  # the suspended round
    detail: Reason  # what was fixed


class BettingResumed(Event, frozen=True, kw_only=True, tag="round.betting-resumed.v1"):
    """Betting paused by a suspension opens again when the suspension is lifted (appended
    with FaultCleared, in one batch): the countdown now ends at ``closes_at`` (004)."""

    round: int
    closes_at: Time
