"""Record JAX 0.10.2's run of ``tests/mpi_programs/pmap_step.py`` (``pmap`` collectives
and a data-parallel step over 2 and 4 CPU devices, one process) into
``tests/data/pmap_processes.json``. Run with the JAX scratch environment::

    <jax-venv>/bin/python tools/record_pmap_processes.py
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = ROOT / "tests" / "mpi_programs" / "pmap_step.py"
OUT = ROOT / "tests" / "data" / "pmap_processes.json"


def main() -> None:
    data = {}
    for n in (2, 4):
        # the program imports JAX instead of transpile under PMAP_STEP_JAX=1
        env = dict(os.environ, JAX_NUM_CPU_DEVICES=str(n), JAX_PLATFORMS="cpu",
                   PMAP_STEP_JAX="1")
        res = subprocess.run([sys.executable, str(PROGRAM)], env=env, check=True,
                             capture_output=True, text=True)
        data[str(n)] = json.loads(res.stdout.strip().splitlines()[-1])
    OUT.write_text(json.dumps(data) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
