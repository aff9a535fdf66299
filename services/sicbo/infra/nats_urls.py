"""``--nats`` / ``NATS_URL`` may name several servers of a cluster, comma-separated.

nats-py and FastStream take a list of URLs (a single string is one URL): every listed server
is tried at connect time and again after a disconnect, so a service keeps going when the
server it was connected to dies. Each URL may carry its own ``user:password@``, which is never
printed or logged: :func:`redacted` is what a message may show.
"""


def servers(url: str) -> list[str]:
    """``"nats://a:4222,nats://b:4222"`` -> ``["nats://a:4222", "nats://b:4222"]``."""
    listed = [u.strip() for u in url.split(",") if u.strip()]
    if not listed:
        raise ValueError(f"no NATS server URL in {url!r}")
    return listed


def redacted(url: str) -> str:
    """``url`` fit to print: every server's password (or bare token) replaced by ``***``,
    ``nats://floor:secret@a:4222`` -> ``nats://floor:***@a:4222``."""
    return ",".join(_redact(u.strip()) for u in url.split(",") if u.strip())


def _redact(url: str) -> str:
    scheme, sep, rest = url.partition("://") if "://" in url else ("", "", url)
    if "@" not in rest:
        return url
    userinfo, host = rest.rsplit("@", 1)  # a password may hold an "@" of its own
    # A password, or a lone token (nats://TOKEN@host): keep only a user name beside a password.
    user, has_password, _ = userinfo.partition(":")
    shown = f"{user}:***" if has_password else "***"
    return f"{scheme}{sep}{shown}@{host}"
