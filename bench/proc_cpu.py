"""CPU seconds of a server's processes, read from /proc (Linux): gunicorn's master and workers,
and the PostgreSQL server's processes. Differences of two readings give what a measured
stretch of time cost; a stretch's CPU seconds over its wall seconds is the cores it used."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path


def _stats() -> Iterator[tuple[int, str, list[str]]]:
    """(pid, command name, the fields after the name) of every process readable now."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_text()
        except OSError:
            continue  # gone meanwhile
        head, _, rest = text.rpartition(")")
        yield int(entry.name), head.partition("(")[2], rest.split()


def tree_cpu_seconds(root_pid: int) -> float:
    """CPU seconds (user + system) used so far by `root_pid` and its children (gunicorn's
    master and workers, the recycled ones included)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid, _name, fields in _stats():
        # fields[1] is the parent pid, [11] utime, [12] stime, [13] cutime and [14] cstime
        # (after the command's name): the master's cutime/cstime hold the workers gunicorn
        # recycled (max_requests) and reaped.
        parent = int(fields[1])
        if pid == root_pid:
            total += sum(int(value) for value in fields[11:15]) / tick
        elif parent == root_pid:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def postgres_cpu_seconds() -> float:
    """CPU seconds used so far by every process named `postgres` on this machine, the backends
    that have exited included (the postmaster's reaped children). 0.0 when none is visible.
    Every client's work counts: another job using the same server is in the figure."""
    tick = os.sysconf("SC_CLK_TCK")
    found = [(pid, fields) for pid, name, fields in _stats() if name == "postgres"]
    pids = {pid for pid, _fields in found}
    total = 0.0
    for _pid, fields in found:
        used = int(fields[11]) + int(fields[12])
        if int(fields[1]) not in pids:  # the postmaster
            used += int(fields[13]) + int(fields[14])
        total += used / tick
    return total
