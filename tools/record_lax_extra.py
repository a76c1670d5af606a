"""Record JAX 0.10.2's answers for the ``jax.lax`` long tail (``tests/lax_extra_cases.py``)
into ``tests/data/lax_extra.json``.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_lax_extra.py

For each ``jax.scipy.special`` call (``special_calls``, float32 and float64): JAX's
outputs as above and SciPy's float64 values (``jv`` per order for ``bessel_jn``).

For each lax call: its outputs' values (floats as ``repr`` strings so inf/nan survive JSON),
dtypes, weak types and shapes, with x64 enabled; for each bad call the error's type and
first line; for a few calls the ``make_jaxpr`` text (x64 disabled, JAX's default).
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
import scipy.special as sps  # noqa: E402
from jax import lax  # noqa: E402

import lax_extra_cases as cases  # noqa: E402


def _enc_out(y):
    a = np.asarray(y)
    vals = [repr(v.item()) if a.dtype.kind == "f" else int(v) for v in a.ravel()]
    return {"values": vals, "dtype": str(a.dtype), "shape": list(a.shape),
            "weak_type": bool(getattr(y, "weak_type", False))}


def _scipy(name, made, kwargs):
    args = [np.asarray(a, np.float64) for a in made]
    with np.errstate(all="ignore"):
        if name == "bessel_jn":
            out = [np.stack([sps.jv(k, args[0]) for k in range(kwargs["v"] + 1)])]
        else:
            out = getattr(sps, name)(*args)
    outs = out if isinstance(out, (tuple, list)) else [out]
    return [[repr(float(v)) for v in np.asarray(o, np.float64).ravel()] for o in outs]


def main() -> None:
    data = {"_meta": {"jax": jax.__version__}, "calls": [], "errors": [], "jaxprs": []}
    jax.config.update("jax_enable_x64", True)
    for name, args, kwargs in cases.calls():
        out = cases.resolve(lax, name)(*[cases.make_arg(a, np, jnp) for a in args], **kwargs)
        data["calls"].append([_enc_out(y) for y in jax.tree_util.tree_leaves(out)])
    for name, args, kwargs in cases.ERROR_CALLS:
        try:
            cases.resolve(lax, name)(*[cases.make_arg(a, np, jnp) for a in args], **kwargs)
            data["errors"].append(None)
        except Exception as e:  # noqa: BLE001  (recording what JAX raises)
            data["errors"].append([type(e).__name__, str(e).split("\n")[0]])
    data["special"] = {}
    for dt in ("float32", "float64"):
        recs = data["special"][dt] = []
        for name, args, kwargs in cases.special_calls(dt):
            made = [cases.make_arg(a, np, jnp) for a in args]
            out = getattr(jss, name)(*made, **kwargs)
            recs.append({"jax": [_enc_out(y) for y in jax.tree_util.tree_leaves(out)],
                         "scipy": _scipy(name, made, kwargs)})
    jax.config.update("jax_enable_x64", False)
    for name, args in cases.JAXPR_CALLS:
        made = [cases.make_arg(a, np, jnp) for a in args]
        arrays = [a for a in made if not isinstance(a, int)]
        statics = [a for a in made if isinstance(a, int)]
        fn = cases.resolve(lax, name)
        data["jaxprs"].append(str(jax.make_jaxpr(lambda *xs: fn(*xs, *statics))(*arrays)))
    path = ROOT / "tests" / "data" / "lax_extra.json"
    path.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
