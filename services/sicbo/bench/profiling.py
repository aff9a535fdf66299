"""Sample the floor's processes with py-spy while the load runs (``--profile DIR`` of
:mod:`sicbo.bench.load`): where each service spends its CPU under load (docs/benchmarks.md).

py-spy (``pip install py-spy``; not a dependency of the project) attaches to a running Python
process by its PID and samples its stacks without changing it; it needs the right to trace the
process (root, or ``ptrace_scope`` 0). Each process gives a file of collapsed stacks (one line a
stack and its samples: the input of flamegraph.pl or https://www.speedscope.app), summed up by
:func:`summary`: the functions with the most samples, in them and below them.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Mapping
from pathlib import Path

#: Samples a second: enough for a 20 s window, cheap enough not to move the figures much.
RATE = 50


async def profile_window(pids: Mapping[str, int], folder: Path, seconds: float) -> None:
    """Sample each Python process of ``pids`` for ``seconds`` (the nats-server is not one)."""
    spy = shutil.which("py-spy")
    if spy is None:
        raise RuntimeError("--profile needs py-spy on PATH (pip install py-spy)")
    await asyncio.to_thread(folder.mkdir, parents=True, exist_ok=True)
    samplers = [
        await asyncio.create_subprocess_exec(
            spy,
            "record",
            "--pid",
            str(pid),
            "--rate",
            str(RATE),
            "--duration",
            str(int(seconds)),
            "--format",
            "raw",
            "--output",
            str(folder / f"{_file_name(name)}.txt"),
            "--nonblocking",
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        for name, pid in pids.items()
        if name != "nats-server" and pid
    ]
    await asyncio.gather(*(s.wait() for s in samplers))


def _file_name(process: str) -> str:
    return process.split(" ", 1)[0]


def summary(stacks: Path, top: int = 25) -> str:
    """The functions of a collapsed-stacks file with the most samples: inclusive (the
    function or what it called was running) and own (the function itself was)."""
    inclusive: dict[str, int] = {}
    own: dict[str, int] = {}
    total = 0
    for line in stacks.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        samples = int(count)
        total += samples
        frames = [f.split(" (", 1)[0] + " " + _where(f) for f in stack.split(";")]
        for frame in set(frames):
            inclusive[frame] = inclusive.get(frame, 0) + samples
        own[frames[-1]] = own.get(frames[-1], 0) + samples
    lines = [f"{stacks.stem}: {total} samples"]
    for title, table in (("inclusive", inclusive), ("own", own)):
        lines.append(f"  {title}:")
        for frame, samples in sorted(table.items(), key=lambda kv: -kv[1])[:top]:
            lines.append(f"    {100 * samples / max(total, 1):5.1f}%  {frame}")
    return "\n".join(lines)


def _where(frame: str) -> str:
    """``(path/to/module.py:12)`` -> ``module.py``: a frame's file, without its line."""
    inside = frame.partition(" (")[2].rstrip(")")
    return "(" + inside.rsplit("/", 1)[-1].split(":", 1)[0] + ")"


if __name__ == "__main__":
    import sys

    for name in sys.argv[1:]:
        print(summary(Path(name)))
