"""Record JAX 0.10.2's answers for ``lax``'s special-function primitives and
``jax.scipy.special`` into ``tests/data/scipy_special.json``.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_scipy_special.py

Records, from the grids of ``tests/scipy_special_cases.py``: every lax function's values
on float32 and float64 operands; the partial derivatives JAX defines (float64); the
``make_jaxpr`` text of each lax function on float32 scalars; JAX's errors for integer
and mixed-dtype operands; and each ``jax.scipy.special`` call's value, dtype, weak type
and shape, and the same for each ``jax.scipy.stats`` call. Floats are written as ``repr`` strings so that inf/nan survive JSON.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import numpy as np  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import jax.scipy.special as jss  # noqa: E402
import jax.scipy.stats  # noqa: E402,F401
from jax import lax  # noqa: E402

import scipy_special_cases as cases  # noqa: E402

NAMES = list(cases.UNARY) + list(cases.BINARY) + list(cases.TERNARY)


def _enc(a):
    return [repr(float(v)) for v in np.asarray(a, np.float64).ravel()]


def _error(fn, *args):
    try:
        fn(*args)
    except Exception as e:  # noqa: BLE001  (recording what JAX raises)
        return [type(e).__name__, str(e).split("\n")[0]]
    return None


def main() -> None:
    jax.config.update("jax_enable_x64", True)
    out = {"_meta": {"jax": jax.__version__}, "values": {}, "grads": {}, "jaxprs": {},
           "errors": {}, "scipy": []}
    for name in NAMES:
        fn = getattr(lax, name)
        cols = cases.grid(name)
        out["values"][name] = {
            dt: _enc(fn(*[jnp.asarray(c, dt) for c in cols])) for dt in ("float32", "float64")}
        out["jaxprs"][name] = str(jax.make_jaxpr(fn)(*[np.float32(1.5)] * len(cols)))
        out["errors"][name] = {
            "int": _error(fn, *[np.int32(1)] * len(cols)),
            "mixed": _error(fn, *([np.float32(1)] * (len(cols) - 1) + [np.float64(1)])),
        }
    for name, (points, argnums) in cases.GRAD_POINTS.items():
        fn = getattr(lax, name)
        g = jax.grad(fn, argnums=argnums)
        out["grads"][name] = [[float(v) for v in g(*map(np.float64, pt))] for pt in points]
    for name, args, kwargs in cases.scipy_calls():
        jax.config.update("jax_enable_x64", False)
        y = getattr(jss, name)(*[cases.make_arg(a, np, jnp) for a in args], **kwargs)
        ys = y if isinstance(y, tuple) else (y,)
        out["scipy"].append({"name": name, "kwargs": kwargs,
                             "outs": [{"value": _enc(v), "dtype": str(v.dtype),
                                       "weak_type": bool(v.weak_type),
                                       "shape": list(v.shape)} for v in ys]})
    out["stats"] = []
    for dist, fn, args, kwargs in cases.stats_calls():
        y = getattr(getattr(jax.scipy.stats, dist), fn)(
            *[cases.make_arg(a, np, jnp) for a in args], **kwargs)
        out["stats"].append({"name": f"{dist}.{fn}", "kwargs": kwargs,
                             "outs": [{"value": _enc(y), "dtype": str(y.dtype),
                                       "weak_type": bool(y.weak_type),
                                       "shape": list(y.shape)}]})
    jax.config.update("jax_enable_x64", False)
    path = ROOT / "tests" / "data" / "scipy_special.json"
    path.write_text(json.dumps(out, indent=0) + "\n")
    print(f"wrote {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
