"""Record JAX 0.10.2's behaviour of ``jax.distributed`` on CPU into
``tests/data/distributed.json``: the errors of ``initialize`` (no cluster, after the
backend started, called twice) and the global device list of a run of two processes with
two CPU devices each (ids and process indices).

Run with the Python that has JAX: ``$JAX_PYTHON tools/record_distributed.py``
(it starts two more such processes that meet at a local coordinator).
"""
import json
import subprocess
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "distributed.json"

_CHILD = """
import sys, json, jax
jax.config.update("jax_num_cpu_devices", 2)
jax.distributed.initialize(coordinator_address="127.0.0.1:" + sys.argv[1], num_processes=2,
                           process_id=int(sys.argv[2]))
print(json.dumps({"process_index": jax.process_index(), "process_count": jax.process_count(),
                  "devices": [[d.id, d.process_index, repr(d)] for d in jax.devices()],
                  "local_devices": [d.id for d in jax.local_devices()]}))
jax.distributed.shutdown()
"""

_ERRORS = """
import json, jax
out = {}
try:
    jax.distributed.initialize()
except Exception as e:
    out["no_cluster"] = [type(e).__name__, str(e)]
jax.devices()
try:
    jax.distributed.initialize("127.0.0.1:1", 1, 0)
except Exception as e:
    out["after_backend"] = [type(e).__name__, str(e)]
out["is_initialized"] = jax.distributed.is_initialized()
print(json.dumps(out))
"""

_TWICE = """
import sys, json, jax
jax.distributed.initialize("127.0.0.1:" + sys.argv[1], 1, 0)
try:
    jax.distributed.initialize("127.0.0.1:" + sys.argv[1], 1, 0)
except Exception as e:
    print(json.dumps([type(e).__name__, str(e)]))
jax.distributed.shutdown()
"""


def _last_json(text: str):
    return json.loads([ln for ln in text.splitlines() if ln.startswith(("{", "["))][-1])


def main() -> None:
    py = sys.executable
    port = "23917"
    kids = [subprocess.Popen([py, "-c", _CHILD, port, str(r)], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True) for r in range(2)]
    runs = [_last_json(k.communicate(timeout=180)[0]) for k in kids]
    errors = _last_json(subprocess.run([py, "-c", _ERRORS], capture_output=True, text=True,
                                       timeout=180).stdout)
    twice = _last_json(subprocess.run([py, "-c", _TWICE, "23918"], capture_output=True,
                                      text=True, timeout=180).stdout)
    data = {"two_processes": runs, "errors": dict(errors, twice=twice)}
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
