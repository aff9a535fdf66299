"""NATS URLs: several servers in one, and never a password in what is printed."""

import pytest

from sicbo.infra.nats_urls import redacted, servers


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("nats://floor:s3cret@nats:4222", "nats://floor:***@nats:4222"),
        ("nats://floor:p@ss:w@rd@nats:4222", "nats://floor:***@nats:4222"),  # "@" inside
        ("nats://TOKEN@nats:4222", "nats://***@nats:4222"),  # a bare token
        ("floor:s3cret@nats:4222", "floor:***@nats:4222"),  # no scheme
        ("nats://a:1@x:4222, nats://b:2@y:4222", "nats://a:***@x:4222,nats://b:***@y:4222"),
        ("nats://127.0.0.1:4222", "nats://127.0.0.1:4222"),
    ],
)
def test_a_printed_url_holds_no_password(url: str, shown: str) -> None:
    assert redacted(url) == shown


def test_several_servers() -> None:
    assert servers("nats://a:4222, nats://b:4222") == ["nats://a:4222", "nats://b:4222"]
    with pytest.raises(ValueError):
        servers(" , ")
