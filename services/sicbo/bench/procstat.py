"""CPU time and resident memory of a process by its PID, from ``/proc`` (Linux; no psutil in
the project's dependencies). A process that is gone reads as zero."""

import os
from dataclasses import dataclass

_TICKS = os.sysconf("SC_CLK_TCK")
_PAGE = os.sysconf("SC_PAGE_SIZE")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time the process has used so far, in seconds."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return 0.0
    # The command name (field 2) may hold spaces; the fields after its ")" are fixed.
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / _TICKS  # utime, stime (fields 14, 15)


def rss_bytes(pid: int) -> int:
    """Resident set size now, in bytes."""
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * _PAGE
    except OSError:
        return 0


@dataclass
class CpuMeter:
    """CPU used by each named process between :meth:`start` and :meth:`percent`."""

    pids: dict[str, int]
    _from: dict[str, float] | None = None

    def start(self) -> None:
        self._from = {name: cpu_seconds(pid) for name, pid in self.pids.items()}

    def percent(self, wall_seconds: float) -> dict[str, float]:
        """Each process's CPU since :meth:`start`, in % of one core."""
        if self._from is None:
            raise RuntimeError("CpuMeter.percent before start")
        return {
            name: 100 * (cpu_seconds(pid) - self._from[name]) / wall_seconds
            for name, pid in self.pids.items()
        }
