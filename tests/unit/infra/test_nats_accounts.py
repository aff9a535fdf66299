"""The accounts grant command subjects by sender (sicbo_contracts.access), so a user's NATS
credential is the authority of the commands it sends (DESIGN.md Roles). On a real server:
tests/deploy/test_nats_permissions.py."""

from pathlib import Path

import pytest

from sicbo.infra.nats_accounts import ACCOUNTS, SERVICES, users
from sicbo.infra.nats_permissions import ANSWERS
from sicbo.resources import floor_resources
from sicbo_contracts.access import HUMAN_SENDERS, SENDERS
from sicbo_contracts.base import Role
from sicbo_contracts.subjects import parse_command_subject

ROOT = Path(__file__).resolve().parents[3]


def senders_granted(user: str) -> set[str]:
    """The senders a user may publish commands as (its command publish subjects' last token);
    none for a user of a whole account (``sys``; ``floor`` has an allow-all with denials)."""
    permissions = users()[user].permissions
    if permissions is None:
        return set()
    parsed = (parse_command_subject(s) for s in permissions.publish)
    return {p.sender for p in parsed if p is not None}


def test_no_user_may_publish_a_command_subject_of_any_sender() -> None:
    for account in ACCOUNTS:
        for user in account.users:
            if user.permissions is None:
                continue  # the operator's tooling: its whole account (deploy/nats/README.md)
            for subject in user.permissions.publish:
                parsed = parse_command_subject(subject)
                if parsed is not None:
                    assert parsed.sender in SENDERS, (user.name, subject)


@pytest.mark.parametrize(
    ("user", "senders"),
    [
        ("dealer", {"dealer"}),
        ("supervisor", {"supervisor"}),
        ("inspector", {"inspector"}),
        ("operator", {"operator"}),
        ("settlement", {"settlement"}),  # CompleteRound only (002 art. 4)
        ("illumination", {"illumination"}),  # ReportMalfunction (000 §7.6-7.7)
        ("reader", {"reader"}),  # ReadDice only
        ("gateway", set(HUMAN_SENDERS)),  # as the person signed in, never a service
        ("lifecycle", set()),  # its countdown closes betting in its own process
        ("dice", set()),
        ("wagers", set()),
        ("results", set()),
        ("board", set()),
        ("layout", set()),
    ],
)
def test_each_user_sends_as_its_own_sender_only(user: str, senders: set[str]) -> None:
    assert senders_granted(user) == senders


def test_a_service_only_command_has_one_user() -> None:
    for name, sender in SENDERS.items():
        if sender.role is not Role.SERVICE:
            continue
        holders = [u for u in users() if name in senders_granted(u)]
        assert holders == ([name] if sender.over_nats else []), (name, holders)


@pytest.mark.parametrize("user", ["dealer", "supervisor", "inspector", "operator", "reader"])
def test_a_sender_reads_replies_on_its_own_inbox_only(user: str) -> None:
    permissions = users()[user].permissions
    assert permissions is not None
    assert permissions.subscribe == (f"_INBOX.{user}.>",)


def test_no_stream_of_the_floor_stores_an_inbox() -> None:
    """Answers go to inboxes (issue 25): none of them ever becomes an entry of a stream."""
    for resource in floor_resources(partitions=3):
        for pattern in resource.config.get("subjects", ()):
            assert pattern.split(".")[0] not in ("_INBOX", "*", ">"), (resource, pattern)


def test_every_user_that_answers_answers_on_inboxes_only() -> None:
    """Not ``allow_responses``: nats-server lets it through to any reply subject, a stream's
    included, past a deny list too (tests/deploy/test_reply_subjects.py)."""
    for name in ("layout", "gateway", *(u.name for u in SERVICES)):
        permissions = users()[name].permissions
        assert permissions is not None and ANSWERS in permissions.publish, name
    for generated in ("deploy/nats/accounts.conf", "deploy/nats-helm/values.yaml"):
        assert "allow_responses" not in (ROOT / generated).read_text()
