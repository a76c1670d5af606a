"""Record JAX 0.10.2's ``OverflowError``\\ s for Python ints that do not fit the traced dtype
into ``tests/data/overflow_errors.json`` (issue 18, item 4).

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_overflow_errors.py

Each case is one Python expression over ``jax``, ``jnp`` and ``lax``; the test evaluates
the same text with transpile in their place and expects the same exception class and
message (or, where JAX succeeds, the same value).
"""
from __future__ import annotations

import json
import warnings
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

CASES = {
    "fori_loop_upper_2**32+5": "lax.fori_loop(0, 2**32 + 5, lambda i, c: c + 1, 0)",
    "fori_loop_upper_10**10": "lax.fori_loop(0, 10**10, lambda i, c: c + 1, 0)",
    "fori_loop_lower_-2**40": "lax.fori_loop(-2**40, 3, lambda i, c: c + 1, 0)",
    "fori_loop_both_2**40": "lax.fori_loop(2**40, 2**40 + 3, lambda i, c: c + 1, 0)",
    "fori_loop_negative_upper": "lax.fori_loop(0, -2**40, lambda i, c: c + 1, 0)",
    "fori_loop_at_int32_max": "lax.fori_loop(2**31 - 3, 2**31 - 1, lambda i, c: c + 1, 0)",
    "fori_loop_in_jit": "jax.jit(lambda x: lax.fori_loop(0, 2**32 + 5, "
                        "lambda i, c: c + 1, x))(0)",
    "scan_length_2**32+3": "lax.scan(lambda c, x: (c + 1, None), 0, None, "
                           "length=2**32 + 3)[0]",
    "at_set_2**40": "jnp.zeros(3, jnp.int32).at[0].set(2**40)",
    "at_add_2**32+5": "jnp.zeros(3, jnp.int32).at[0].add(2**32 + 5)",
    "at_multiply_2**40": "jnp.zeros(3, jnp.int32).at[0].multiply(2**40)",
    "at_min_2**40": "jnp.zeros(3, jnp.int32).at[0].min(2**40)",
    "at_set_uint32_2**32": "jnp.zeros(3, jnp.uint32).at[0].set(2**32)",
    "at_set_float32_2**40": "jnp.zeros(3, jnp.float32).at[0].set(2**40)",
    "at_set_int16_2**31": "jnp.zeros(3, jnp.int16).at[0].set(2**31)",
    "at_set_int8_300": "jnp.zeros(3, jnp.int8).at[0].set(300)",
    "at_set_in_jit": "jax.jit(lambda x: x.at[0].set(2**40))(jnp.zeros(3, jnp.int32))",
    "add_2**40": "jnp.zeros(3, jnp.int32) + 2**40",
}


def main() -> None:
    out = {}
    for name, code in CASES.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                value = eval(code, {"jax": jax, "jnp": jnp, "lax": lax})  # noqa: S307
                out[name] = {"code": code, "value": np.asarray(value).tolist()}
            except Exception as e:  # noqa: BLE001 - recorded
                out[name] = {"code": code, "error": type(e).__name__, "message": str(e)}
    path = Path(__file__).resolve().parent.parent / "tests" / "data" / "overflow_errors.json"
    path.write_text(json.dumps({"jax_version": jax.__version__, "cases": out}, indent=1)
                    + "\n")
    print(f"wrote {len(out)} cases to {path}")


if __name__ == "__main__":
    main()
