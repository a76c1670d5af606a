"""Record JAX 0.10.2's run of ``tests/mpi_programs/shard_map_step.py`` (a data-parallel
step in ``shard_map`` over 2 and 4 CPU devices) into
``tests/data/shard_map_processes.json``. Run with the JAX scratch environment::

    <jax-venv>/bin/python tools/record_shard_map_processes.py
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = ROOT / "tests" / "mpi_programs" / "shard_map_step.py"
OUT = ROOT / "tests" / "data" / "shard_map_processes.json"


def main() -> None:
    # the program with JAX's names for transpile's (its only transpile-specific lines)
    text = PROGRAM.read_text().replace("import transpile as jax", "import jax") \
        .replace("import transpile.numpy as jnp", "import jax.numpy as jnp") \
        .replace("from transpile.", "from jax.")
    data = {}
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "step.py"
        script.write_text(text)
        for n in (2, 4):
            env = dict(os.environ, JAX_NUM_CPU_DEVICES=str(n), JAX_PLATFORMS="cpu")
            res = subprocess.run([sys.executable, str(script)], env=env, check=True,
                                 capture_output=True, text=True)
            data[str(n)] = json.loads(res.stdout.strip().splitlines()[-1])
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
