"""Record JAX 0.10.2 on ``tests/linalg_cases.py`` into ``tests/data/top_k.json``,
``tests/data/linalg.json``, ``tests/data/linalg_ad.json``, ``tests/data/linalg_lu.json``,
``tests/data/linalg_qr.json``, ``tests/data/linalg_eigh.json``,
``tests/data/linalg_svd.json`` and ``tests/data/linalg_tridiagonal.json``.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_linalg_data.py

For each case: ``str(jax.make_jaxpr(fn)(*args))`` and the outputs' weak types, and the
eager outputs (dtype, shape, values and, for floats, sign bits), or, where one raises,
the exception's class and message.
"""
from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import linalg_cases  # noqa: E402


def _error(e) -> dict:
    return {"error": type(e).__name__, "message": str(e).split("\n--------------------")[0]}


def _outputs(outs) -> list:
    """Dtype, shape and values of each output; for floats also the sign bits, which
    JSON loses for NaN."""
    outs = outs if isinstance(outs, (list, tuple)) else [outs]
    recs = []
    for o in outs:
        a = np.asarray(o)
        rec = {"dtype": a.dtype.name, "shape": list(a.shape), "values": a.tolist()}
        if a.dtype.kind == "f":
            rec["signbit"] = np.signbit(a).tolist()
        recs.append(rec)
    return recs


def record(cases: dict) -> dict:
    out = {}
    for name, (prog, args, x64) in cases.items():
        jax.config.update("jax_enable_x64", x64)
        ns = {"lax": lax, "jnp": jnp, "np": np, "jax": jax}
        fn, a = eval(prog, ns), eval(args, ns)
        rec = {}
        try:
            closed = jax.make_jaxpr(fn)(*a)
            rec["jaxpr"] = str(closed)
            rec["weak_types"] = [v.aval.weak_type for v in closed.jaxpr.outvars]
        except Exception as e:
            rec["trace"] = _error(e)
        try:
            rec["eager"] = _outputs(fn(*a))
        except Exception as e:
            rec["eager"] = _error(e)
        out[name] = rec
    jax.config.update("jax_enable_x64", False)
    return out


def main():
    warnings.simplefilter("ignore")
    assert jax.__version__ == "0.10.2", jax.__version__
    for cases, fname in ((linalg_cases.TOP_K, "top_k.json"),
                         (linalg_cases.LINALG, "linalg.json"),
                         (linalg_cases.LINALG_AD, "linalg_ad.json"),
                         (linalg_cases.LU, "linalg_lu.json"),
                         (linalg_cases.QR, "linalg_qr.json"),
                         (linalg_cases.EIGH, "linalg_eigh.json"),
                         (linalg_cases.SVD, "linalg_svd.json"),
                         (linalg_cases.TRIDIAGONAL, "linalg_tridiagonal.json")):
        data = record(cases)
        (ROOT / "tests" / "data" / fname).write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {len(data)} cases to tests/data/{fname}")


if __name__ == "__main__":
    main()
