"""The long-running processes' event loop: uvloop by default, asyncio's by SICBO_EVENT_LOOP,
and a bad setting refused by every long-running command before it starts."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from sicbo.infra import event_loop


@pytest.mark.parametrize(
    ("value", "loop"),
    [
        (None, "uvloop"),
        ("", "uvloop"),
        ("uvloop", "uvloop"),
        (" UVLOOP ", "uvloop"),
        ("asyncio", "asyncio"),
        ("Asyncio", "asyncio"),
    ],
)
def test_the_setting_names_the_loop(value: str | None, loop: str) -> None:
    environ = {} if value is None else {event_loop.ENV: value}
    assert event_loop.chosen(environ) == loop


def test_another_value_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match=r"SICBO_EVENT_LOOP='trio'.*'uvloop'.*'asyncio'"):
        event_loop.chosen({event_loop.ENV: "trio"})
    with pytest.raises(ValueError, match=r"SICBO_EVENT_LOOP=' Trio '"):
        event_loop.chosen({event_loop.ENV: " Trio "})  # as written, not as compared


def _run_in(loop: str | None) -> str:
    """The module of the loop ``event_loop.run`` runs a coroutine on, in a fresh process."""
    env = {k: v for k, v in os.environ.items() if k != event_loop.ENV}
    if loop is not None:
        env[event_loop.ENV] = loop
    code = (
        "import asyncio\n"
        "from sicbo.infra import event_loop\n"
        "async def main():\n"
        "    return type(asyncio.get_running_loop()).__module__\n"
        "print(event_loop.run(main()))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_run_is_on_uvloop_by_default_and_on_asyncio_when_asked() -> None:
    assert _run_in(None).startswith("uvloop")
    assert _run_in("asyncio").startswith("asyncio")


@pytest.mark.parametrize(
    "command",
    [
        ("serve", "wagers"),
        ("layout-controller", "t1"),
        ("gateway", "serve", "--demo-operators"),
    ],
)
def test_a_long_running_command_refuses_a_bad_setting(command: tuple[str, ...]) -> None:
    env = {**os.environ, event_loop.ENV: "trio"}
    done = subprocess.run(
        [sys.executable, "-m", "sicbo.cli.main", *command, "--nats", "nats://127.0.0.1:1"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "SICBO_EVENT_LOOP='trio'" in done.stderr and "Traceback" not in done.stderr
