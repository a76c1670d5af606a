"""Record JAX 0.10.2's convolution answers into ``tests/data/convolution.json``.

Run with the JAX venv: ``$JAX_PYTHON tools/record_convolution.py``. The
configurations and the input formula are in ``tests/convolution_cases.py``.
"""
from __future__ import annotations

import json
import pathlib
import sys

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from convolution_cases import CASES, ERROR_CASES, GRAD_CASES, operand  # noqa: E402

# Cases whose vmap the batching tests check: (case, lhs batched, rhs batched).
VMAP_CASES = [("nchw_same", True, False), ("nhwc_valid", False, True),
              ("depthwise", True, True), ("feature_groups", False, True),
              ("batch_groups", True, False), ("batch_groups", True, True),
              ("batch_groups", False, True), ("conv1d_nwc", True, True)]
JAXPR_CASES = ["nchw_same", "both_dilations_nhwc", "depthwise", "batch_groups"]


def _kw(kw):
    kw = dict(kw)
    if "preferred_element_type" in kw:
        kw["preferred_element_type"] = np.dtype(kw["preferred_element_type"])
    return kw


def _enc(x):
    x = np.asarray(x)
    return {"shape": list(x.shape), "dtype": x.dtype.name,
            "values": x.astype(np.float64).ravel().tolist()}


def main():
    out = {"forward": {}, "grad": {}, "vmap": [], "errors": {}, "jaxpr": {},
           "grad_jaxpr": {}, "transpose": [], "numpy": [], "signal": []}
    by_name = {c[0]: c for c in CASES}
    for name, ls, rs, dt, kw in CASES:
        x64 = jax.enable_x64(dt == "float64")
        x64.__enter__()
        x, w = operand(ls, dt, 1), operand(rs, dt, 2)
        y = lax.conv_general_dilated(x, w, **_kw(kw))
        out["forward"][name] = _enc(y)
        if name in JAXPR_CASES:
            out["jaxpr"][name] = str(jax.make_jaxpr(
                lambda a, b: lax.conv_general_dilated(a, b, **_kw(kw)))(x, w))
        x64.__exit__(None, None, None)
    for name in GRAD_CASES:
        _, ls, rs, dt, kw = by_name[name]
        x64 = jax.enable_x64(dt == "float64")
        x64.__enter__()
        x, w = operand(ls, dt, 1), operand(rs, dt, 2)
        f = lambda a, b: lax.conv_general_dilated(a, b, **_kw(kw))  # noqa: E731
        y, vjp = jax.vjp(f, x, w)
        ct = operand(y.shape, dt, 5)
        gx, gw = vjp(ct)
        out["grad"][name] = {"lhs": _enc(gx), "rhs": _enc(gw)}
        if name in JAXPR_CASES:
            out["grad_jaxpr"][name] = str(jax.make_jaxpr(
                lambda a, b, c: jax.vjp(f, a, b)[1](c))(x, w, ct))
        x64.__exit__(None, None, None)
    for name, lb, rb in VMAP_CASES:
        _, ls, rs, dt, kw = by_name[name]
        x = operand((3,) + ls if lb else ls, dt, 1)
        w = operand((3,) + rs if rb else rs, dt, 2)
        f = jax.vmap(lambda a, b: lax.conv_general_dilated(a, b, **_kw(kw)),
                     in_axes=(0 if lb else None, 0 if rb else None))
        out["vmap"].append({"case": name, "lhs_batched": lb, "rhs_batched": rb,
                            "out": _enc(f(x, w)), "jaxpr": str(jax.make_jaxpr(f)(x, w))})
    for name, ls, rs, (dl, dr), kw in ERROR_CASES:
        try:
            lax.conv_general_dilated(operand(ls, dl, 1), operand(rs, dr, 2), **_kw(kw))
            out["errors"][name] = None
        except Exception as e:  # noqa: BLE001
            out["errors"][name] = [type(e).__name__, str(e)]
    for ls, rs, strides, padding, extra in [
            ((1, 5, 5, 2), (3, 3, 2, 3), (2, 2), "SAME", {}),
            ((1, 4, 6, 2), (2, 3, 2, 1), (2, 1), "VALID", {}),
            ((2, 4, 3), (3, 3, 2), (2,), [(1, 2)], {}),
            ((1, 4, 4, 2), (3, 3, 3, 2), (2, 2), "SAME", {"transpose_kernel": True}),
            ((1, 4, 4, 2), (3, 3, 2, 2), (2, 2), [(1, 1), (0, 1)],
             {"use_consistent_padding": True}),
            ((1, 2, 4, 4), (2, 2, 3, 3), (2, 2), "VALID",
             {"dimension_numbers": ("NCHW", "OIHW", "NCHW"), "rhs_dilation": (1, 2)})]:
        x, w = operand(ls, "float32", 1), operand(rs, "float32", 2)
        y = lax.conv_transpose(x, w, strides, padding, **extra)
        out["transpose"].append({"lhs": ls, "rhs": rs, "strides": strides,
                                 "padding": padding, "extra": extra, "out": _enc(y)})
    for fn in ("convolve", "correlate"):
        for mode in ("full", "same", "valid"):
            for na, nv, dt in [(7, 3, "float32"), (4, 6, "float32"), (5, 5, "int32")]:
                a, v = operand((na,), dt, 1), operand((nv,), dt, 2)
                f = lambda a, v: getattr(jnp, fn)(a, v, mode=mode)  # noqa: E731
                rec = {"fn": fn, "mode": mode, "a": na, "v": nv, "dtype": dt,
                       "out": _enc(f(a, v))}
                if (na, nv) == (7, 3) and dt == "float32":
                    rec["jaxpr"] = str(jax.make_jaxpr(f)(a, v))
                out["numpy"].append(rec)
    import jax.scipy.signal as sig
    for fn in ("convolve", "correlate", "convolve2d", "correlate2d"):
        for mode in ("full", "same", "valid"):
            shapes = ([((5, 4), (2, 3)), ((3, 4), (3, 2))] if fn.endswith("2d")
                      else [((6,), (3,)), ((4, 5), (2, 2)), ((3, 4, 2), (2, 2, 2))])
            for sa, sv in shapes:
                a, v = operand(sa, "float32", 1), operand(sv, "float32", 2)
                out["signal"].append({"fn": fn, "mode": mode, "a": sa, "v": sv,
                                      "out": _enc(getattr(sig, fn)(a, v, mode=mode))})
    path = ROOT / "tests" / "data" / "convolution.json"
    path.write_text(json.dumps(out, indent=None, separators=(",", ":")))
    print(path, path.stat().st_size)


if __name__ == "__main__":
    main()
