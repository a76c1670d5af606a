"""Launching test programs under ``mpirun`` (``test_distributed.py``,
``test_shard_map_processes.py``): skipped, saying why, without mpirun or mpi4py."""
from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess

import pytest


def mpirun_prefix(n: int = 2) -> list:
    """``mpirun -n n`` with the flags this MPI needs here (Open MPI as root on a machine
    with fewer cores than processes)."""
    mpirun = shutil.which("mpirun")
    if mpirun is None:
        pytest.skip("mpirun is not on the PATH (install Open MPI: apt-get install "
                    "openmpi-bin libopenmpi-dev)")
    if importlib.util.find_spec("mpi4py") is None:
        pytest.skip("mpi4py is not installed (pip install 'transpile[mpi]')")
    version = subprocess.run([mpirun, "--version"], capture_output=True, text=True).stdout
    extra = []
    if "Open MPI" in version or "OpenRTE" in version:
        extra = ["--oversubscribe"] + (["--allow-run-as-root"] if os.geteuid() == 0 else [])
    return [mpirun, "-n", str(n), *extra]


def run(cmd, cwd=None, env=None) -> str:
    """Run ``cmd``; its standard output (the test fails, with both outputs, on an error).
    Programs run as ``python -m mpi4py``, so an exception in one process aborts the run
    instead of leaving the others waiting."""
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=cwd,
                          env=env)
    assert proc.returncode == 0, f"{cmd}\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout
