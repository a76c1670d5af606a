"""Record JAX 0.10.2 on the automatic-differentiation programs of ``tests/ad_cases.py``.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_ad_data.py

It writes ``tests/data/ad.json``: ``{"_meta": {...}, "cases": {name: entry}}``. Every
entry has ``kind``, ``x64``, ``simple`` and ``tol`` (from the case) and, with
``jax_enable_x64`` set to the case's ``x64``:

* ``"grad_jaxpr"``: ``"jaxpr"`` (``str(jax.make_jaxpr(fn)(*args))``) or
  ``"jaxpr_error"``, and ``"value"`` (the outputs of ``fn(*args)``) or ``"error"``.
* ``"value"``: ``"value"`` or ``"error"``; with ``jaxpr=True`` also ``"jaxpr"`` or
  ``"jaxpr_error"``.
* ``"error"``: ``"error"`` (``{"error": class name, "message": normalised text}``, see
  ``tests/indexing_cases.normalise_error``), or ``"value"`` if it did not raise.
* ``"tracer_repr"``: ``"value"`` is ``[{"str": text}]``.

``"value"`` is a list, one entry per leaf of ``jax.tree_util.tree_leaves(out)`` (so a
``float0`` leaf is kept): ``shape``, ``dtype`` (``str(dtype)``, ``"float0"`` for
float0, ``"bfloat16"``), ``weak_type`` and ``values`` (``tolist()``; NaN and infinities
as strings; bfloat16 through float32; float0 as ``null``). ``"treedef"`` is
``str(tree_structure(out))`` so pytree shapes (dict keys, tuples) can be checked too.
A Python ``str`` output is recorded as ``{"str": text}``. A leaf that is a Python scalar
(JAX passes some through, e.g. ``lax.stop_gradient(2.0)`` eagerly) also has
``"python_type"`` (``"float"``, ``"int"``); its dtype is then NumPy's for that scalar.
"""
from __future__ import annotations

import json
import math
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import numpy as np  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402

import ad_cases  # noqa: E402


def _plain(v):
    """JSON-safe values: NaN and infinities as strings, complex as [re, im]."""
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, complex):
        return [_plain(v.real), _plain(v.imag)]
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    return v


def leaf(x) -> dict:
    if isinstance(x, str):
        return {"str": x}
    weak = bool(getattr(x, "weak_type", False))
    a = np.asarray(x)
    dtype = "float0" if a.dtype == jax.dtypes.float0 else str(a.dtype)
    info = {"shape": list(a.shape), "dtype": dtype, "weak_type": weak,
            "python_type": type(x).__name__ if not hasattr(x, "shape") else None}
    if info["python_type"] is None:
        del info["python_type"]
    if dtype == "float0":
        info["values"] = None
    elif a.dtype.name == "bfloat16":
        info["values"] = _plain(a.astype(np.float32).tolist())
    else:
        info["values"] = _plain(a.tolist())
    return info


def outputs(out) -> dict:
    if isinstance(out, str):
        return {"value": [leaf(out)]}
    leaves, tree = jax.tree_util.tree_flatten(out)
    return {"value": [leaf(x) for x in leaves], "treedef": str(tree)}


def record_case(name: str, case) -> dict:
    out = {"kind": case.kind, "x64": case.x64, "simple": case.simple, "tol": case.tol}
    jax.config.update("jax_enable_x64", case.x64)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            args = case.args()
            if case.kind == "grad_jaxpr" or case.jaxpr:
                try:
                    out["jaxpr"] = str(jax.make_jaxpr(case.fn)(*args))
                except Exception as e:  # noqa: BLE001  (recorded: the test expects it too)
                    out["jaxpr_error"] = ad_cases.normalise_error(e)
            try:
                out.update(outputs(case.fn(*args)))
            except Exception as e:  # noqa: BLE001
                out["error"] = ad_cases.normalise_error(e)
    finally:
        jax.config.update("jax_enable_x64", False)
    if case.kind == "error" and "error" not in out:
        print(f"note: error case {name!r} did not raise")
    if case.kind != "error" and ("error" in out or "jaxpr_error" in out):
        print(f"note: {name!r} raised {out.get('error') or out.get('jaxpr_error')}")
    return out


def main() -> None:
    assert jax.__version__ == "0.10.2", jax.__version__
    assert not jax.config.jax_enable_x64, "run with x64 off (unset JAX_ENABLE_X64)"
    cases = {}
    for name, case in ad_cases.programs(jax, jnp, lax, np).items():
        cases[name] = record_case(name, case)
    data = {"_meta": {"jax": jax.__version__, "numpy": np.__version__,
                      "recorded_by": "tools/record_ad_data.py"},
            "cases": cases}
    path = ROOT / "tests" / "data" / "ad.json"
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {path.relative_to(ROOT)} ({len(cases)} programs, "
          f"{path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
