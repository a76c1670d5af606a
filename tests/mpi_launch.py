"""Launching test programs under ``mpirun`` (``test_distributed.py``,
``test_shard_map_processes.py``, ``test_pmap_processes.py``): skipped, saying why,
without mpirun or mpi4py; and running one program over a given number of devices, alone
or as several processes, reading the JSON line it prints last."""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys

import numpy as np
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


def program_env(per_process: int, drop=()) -> dict:
    """This environment with ``per_process`` CPU devices and no trace of an enclosing
    MPI launch (nor the variables ``drop``)."""
    env = dict(os.environ, JAX_NUM_CPU_DEVICES=str(per_process))
    for var in ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", *drop):
        env.pop(var, None)
    return env


def program_result(program: str, per_process: int, processes: int = 1,
                   drop=()) -> dict:
    """The JSON object ``program`` prints last, run alone (``processes == 1``) or under
    ``mpirun -n processes``, with ``per_process`` devices in each process."""
    cmd = [sys.executable, program]
    if processes > 1:
        prefix = mpirun_prefix(processes)
        if "--oversubscribe" in prefix:  # Open MPI: pass the device count to every rank
            prefix += ["-x", "JAX_NUM_CPU_DEVICES"]
        cmd = prefix + [sys.executable, "-m", "mpi4py", program]
    out = run(cmd, env=program_env(per_process, drop))
    return json.loads(out.strip().splitlines()[-1])


def bit_values(entry) -> np.ndarray:
    """An array a test program printed as ``(dtype, shape, its bits as integers)``."""
    dtype, shape, bits = entry
    return np.array(bits, dtype=f"u{np.dtype(dtype).itemsize}").view(dtype).reshape(shape)
