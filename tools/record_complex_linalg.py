"""Record JAX 0.10.2 on ``tests/complex_linalg_cases.py`` into
``tests/data/complex_linalg.json``.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_complex_linalg.py

For each case: the eager outputs (dtype, shape, and values: complex ones as their real
and imaginary parts, NaN as null), or the exception's class and message.
"""
from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import jax
import jax.numpy as jnp
import jax.scipy.linalg  # noqa: F401  (jax.scipy.linalg in the programs)
import numpy as np
from jax import lax

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import complex_linalg_cases  # noqa: E402


def _values(a: np.ndarray) -> list:
    return [None if np.isnan(v) else float(v) for v in a.ravel()]


def _outputs(outs) -> list:
    outs = jax.tree_util.tree_leaves(outs)
    recs = []
    for o in outs:
        a = np.asarray(o)
        rec = {"dtype": a.dtype.name, "shape": list(a.shape)}
        if a.dtype.kind == "c":
            rec["real"], rec["imag"] = _values(a.real), _values(a.imag)
        else:
            rec["real"] = _values(a.astype(np.float64))
        recs.append(rec)
    return recs


def main():
    warnings.simplefilter("ignore")
    assert jax.__version__ == "0.10.2", jax.__version__
    out = {}
    for name, (prog, args, x64) in complex_linalg_cases.COMPLEX.items():
        jax.config.update("jax_enable_x64", x64)
        ns = {"lax": lax, "jnp": jnp, "np": np, "jax": jax}
        fn, a = eval(prog, ns), eval(args, ns)
        try:
            out[name] = {"eager": _outputs(fn(*a))}
        except Exception as e:
            out[name] = {"eager": {"error": type(e).__name__,
                                   "message": str(e).split("\n--------------------")[0]}}
    jax.config.update("jax_enable_x64", False)
    path = ROOT / "tests" / "data" / "complex_linalg.json"
    path.write_text(json.dumps(out) + "\n")
    print(f"wrote {len(out)} cases to {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
