"""Only the gateway's own pages change anything: the Origin (or Referer) check, pure."""

import pytest

from sicbo.gateway.origin import allowed_origins, origin_of, refusal

OWN = "https://floor.example.com"


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        ("https://floor.example.com", OWN),
        ("HTTPS://Floor.Example.COM:443", OWN),
        ("https://floor.example.com/tables/t1/terminal?x=1", OWN),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("http://127.0.0.1:80/", "http://127.0.0.1"),
        ("http://[::1]:8080", "http://[::1]:8080"),
        ("null", None),
        ("", None),
        ("file:///etc/passwd", None),
        ("https://", None),
        ("https://host:99999", None),
        ("javascript:alert(1)", None),
    ],
)
def test_the_origin_of_a_url(url: str, origin: str | None) -> None:
    assert origin_of(url) == origin


def test_the_gateways_own_origin_passes() -> None:
    assert refusal(OWN, None, OWN, frozenset()) is None
    assert refusal(None, f"{OWN}/tables/t1/terminal", OWN, frozenset()) is None  # no Origin
    assert refusal("", f"{OWN}/tables/t1/terminal", OWN, frozenset()) is None  # an empty one


@pytest.mark.parametrize(
    ("origin", "referer"),
    [
        ("https://evil.example", None),
        ("https://evil.example", f"{OWN}/tables/t1/terminal"),  # the Origin is what counts
        ("http://floor.example.com", None),  # another scheme is another origin
        ("https://floor.example.com:8443", None),
        ("https://floor.example.com.evil.example", None),
        ("null", None),  # a sandboxed frame, a redirect across sites
        (None, "https://evil.example/page"),
        (None, None),  # a browser always says: a request that does not is no page's
        ("", ""),
    ],
)
def test_any_other_origin_or_none_is_refused(origin: str | None, referer: str | None) -> None:
    why = refusal(origin, referer, OWN, frozenset())
    assert why is not None and ("Origin" in why or "Referer" in why)


def test_configured_origins_are_the_only_ones() -> None:
    allowed = allowed_origins(["https://floor.example.com", "https://backoffice.example.com/"])
    assert allowed == frozenset({OWN, "https://backoffice.example.com"})
    assert refusal("https://backoffice.example.com", None, OWN, allowed) is None
    # a name rebound to the gateway's address is then no origin of the gateway's
    assert refusal("http://rebound.example", None, "http://rebound.example", allowed)
    with pytest.raises(ValueError, match="not an origin"):
        allowed_origins(["floor.example.com"])


def test_without_a_host_only_configured_origins_pass() -> None:
    assert refusal(OWN, None, None, frozenset()) is not None
    assert refusal(OWN, None, None, frozenset({OWN})) is None
