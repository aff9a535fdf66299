"""``sicbo serve``: run one service as its own process."""

import contextlib
import importlib
import logging
from enum import StrEnum

import typer

from sicbo.cli.common import DEFAULT_NATS_URL, NatsOption, check_nats_settings, event_loop_setting
from sicbo.infra import event_loop, health


class ServiceName(StrEnum):
    LIFECYCLE = "lifecycle"
    DICE = "dice"
    WAGERS = "wagers"
    SETTLEMENT = "settlement"
    RESULTS = "results"
    ILLUMINATION = "illumination"
    BOARD = "board"
    ACCOUNTS = "accounts"


def serve(service: ServiceName, nats_url: NatsOption = DEFAULT_NATS_URL) -> None:
    """Run a service until SIGINT/SIGTERM (graceful: in-flight commands finish)."""
    check_nats_settings(nats_url)
    event_loop_setting()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    # Each service module exposes ``app(nats_url) -> FastStream``; import only the one asked.
    module = importlib.import_module(f"sicbo.{service.value}.service")
    application = module.app(nats_url)
    # Probes (SICBO_HEALTH_PORT): a service that did not install its own checks still gets
    # /livez and /readyz on its broker's connection.
    health.install(application, service.value)
    with contextlib.suppress(KeyboardInterrupt):
        event_loop.run(application.run())
    raise typer.Exit(0)
