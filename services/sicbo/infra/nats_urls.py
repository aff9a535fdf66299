"""``--nats`` / ``NATS_URL`` may name several servers of a cluster, comma-separated.

nats-py and FastStream take a list of URLs (a single string is one URL): every listed server
is tried at connect time and again after a disconnect, so a service keeps going when the
server it was connected to dies. Each URL may carry its own ``user:password@``.
"""


def servers(url: str) -> list[str]:
    """``"nats://a:4222,nats://b:4222"`` -> ``["nats://a:4222", "nats://b:4222"]``."""
    listed = [u.strip() for u in url.split(",") if u.strip()]
    if not listed:
        raise ValueError(f"no NATS server URL in {url!r}")
    return listed
