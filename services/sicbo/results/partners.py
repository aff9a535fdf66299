"""The partners' own copy of the results feed (deploy/nats/floor.conf and README.md).

In the ``PARTNERS`` account a stream mirrors the floor's ``SICBO_RESULTS`` across accounts
(the ``FLOOR`` account exports the consumer-create API of that one stream, the delivery
subjects and the flow-control replies). The copy keeps the source's sequences, answers Direct
Get (history) and republishes each message it stores on ``sicbo.results.<table>`` in the
partners' account: partners subscribe there and only ever see stored results, never a publish
attempt the floor's stream refused.

Created with :func:`sicbo.provisioning.provision` by the partners' admin user, like the
floor's own resources: idempotent, conflicts reported and never overwritten.
"""

from __future__ import annotations

from sicbo.resources import StreamSpec
from sicbo_contracts.subjects import PARTNER_STREAM, RESULTS_ALL, RESULTS_STREAM, partner_deliver

#: The FLOOR account's JetStream API as the PARTNERS account imports it (floor.conf).
FLOOR_API = "$JS.floor.API"
#: Where the floor's mirror consumer delivers (FLOOR exports every such subject).
DELIVER = partner_deliver(PARTNER_STREAM)


def partner_copy(
    replicas: int = 1, *, name: str = PARTNER_STREAM, api: str = FLOOR_API, deliver: str = DELIVER
) -> StreamSpec:
    return StreamSpec(
        name,
        {
            "name": name,
            "description": "Copy of the Sic Bo public results feed (mirror of SICBO_RESULTS)",
            "mirror": {"name": RESULTS_STREAM, "external": {"api": api, "deliver": deliver}},
            "retention": "limits",
            "storage": "file",
            "num_replicas": replicas,
            "discard": "old",
            "max_age": 0,
            "deny_delete": True,
            "deny_purge": True,
            "allow_direct": True,  # history: Direct Get is the only read partners may make
            # The heartbeats' Nats-TTL is honoured only where allowed: without it the copy
            # would keep every heartbeat forever (measured on nats-server 2.15.1).
            "allow_msg_ttl": True,
            # Every stored message, on the same subject, to the partners' subscribers.
            "republish": {"src": RESULTS_ALL, "dest": RESULTS_ALL},
        },
    )
