"""complex64/complex128 through every layer, against JAX 0.10.2's recording.

``tests/data/complex.json`` (``tools/record_complex.py``) holds, for each expression over
complex operands ``x``, ``y``, ``m`` and a real ``r`` (complex64/float32 with x64 off,
complex128/float64 with x64 on), JAX's result (dtype, weak type, shape, values as
``[re, im]`` pairs) or its error, eagerly and under ``jit`` (where they differ). Each
expression is evaluated here with transpile's ``jax``/``jnp``/``lax``, eagerly and under
``jit``; transcendental results agree to a few ulp (XLA's expansions are not repeated
bit for bit), arithmetic and data movement exactly up to rounding.
"""
from __future__ import annotations

import contextlib
import json
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import lax

DATA = json.loads((Path(__file__).parent / "data" / "complex.json").read_text())
META = DATA["_meta"]
#: Relative (and absolute) tolerance per complex width: XLA's complex functions are
#: within a few ulp of the C library's.
TOL = {"x64_off": 2e-5, "x64_on": 1e-12}
#: Cases whose jit run JAX refuses or that return host values (dtypes, strings).
_HOST_ONLY = {"1j + 2", "str(jnp.result_type(1j, jnp.float32))",
              "str(jnp.result_type(1j, 2.0))", "jnp.result_type(1j, jnp.float16)",
              "jnp.iscomplexobj(x)", "jnp.isrealobj(r)"}


def _missing(expr: str) -> list:
    """The ``jnp.``/``lax.`` names of ``expr`` that transpile does not define (yet)."""
    mods = {"jnp": jnp, "lax": lax, "jnp.linalg": jnp.linalg}
    return [f"{m}.{n}" for m, n in re.findall(r"\b(jnp(?:\.linalg)?|lax)\.(\w+)", expr)
            if not hasattr(mods[m], n)]


def _decode(v):
    a = np.asarray(v, dtype=np.float64)
    return a[..., 0] + 1j * a[..., 1]


@contextlib.contextmanager
def _mode(mode):
    old = bool(jax.config.jax_enable_x64)
    jax.config.update("jax_enable_x64", mode == "x64_on")
    try:
        yield
    finally:
        jax.config.update("jax_enable_x64", old)


def _args(mode):
    cdt, rdt = (np.complex128, np.float64) if mode == "x64_on" else (np.complex64,
                                                                      np.float32)
    return {"x": jnp.asarray(_decode(META["x"]).astype(cdt)),
            "y": jnp.asarray(_decode(META["y"]).astype(cdt)),
            "r": jnp.asarray(np.array(META["r"], rdt)),
            "m": jnp.asarray(_decode(META["m"]).astype(cdt))}


def _check(got, want, tol, what):
    if "error" in want:
        raise AssertionError(f"{what}: JAX raised {want['error']}: {want['message']}, "
                             f"transpile gave {got!r}")
    if "str" in want:
        assert (got if isinstance(got, str) else str(np.dtype(got))) == want["str"], what
        return
    if "tuple" in want:
        assert isinstance(got, (tuple, list)) and len(got) == len(want["tuple"]), what
        for g, w in zip(got, want["tuple"], strict=True):
            _check(g, w, tol, what)
        return
    a = np.asarray(got)
    assert str(a.dtype) == want["dtype"], f"{what}: dtype {a.dtype} != {want['dtype']}"
    assert list(a.shape) == want["shape"], what
    assert bool(getattr(got, "weak_type", False)) == want["weak_type"], f"{what}: weak_type"
    w = _decode(want["values"]) if a.dtype.kind == "c" else np.asarray(want["values"])
    if a.dtype.kind in "biu":
        np.testing.assert_array_equal(a, w, err_msg=what)
    else:
        finite = np.abs(w)[np.isfinite(np.abs(w))]
        scale = max(1.0, float(np.max(finite, initial=0)))
        np.testing.assert_allclose(a, w, rtol=tol, atol=tol * scale, err_msg=what)


