"""Where partners connect and how they authenticate: the document's servers and security schemes.

Each partner is an account of its own, ``PARTNER_<NAME>``, with one user known by its public
nkey (deploy/nats/README.md, "Partners"), with the subscribe-only permissions of
``sicbo.infra.partner_accounts.PARTNER_PERMISSIONS``: subscribe to ``sicbo.results.>`` and to its
own inboxes, publish only Direct Get requests on the copy. No password: nothing secret of a
partner is in the floor's configuration, and nothing is sent that could be replayed.
"""

from typing import Any

NKEY = "partnerNkey"

SECURITY_SCHEMES: dict[str, dict[str, Any]] = {
    # AsyncAPI 3.0 has no NATS scheme. An nkey is an Ed25519 key pair: the server sends a nonce
    # in INFO, the client signs it with its private seed and sends the public key and the
    # signature in CONNECT; the server knows only the public key. That is public-key
    # cryptography, hence `asymmetricEncryption`, the documented type nearest to it: not
    # `symmetricEncryption` (no secret is shared), not `X509` (no certificate), not `apiKey` /
    # `httpApiKey` (those send the secret itself, and the seed never leaves the client).
    NKEY: {
        "type": "asymmetricEncryption",
        "description": "Your own NATS nkey (its public key, `U...`, registered by the "
        "operator's `sicbo partners add`, or yours given with `--public-key`): the client "
        "proves it holds the seed (`SU...`) by signing the server's nonce; the seed never "
        "leaves the client. nats-py: `nats.connect(url, nkeys_seed='acme.nk')`; nats.js: "
        "`connect({servers, authenticator: nkeyAuthenticator(seed)})`; nats CLI: `--nkey "
        "acme.nk`.",
        "x-nats-auth": "nkey",
    },
}


def _scheme(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/securitySchemes/{name}"}


SERVERS: dict[str, dict[str, Any]] = {
    "production": {
        "host": "{host}:{port}",
        "protocol": "nats",
        "title": "The floor's NATS servers for partners (TLS)",
        "summary": "Connect with `tls://{host}:{port}` and the CA you were given.",
        "description": "The operator's NATS cluster, reached over TLS only: connect to "
        "`tls://{host}:{port}` and verify the server's certificate against the CA certificate "
        "handed to you with your credentials, TLS first (nats-py: "
        "`tls=ssl.create_default_context(cafile='ca.crt'), tls_handshake_first=True`; nats.js: "
        "`tls: {caFile: 'ca.crt', handshakeFirst: true}`). A plain `nats://` connection is "
        "dropped. The server tells a client the cluster's other addresses once connected, so "
        "one host is enough; clients reconnect to another by themselves.",
        "variables": {
            "host": {
                "description": "The host name of the floor's NATS servers, given to you with "
                "your credentials (it differs per deployment).",
                "examples": ["nats.partners.sicbo.example"],
            },
            "port": {"description": "The client port.", "default": "4222"},
        },
        "security": [_scheme(NKEY)],
        "tags": [{"name": "tls", "description": "TLS required; the operator's CA."}],
    },
    "local": {
        "host": "127.0.0.1:{port}",
        "protocol": "nats",
        "title": "The demo floor of `make run`",
        "summary": "Plain NATS on this machine, for trying the feed.",
        "description": "`make run` starts nats-server with the floor's accounts on 127.0.0.1 "
        "(port 4222 unless taken: it prints the address) and plays demo tables, so results "
        "arrive within a minute. No TLS: it listens on the loopback address only. "
        "`sicbo partners add demo --floor var/floor` registers a partner on it and writes its "
        "seed (docs/partners.md).",
        "variables": {"port": {"description": "The port `make run` printed.", "default": "4222"}},
        "security": [_scheme(NKEY)],
    },
}
