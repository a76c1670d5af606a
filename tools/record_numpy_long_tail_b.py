"""Record JAX 0.10.2 on ``tests/numpy_long_tail_b_cases.py`` into
``tests/data/numpy_long_tail_b.json``.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_numpy_long_tail_b.py

For each case: the eager outputs (dtype, weak type, shape, values; Python values as
they are), or the exception's class and message; with ``g`` in its checks the
gradient of the summed first output with respect to the first argument, with ``v``
the outputs under ``vmap`` over ``[x, flip(x)]`` as the first argument.
"""
from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import numpy_long_tail_b_cases as cases  # noqa: E402


def _error(e) -> dict:
    return {"error": type(e).__name__, "message": str(e).split("\n--------------------")[0]}


def _leaf(o) -> dict:
    if isinstance(o, (bool, int, float)) and not isinstance(o, np.generic):
        return {"python": o}
    a = np.asarray(o)
    return {"dtype": a.dtype.name, "shape": list(a.shape), "weak_type":
            bool(getattr(o, "weak_type", False)), "values": a.tolist()}


def _outputs(out) -> list:
    if isinstance(out, list) and all(isinstance(p, tuple) for p in out):
        return [{"python": [list(p) for p in out]}]  # an einsum path
    return [_leaf(o) for o in jax.tree_util.tree_leaves(out)]


def _first(out):
    return jax.tree_util.tree_leaves(out)[0]


def main():
    warnings.simplefilter("ignore")
    assert jax.__version__ == "0.10.2", jax.__version__
    data = {}
    for name, (prog, args, checks) in cases.CASES.items():
        ns = {"jnp": jnp, "np": np}
        fn, a = eval(prog, ns), eval(args, ns)
        rec = {}
        try:
            rec["eager"] = _outputs(fn(*a))
        except Exception as e:  # noqa: BLE001
            rec["eager"] = _error(e)
        if "g" in checks:
            g = jax.grad(lambda x, *rest: jnp.sum(_first(fn(x, *rest))))(*a)
            rec["grad"] = _leaf(g)
        if "v" in checks:
            batch = np.stack([a[0], np.flip(a[0])])
            rec["vmap"] = _outputs(jax.vmap(fn, in_axes=(0,) + (None,) * (len(a) - 1))(
                batch, *a[1:]))
        data[name] = rec
    path = ROOT / "tests" / "data" / "numpy_long_tail_b.json"
    path.write_text(json.dumps(data, indent=0) + "\n")
    print(f"wrote {len(data)} cases to {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
