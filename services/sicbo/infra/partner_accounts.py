"""The partners' side of the floor's NATS: the ``PARTNERS`` account and one account per partner.

``PARTNERS`` holds the copy of the results feed (the mirror ``RESULTS`` of the floor's
``SICBO_RESULTS``, :mod:`sicbo.results.partners`), which republishes every stored result on
``sicbo.results.<table>`` and answers Direct Get. Its only user is the operator's
``partners-admin``; no partner connects to it.

Each registered partner (:mod:`sicbo.infra.partner_registry`) has an account of its own,
``PARTNER_<NAME>``, with one user known by its public nkey, that imports from ``PARTNERS``:

- the *stream* ``sicbo.results.>``: the republished results, delivered into the partner's
  account;
- the *service* ``$JS.API.DIRECT.GET.RESULTS`` (and its ``.>`` form, the subject in the
  API subject), exported with ``response_type: stream`` because a Direct Get batch is many
  replies (measured on nats-server 2.15.1: with the default singleton response, a batch
  delivers its first message only).

A service import's replies are routed back into the requester's own account: a Direct Get
whose reply subject is ``sicbo.results.T1`` (or any subject another partner listens on) is
answered in the sender's account only, so no partner can put a message on a subject another
partner receives (issue 12: with one shared account a partner could repeat a stored result to
every other partner's live subscription). Inboxes (``_INBOX.>``) are per account too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sicbo.infra.nats_permissions import API, INBOX, Account, NkeyUser, Permissions, User
from sicbo.infra.partner_registry import Partner
from sicbo_contracts.subjects import PARTNER_DELIVER_ALL, RESULTS_ALL, RESULTS_STREAM

PARTNERS_ACCOUNT = "PARTNERS"
PARTNER_COPY = "RESULTS"
#: The partners' history: Direct Get on the copy, the request in the body or in the subject.
DIRECT_GET = (f"{API}.DIRECT.GET.{PARTNER_COPY}", f"{API}.DIRECT.GET.{PARTNER_COPY}.>")

PARTNERS_ADMIN = User(
    "partners-admin",
    "PARTNERS_ADMIN_PASSWORD",
    Permissions(
        # No Direct Get: a request's reply subject escapes publish permissions, and in PARTNERS
        # one aimed at sicbo.results.* would reach every partner through the stream export.
        publish=(
            f"{API}.INFO",
            f"{API}.STREAM.INFO.{PARTNER_COPY}",
            f"{API}.STREAM.CREATE.{PARTNER_COPY}",
            # `sicbo provision --upgrade` / `make run`: turns on what a newer floor adds
            # (allow_msg_ttl, sicbo.provisioning.ADDITIVE), nothing else of the copy.
            f"{API}.STREAM.UPDATE.{PARTNER_COPY}",
        ),
        subscribe=(INBOX, RESULTS_ALL),
    ),
    "the operator's user in PARTNERS: creates, inspects and upgrades the copy"
    " (`sicbo results copy`)",
)

#: What a partner's user may do in its own account: receive results, ask for their history.
PARTNER_PERMISSIONS = Permissions(publish=DIRECT_GET, subscribe=(RESULTS_ALL, INBOX))


def partners_account(partners: Sequence[Partner]) -> Account:
    """``PARTNERS``: the copy, the floor's imports it needs, the exports to each partner."""
    importers = [p.account for p in partners]
    exports: tuple[dict[str, Any], ...] = ()
    if importers:  # an export to no account at all would be a public one
        exports = (
            {"stream": RESULTS_ALL, "accounts": importers},
            *(
                {"service": subject, "accounts": importers, "response_type": "stream"}
                for subject in DIRECT_GET
            ),
        )
    return Account(
        PARTNERS_ACCOUNT,
        (PARTNERS_ADMIN,),
        jetstream=True,
        imports=(
            # The FLOOR's JetStream API under the prefix the copy names ($JS.floor.API),
            # limited to creating the mirror's consumer. No partner user may publish here.
            {
                "service": {
                    "account": "FLOOR",
                    "subject": f"{API}.CONSUMER.CREATE.{RESULTS_STREAM}",
                },
                "to": f"$JS.floor.API.CONSUMER.CREATE.{RESULTS_STREAM}",
            },
            {"service": {"account": "FLOOR", "subject": f"$JS.FC.{RESULTS_STREAM}.>"}},
            {"stream": {"account": "FLOOR", "subject": PARTNER_DELIVER_ALL}},
        ),
        exports=exports,
        why="the partners' copy of the results feed; exported to each partner's account",
    )


def partner_account(partner: Partner) -> Account:
    """A partner's own account: its nkey user, the results and their history imported."""
    source = PARTNERS_ACCOUNT
    return Account(
        partner.account,
        (),
        nkey_users=(
            NkeyUser(
                partner.name,
                partner.public_key,
                PARTNER_PERMISSIONS,
                f"partner {partner.name} (added {partner.added.isoformat()}): results and"
                " their history, nothing else",
            ),
        ),
        imports=(
            {"stream": {"account": source, "subject": RESULTS_ALL}},
            *({"service": {"account": source, "subject": s}} for s in DIRECT_GET),
        ),
        why=f"integration partner {partner.name}: receives results, reads their history",
    )
