"""Record what JAX 0.10.2 does with the configuration options of
``tests/config_option_cases.py``: option values, refused values and unknown names,
``jax_debug_nans``/``jax_debug_infs`` errors (and what JAX prints), strict dtype
promotion; and which ``JAX_*`` environment variables it reads at import.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_config_options.py

It writes ``tests/data/config_options.json``: ``{"_meta": {...}, "cases": {name:
{"result": value, "stdout": text} or {"error": "Class: message", "stdout": text}},
"environment": {variable=value: option value or "Class: message"}}``.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import jax  # noqa: E402
import jax.numpy  # noqa: E402,F401

import config_option_cases  # noqa: E402

#: (variable, value, option) read at import
ENVIRONMENT = [("JAX_DEBUG_NANS", "1", "jax_debug_nans"),
               ("JAX_DEBUG_NANS", "off", "jax_debug_nans"),
               ("JAX_DEBUG_NANS", "maybe", "jax_debug_nans"),
               ("JAX_DEBUG_INFS", "t", "jax_debug_infs"),
               ("JAX_ENABLE_CHECKS", "yes", "jax_enable_checks"),
               ("JAX_NUMPY_DTYPE_PROMOTION", "strict", "jax_numpy_dtype_promotion"),
               ("JAX_DEFAULT_MATMUL_PRECISION", "highest", "jax_default_matmul_precision"),
               ("JAX_TRACEBACK_FILTERING", "off", "jax_traceback_filtering"),
               ("JAX_PLATFORMS", "cpu", "jax_platforms"),
               ("JAX_NUMPY_RANK_PROMOTION", "raise", "jax_numpy_rank_promotion")]


def read_in_child(var: str, value: str, option: str) -> object:
    code = (f"import jax, json; v = jax.config.{option}; "
            "print(json.dumps(getattr(v, 'value', v)))")
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAX_")}
    env[var] = value
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env)
    if got.returncode:
        return got.stderr.strip().splitlines()[-1]
    return json.loads(got.stdout)


def main() -> None:
    out = {name: config_option_cases.run(jax, thunk)
           for name, thunk in config_option_cases.cases(jax).items()}
    environment = {f"{var}={value}": read_in_child(var, value, option)
                   for var, value, option in ENVIRONMENT}
    data = {"_meta": {"jax": jax.__version__, "x64": False}, "cases": out,
            "environment": environment}
    path = ROOT / "tests" / "data" / "config_options.json"
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(out)} cases to {path}")


if __name__ == "__main__":
    main()
