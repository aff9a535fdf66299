"""The deploy tests' NATS servers and users: tests/deploy/nats_users.py (a server per generated
configuration, for each module of this folder that asks for one)."""

from tests.deploy.nats_users import admin, connect, server, server_dir  # noqa: F401 - fixtures
