"""Record JAX 0.10.2 on the ``jax.random`` programs of ``tests/random_cases.py``.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_random_data.py

It writes ``tests/data/random.json`` and ``tests/data/random_large.npz``. For every
program, with ``jax_enable_x64`` set to the case's ``x64``: the eager outputs, the outputs
under ``jax.jit`` and, for cases with ``jaxpr=True``, the text of
``jax.make_jaxpr(fn)(*args)``; each either as outputs or as the error raised (class and
normalised message). Per output leaf: shape, dtype, weak type and values. A typed key
leaf is recorded through ``random.key_data`` (``"typed": true``, ``"key_shape"``,
``"key_dtype"``; shape/dtype/values are those of the key data). Values are exact
(``tolist()``; NaN and infinities as strings) for at most 4096 elements; larger arrays
go to the npz file under the key named by ``"npz"``. A ``str`` output is recorded as
``{"str": text}``. ``"eager_equals_jit": false`` flags a case whose jit values differ
from its eager values in JAX itself.
"""
from __future__ import annotations

import json
import math
import re
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import numpy as np  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax, random  # noqa: E402

import random_cases  # noqa: E402

MAX_INLINE = 4096


def _plain(v):
    """JSON-safe values: NaN and infinities as strings."""
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    return v


class Recorder:
    def __init__(self):
        self.large = {}

    def leaf(self, x, ref: str) -> dict:
        if isinstance(x, str):
            return {"str": x}
        info = {}
        if hasattr(x, "dtype") and jnp.issubdtype(x.dtype, jax.dtypes.prng_key):
            info = {"typed": True, "key_shape": list(x.shape), "key_dtype": str(x.dtype)}
            weak = bool(getattr(x, "weak_type", False))
            x = random.key_data(x)
        else:
            weak = bool(getattr(x, "weak_type", False))
        a = np.asarray(x)
        info.update({"shape": list(a.shape), "dtype": str(a.dtype), "weak_type": weak})
        if a.size <= MAX_INLINE:
            values = a.tolist()
            if a.dtype.name == "bfloat16":  # tolist gives ml_dtypes scalars
                values = a.astype(np.float32).tolist()
            info["values"] = _plain(values)
        else:
            key = re.sub(r"[^A-Za-z0-9_]+", "_", ref)
            for k, v in self.large.items():  # share identical arrays (eager == jit)
                if v.dtype == a.dtype and v.shape == a.shape and np.array_equal(
                        v.view(f"u{a.dtype.itemsize}"), a.view(f"u{a.dtype.itemsize}")):
                    key = k
                    break
            else:
                assert key not in self.large, key
                self.large[key] = a
            info["npz"] = key
        return info

    def outputs(self, out, ref: str) -> list:
        leaves = [out] if isinstance(out, str) else jax.tree_util.tree_leaves(out)
        return [self.leaf(x, f"{ref}_{i}") for i, x in enumerate(leaves)]


def _same(a: list, b: list) -> bool:
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if {k: v for k, v in x.items() if k != "npz"} != {k: v for k, v in y.items() if k != "npz"}:
            return False
        if x.get("npz") != y.get("npz"):
            return False
    return True


def record_case(rec: Recorder, index: int, name: str, case) -> dict:
    out = {"x64": case.x64, "tol_ulp": case.tol_ulp}
    if case.optional:
        out["optional"] = case.optional
    ref = f"c{index:03d}"
    jax.config.update("jax_enable_x64", case.x64)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            args = case.args()
            modes = [("eager", case.fn)]
            if case.jit:
                modes.append(("jit", jax.jit(case.fn)))
            for mode, fn in modes:
                try:
                    out[mode] = rec.outputs(fn(*args), f"{ref}_{mode}")
                except Exception as e:  # noqa: BLE001  (recorded: the test expects it too)
                    out[f"{mode}_error"] = random_cases.normalise_error(e)
            if case.jaxpr:
                try:
                    out["jaxpr"] = str(jax.make_jaxpr(case.fn)(*args))
                except Exception as e:  # noqa: BLE001
                    out["jaxpr_error"] = random_cases.normalise_error(e)
    finally:
        jax.config.update("jax_enable_x64", False)
    if "eager" in out and "jit" in out:
        out["eager_equals_jit"] = _same(out["eager"], out["jit"])
    return out


def main() -> None:
    assert jax.__version__ == "0.10.2", jax.__version__
    assert not jax.config.jax_enable_x64, "run with x64 off (unset JAX_ENABLE_X64)"
    rec = Recorder()
    cases = {}
    progs = random_cases.programs(jax, jnp, lax, np, random)
    for i, (name, case) in enumerate(progs.items()):
        cases[name] = record_case(rec, i, name, case)
    differ = [n for n, c in cases.items() if c.get("eager_equals_jit") is False]
    data = {"_meta": {"jax": jax.__version__, "numpy": np.__version__,
                      "recorded_by": "tools/record_random_data.py",
                      "eager_differs_from_jit": differ},
            "cases": cases}
    path = ROOT / "tests" / "data" / "random.json"
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    npz = ROOT / "tests" / "data" / "random_large.npz"
    np.savez_compressed(npz, **rec.large)
    print(f"wrote {path.relative_to(ROOT)} ({len(cases)} programs, "
          f"{path.stat().st_size} bytes) and {npz.relative_to(ROOT)} "
          f"({len(rec.large)} arrays, {npz.stat().st_size} bytes)")
    if differ:
        print("eager != jit in JAX:", ", ".join(differ))


if __name__ == "__main__":
    main()