def _run(fn, args, want, tol, what):
    if "error" in want:
        with pytest.raises(Exception) as info:
            fn(**args)
        assert type(info.value).__name__ == want["error"], what
        assert str(info.value).split("\n")[0] == want["message"], what
        return
    _check(fn(**args), want, tol, what)


CASES = [pytest.param(mode, row, id=f"{mode}-{row['expr']}")
         for mode in ("x64_off", "x64_on") for row in DATA[mode]
         if row["group"] in ("lax", "jnp")]


def _env():
    return {"jax": jax, "jnp": jnp, "lax": lax, "np": np}


@pytest.mark.parametrize("mode,row", CASES)
def test_eager(mode, row):
    if _missing(row["expr"]):
        pytest.skip(f"transpile has no {', '.join(_missing(row['expr']))}")
    with _mode(mode), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fn = eval("lambda x, y, r, m: " + row["expr"], _env())
        _run(fn, _args(mode), row["eager"], TOL[mode], row["expr"])


def _jit_rows(mode, errors: bool):
    return [r for r in DATA[mode] if r["group"] in ("lax", "jnp") and r["expr"] not in _HOST_ONLY
            and ("error" in r.get("jit", r["eager"])) == errors and not _missing(r["expr"])]


@pytest.mark.parametrize("mode,row", [pytest.param(m, r, id=f"{m}-{r['expr']}")
                                      for m in ("x64_off", "x64_on")
                                      for r in _jit_rows(m, True)])
def test_jit_errors(mode, row):
    with _mode(mode), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fn = eval("lambda x, y, r, m: " + row["expr"], _env())
        _run(jax.jit(fn), _args(mode), row.get("jit", row["eager"]), TOL[mode], row["expr"])


@pytest.mark.parametrize("mode", ["x64_off", "x64_on"])
def test_jit(mode):
    """Every case under one ``jit`` (one compiled program per mode: each case's result
    is one output of it)."""
    rows = _jit_rows(mode, False)
    fns = [eval("lambda x, y, r, m: " + row["expr"], _env()) for row in rows]
    with _mode(mode), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        outs = jax.jit(lambda **a: [fn(**a) for fn in fns])(**_args(mode))
        assert len(outs) == len(rows) > 100
        for out, row in zip(outs, rows, strict=True):
            _check(out, row.get("jit", row["eager"]), TOL[mode], row["expr"])


#: Expressions whose jaxpr differs from JAX's for reasons not about complex numbers
#: (strict xfails: one that starts matching must leave the list).
KNOWN_JAXPR_DIFFERENCES = {
    "jnp.linalg.norm(x)": "jnp.linalg.norm is not staged as jit[name=norm], for any dtype",
    "jnp.isclose(x, y)": "jnp.isclose stages JAX's earlier expansion (the same values)",
}


@pytest.mark.parametrize("mode,row", [
    pytest.param(m, r, id=f"{m}-{r['expr']}", marks=[pytest.mark.xfail(
        reason=KNOWN_JAXPR_DIFFERENCES[r["expr"]], strict=True)]
        if r["expr"] in KNOWN_JAXPR_DIFFERENCES else [])
    for m in ("x64_off", "x64_on") for r in DATA[m] if r["group"] == "jaxpr"])
def test_jaxpr_text(mode, row):
    """The staged equations print as JAX's (complex literals, conj's input_dtype, ...)."""
    with _mode(mode), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fn = eval("lambda x, y, r, m: " + row["expr"], _env())
        assert str(jax.make_jaxpr(fn)(**_args(mode))) == row["jaxpr"]


