"""Record JAX 0.10.2 on the control-flow programs into ``tests/data/control_flow.json``.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_control_flow.py

It imports ``tests/control_flow_cases.py`` and records, for every program,
``str(jax.make_jaxpr(fn)(*args))``, the in/out avals, the number of consts and the
outputs of eager, ``jax.jit`` and ``jax.disable_jit()`` execution; and for every
program of ``tests/control_flow_error_cases.py``, the exception class and normalised
message. The per-leaf output format and
the message normalisation are those of ``tools/record_jax_data.py``.
"""
from __future__ import annotations

import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

import record_jax_data as base  # noqa: E402  (also puts tests/ on sys.path)

import control_flow_cases  # noqa: E402
import control_flow_error_cases  # noqa: E402
import jaxpr_cases  # noqa: E402


def record_cases() -> dict:
    out = {}
    for case in control_flow_cases.cases(jax, jnp, lax, np):
        assert case.name not in out, f"duplicate case name {case.name}"
        fn, args, _ = case.build()
        closed = jax.make_jaxpr(fn)(*args)
        rec = {"jaxpr": str(closed),
               "in_avals": [base.aval_info(a) for a in closed.in_avals],
               "out_avals": [base.aval_info(a) for a in closed.out_avals],
               "n_consts": len(closed.consts)}
        for mode in ("eager", "jit", "disable_jit"):
            fn, args, _ = case.build()
            try:
                if mode == "jit":
                    rec[mode] = base.outputs_info(jax.jit(fn)(*args))
                elif mode == "disable_jit":
                    with jax.disable_jit():
                        rec[mode] = base.outputs_info(fn(*args))
                else:
                    rec[mode] = base.outputs_info(fn(*args))
            except Exception as e:  # recorded, so a test can expect the same failure
                print(f"  {case.name} ({mode}) raised {type(e).__name__}: {e}",
                      file=sys.stderr)
                rec[mode] = base.error_info(e)
        out[case.name] = rec
    return out


def record_errors() -> dict:
    out = {}
    for name, trigger in control_flow_error_cases.error_cases(jax, jnp, lax, np):
        assert name not in out, f"duplicate error case {name}"
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                trigger()
        except Exception as e:
            out[name] = {"error": type(e).__name__,
                         "message": jaxpr_cases.normalise_message(str(e))}
        else:
            raise AssertionError(f"error case {name} did not raise under JAX")
    return out


def main() -> None:
    assert jax.__version__ == "0.10.2", jax.__version__
    assert not jax.config.jax_enable_x64, "run with x64 off (unset JAX_ENABLE_X64)"
    meta = dict(base.meta(), recorded_by="tools/record_control_flow.py")
    base.write("control_flow.json", {"_meta": meta, "cases": record_cases(),
                                     "errors": record_errors()})


if __name__ == "__main__":
    main()
