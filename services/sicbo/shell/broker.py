"""FastStream's NATS broker, whose stop never waits on a server that is gone.

``NatsBroker.stop`` drains its connection: with the server gone that raises (reconnecting: the
process exits with an error) or waits on PONGs that never come (a service was seen needing
SIGKILL). This one stops the subscribers as FastStream does, then closes the connection with
:func:`sicbo.infra.nats_close.close_promptly` (drained when connected, at most ``drain_within``
seconds).
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

from faststream.nats import NatsBroker

from sicbo.infra.nats_close import close_promptly


class PromptNatsBroker(NatsBroker):
    def __init__(self, *args: Any, drain_within: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._drain_within = drain_within

    async def stop(
        self,
        exc_type: type[BaseException] | None = None,
        exc_val: BaseException | None = None,
        exc_tb: TracebackType | None = None,
    ) -> None:
        # FastStream's stop drains ``_connection`` when it is set (faststream 0.7.8): taken
        # from it first, and closed here instead, once the subscribers are stopped.
        connection, self._connection = self._connection, None
        try:
            await super().stop(exc_type, exc_val, exc_tb)
        finally:
            if connection is not None:
                await close_promptly(connection, self._drain_within)