def test_cuda_emulated_matches_the_c_backend(tmp_path):
    """The generated CUDA (``tp_complex.h``'s C++ side: ``cuda::std::complex``, here
    ``std::complex`` on the CPU emulator of ``cuda_emulation.py``) computes what C does."""
    try:
        from cuda_emulation import build_emulated, compiler
    except ImportError:  # collected as a package
        from tests.cuda_emulation import build_emulated, compiler
    from transpile.stages import compile_many
    if compiler() is None:
        pytest.skip("no C++ compiler")
    z = (np.linspace(-1, 1, 300) + 1j * np.linspace(2, -0.5, 300)).astype(np.complex64)
    progs = [
        ("elementwise", lambda z: (jnp.exp(z) * z / (z + 1j), jnp.abs(z), jnp.sqrt(z),
                                   z.real, jnp.conj(z), jnp.sign(z), z ** 3, jnp.arctan(z),
                                   jnp.tanh(z), jnp.maximum(z, 0.5j), z.astype(jnp.float32),
                                   z != 0, lax.complex(z.imag, z.real), jnp.log1p(z))),
        ("reductions", lambda z: (jnp.sum(z), jnp.prod(z[:10]), jnp.max(z), jnp.cumsum(z),
                                  jnp.sort(z), z[:30].reshape(5, 6) @ z[:30].reshape(6, 5))),
    ]
    named = [(n, jax.make_jaxpr(f)(z)) for n, f in progs]
    with _mode("x64_on"):  # complex128: 16-byte elements through the block reductions
        named.append(("c128", jax.make_jaxpr(lambda w: (jnp.sum(w), jnp.max(w), w * w))(
            z.astype(np.complex128))))
    cpu = compile_many(named)
    emu = build_emulated(named, tmp_path)
    for (name, _), c, g in zip(named, cpu, emu, strict=True):
        arg = z.astype(np.complex128) if name == "c128" else z
        for k, (x, y) in enumerate(zip(g([arg]), c([arg]), strict=True)):
            x, y = (np.asarray(getattr(v, "_value", v)) for v in (x, y))
            assert x.dtype == y.dtype, f"{name} output {k}"
            np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-5, err_msg=f"{name} {k}")


def test_isinf_isfinite_isnan_follow_numpy():
    """A complex number is infinite when either part is, finite when both are, NaN when
    either part is (NumPy's and JAX's rules), eagerly and under jit."""
    inf, nan = np.inf, np.nan
    z = np.array([complex(inf, 1), complex(1, -inf), complex(nan, 0), complex(0, nan),
                  1j, complex(inf, nan)], np.complex64)
    fns = (jnp.isinf, jnp.isfinite, jnp.isnan)
    want = [np.isinf(z), np.isfinite(z), np.isnan(z)]
    for run in (lambda a: [f(a) for f in fns], jax.jit(lambda a: [f(a) for f in fns])):
        for got, w in zip(run(jnp.asarray(z)), want, strict=True):
            np.testing.assert_array_equal(np.asarray(got), w)


@pytest.mark.parametrize("mode", ["x64_off", "x64_on"])
def test_jit_computes_what_eager_computes(mode):
    """The generated C (``tp_complex.h``) and the NumPy rules (``_complex_math.py``)
    compute complex elementwise primitives the same way: equal bits, up to the last ulp
    of a libm call."""
    rows = [r for r in _jit_rows(mode, False) if r["group"] == "lax"]
    fns = [eval("lambda x, y, r, m: " + row["expr"], _env()) for row in rows]
    with _mode(mode), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        args = _args(mode)
        jitted = jax.jit(lambda **a: [fn(**a) for fn in fns])(**args)
        for fn, got, row in zip(fns, jitted, rows, strict=True):
            want = np.asarray(fn(**args))
            ulp = np.finfo(_real_of(want.dtype)).eps
            np.testing.assert_allclose(np.asarray(got), want, rtol=4 * ulp, atol=4 * ulp,
                                       err_msg=row["expr"])


def _real_of(dt):
    """The float type of one part of a complex dtype (float64 for non-floats)."""
    return np.float32 if np.dtype(dt) in (np.complex64, np.float32) else np.float64
