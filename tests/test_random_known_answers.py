"""``transpile.random`` against JAX 0.10.2's recorded answers.

``tests/data/random.json`` (and ``random_large.npz`` for outputs of more than 4096
elements) holds, per program of ``random_cases.py`` (recorded by
``tools/record_random_data.py``), JAX's eager outputs, its outputs under ``jit`` and, for
a representative subset, its ``make_jaxpr`` text; or the error each raised. Each is
replayed here against transpile in the case's x64 mode:

* outputs: same leaves, shapes, dtypes and weak types; typed keys (``key<fry>``) are
  compared through ``random.key_data``; values bit for bit (NaN matches NaN), except
  float outputs of cases with ``tol_ulp``, which may differ by that many ulps (or by
  that many machine epsilons in absolute value, for results near 0);
* errors: same class name and normalised message;
* jaxpr text: identical.

``transpile.random`` is imported inside the tests, so this module collects (and every
test fails, rather than skips) while it does not exist. Cases marked ``optional``
(bfloat16, ``multivariate_normal`` methods other than ``'cholesky'``, a few extra
samplers) skip when transpile lacks the attribute they name or raises
``NotImplementedError``.
"""
from __future__ import annotations

import functools
import warnings

import numpy as np
import pytest

try:
    import jaxpr_cases
    import random_cases
except ImportError:  # collected as a package
    from tests import jaxpr_cases, random_cases

import transpile
import transpile as jax

RECORDED = jaxpr_cases.load_data("random.json")["cases"]
NAMES = list(RECORDED)
JIT_NAMES = [n for n in NAMES if "jit" in RECORDED[n] or "jit_error" in RECORDED[n]]
JAXPR_NAMES = [n for n in NAMES if "jaxpr" in RECORDED[n] or "jaxpr_error" in RECORDED[n]]

#: Machine epsilon per float dtype name (bfloat16 without needing ml_dtypes' finfo).
_EPS = {"float16": 2.0**-10, "bfloat16": 2.0**-7, "float32": 2.0**-23, "float64": 2.0**-52}


@functools.cache
def _large():
    return dict(np.load(jaxpr_cases.DATA_DIR / "random_large.npz"))


@functools.cache
def _api():
    """transpile's modules, importing ``transpile.random`` (a failure fails the test)."""
    import transpile.numpy as jnp
    from transpile import lax
    try:
        from transpile import random
    except ImportError as e:
        pytest.fail(f"transpile.random is missing: {type(e).__name__}: {e}")
    return jnp, lax, random


@functools.cache
def _programs():
    jnp, lax, random = _api()
    return random_cases.programs(jax, jnp, lax, np, random)


def _case(name):
    _api()
    progs = _programs()
    if name not in progs:
        pytest.fail(f"{name} is recorded but no longer in random_cases.py")
    case = progs[name]
    if case.optional:
        obj = transpile
        for part in case.optional.split("."):
            if not hasattr(obj, part):
                pytest.skip(f"optional: transpile.{case.optional} is not provided")
            obj = getattr(obj, part)
    return case


class _Mode:
    """The case's x64 mode and silenced warnings, restored on exit."""

    def __init__(self, case):
        self.case = case

    def __enter__(self):
        self.old = transpile.config.read("jax_enable_x64")
        transpile.config.update("jax_enable_x64", self.case.x64)
        self.warn = warnings.catch_warnings()
        self.warn.__enter__()
        warnings.simplefilter("ignore")
        return self

    def __exit__(self, *exc):
        self.warn.__exit__(*exc)
        transpile.config.update("jax_enable_x64", self.old)
        return False


def _call(case, thunk):
    """``thunk()``; an optional case skips on ``NotImplementedError``."""
    try:
        return thunk()
    except NotImplementedError as e:
        if case.optional:
            pytest.skip(f"optional: {e}")
        raise


def _expect_error(case, rec: dict, thunk) -> None:
    try:
        _call(case, thunk)
    except Exception as e:  # noqa: BLE001
        got = random_cases.normalise_error(e)
        assert got["error"] == rec["error"], (got, rec)
        assert got["message"] == rec["message"]
        return
    pytest.fail(f"expected {rec['error']}: {rec['message']}")


# ---------------------------------------------------------------------------------------
# Output comparison

def _expected(w: dict, dtype) -> np.ndarray:
    if "npz" in w:
        return _large()[w["npz"]].astype(dtype)
    values = np.array(w["values"], dtype=object)  # "nan"/"inf" strings convert too
    if values.size == 0:
        return np.zeros(w["shape"], dtype)
    if w["dtype"] == "bfloat16":
        values = values.astype(np.float32)
    return values.astype(dtype).reshape(w["shape"])


def _ordered(a: np.ndarray) -> np.ndarray:
    """Float bits as integers in the order of the floats (so ulp distance = difference)."""
    size = a.dtype.itemsize
    bits = a.view(f"i{size}").astype(np.int64 if size < 8 else object)
    mag = bits & ((1 << (8 * size - 1)) - 1)
    return np.where(bits < 0, -mag, mag)


def _compare_values(got: np.ndarray, want: np.ndarray, tol_ulp, where: str) -> None:
    isfloat = want.dtype.kind == "f" or want.dtype.name == "bfloat16"
    if not isfloat:
        assert np.array_equal(got, want), f"{where}: values differ\n got {got}\nwant {want}"
        return
    size = want.dtype.itemsize
    gnan, wnan = np.isnan(got.astype(np.float64)), np.isnan(want.astype(np.float64))
    assert np.array_equal(gnan, wnan), f"{where}: NaNs differ\n got {got}\nwant {want}"
    gbits = np.where(gnan, 0, got.view(f"u{size}"))
    wbits = np.where(wnan, 0, want.view(f"u{size}"))
    if tol_ulp is None:
        bad = gbits != wbits
        assert not bad.any(), (f"{where}: {int(bad.sum())} of {bad.size} elements differ "
                               f"(bit-exact case)\n got {got[bad][:8]}\nwant {want[bad][:8]}")
        return
    ulps = np.abs(_ordered(got) - _ordered(want))
    ulps = np.where(gnan, 0, ulps)
    with np.errstate(invalid="ignore"):  # inf - inf: those have ulps == 0
        absdiff = np.where(gnan, 0, np.abs(got.astype(np.float64) - want.astype(np.float64)))
    bad = (ulps > tol_ulp) & ~(absdiff <= tol_ulp * _EPS[want.dtype.name])
    assert not bad.any(), (
        f"{where}: {int(bad.sum())} of {bad.size} elements beyond {tol_ulp} ulp "
        f"(max {int(np.max(ulps[bad]))} ulp, max abs {float(np.max(absdiff[bad])):.3g})\n"
        f" got {got[bad][:8]}\nwant {want[bad][:8]}")


def _compare(out, want: list, case, where: str) -> None:
    _, _, random = _api()
    leaves = [out] if isinstance(out, str) else jax.tree_util.tree_leaves(out)
    assert len(leaves) == len(want), f"{where}: {len(leaves)} outputs, JAX gave {len(want)}"
    for i, (got, w) in enumerate(zip(leaves, want, strict=True)):
        at = f"{where} output {i}"
        if "str" in w:
            assert isinstance(got, str) and got == w["str"], at
            continue
        dtype = str(getattr(got, "dtype", ""))
        weak = bool(getattr(got, "weak_type", False))
        if w.get("typed"):
            assert dtype == w["key_dtype"], f"{at}: dtype {dtype}, JAX gave a typed key"
            assert list(np.shape(got)) == w["key_shape"], at
            got = random.key_data(got)
        else:
            assert not dtype.startswith("key<"), f"{at}: a typed key, JAX gave {w['dtype']}"
        arr = np.asarray(got)
        assert list(arr.shape) == w["shape"], f"{at}: shape {arr.shape}, JAX {w['shape']}"
        assert str(arr.dtype) == w["dtype"], f"{at}: dtype {arr.dtype}, JAX {w['dtype']}"
        assert weak == w["weak_type"], f"{at}: weak_type {weak}, JAX {w['weak_type']}"
        _compare_values(arr, _expected(w, arr.dtype), case.tol_ulp, at)


def _check(name: str, mode: str) -> None:
    rec = RECORDED[name]
    case = _case(name)
    with _Mode(case):
        args = _call(case, case.args)
        fn = case.fn if mode == "eager" else jax.jit(case.fn)
        if f"{mode}_error" in rec:
            _expect_error(case, rec[f"{mode}_error"], lambda: fn(*args))
            return
        out = _call(case, lambda: fn(*args))
        _compare(out, rec[mode], case, f"{name} ({mode})")


# ---------------------------------------------------------------------------------------
# Tests

@pytest.mark.parametrize("name", NAMES)
def test_eager(name):
    _check(name, "eager")


@pytest.mark.parametrize("name", JIT_NAMES)
def test_jit(name):
    _check(name, "jit")


#: Cases whose jaxpr differs from JAX's on purpose (values are still compared exactly).
KNOWN_JAXPR_DIFFERENCES = {
    "choice/p": "jnp.searchsorted stages a lax.scan binary search; JAX 0.10.2 stages a "
                "hijax searchsorted (vmapped jits and the le_to primitive)",
}


@pytest.mark.parametrize("name", [pytest.param(
    n, marks=pytest.mark.xfail(reason=KNOWN_JAXPR_DIFFERENCES[n], strict=True))
    if n in KNOWN_JAXPR_DIFFERENCES else n for n in JAXPR_NAMES])
def test_jaxpr(name):
    rec = RECORDED[name]
    case = _case(name)
    with _Mode(case):
        args = _call(case, case.args)
        if "jaxpr_error" in rec:
            _expect_error(case, rec["jaxpr_error"], lambda: jax.make_jaxpr(case.fn)(*args))
            return
        text = str(_call(case, lambda: jax.make_jaxpr(case.fn)(*args)))
    assert text == rec["jaxpr"]


def test_recorded_data_matches_table():
    """The recorded names, modes and flags are those of ``random_cases.py``."""
    progs = random_cases.programs(None, None, None, np, None)  # builds lambdas only
    assert list(progs) == NAMES, "re-run tools/record_random_data.py"
    for name, case in progs.items():
        rec = RECORDED[name]
        assert rec["x64"] == case.x64 and rec["tol_ulp"] == case.tol_ulp, name
        assert case.jaxpr == ("jaxpr" in rec or "jaxpr_error" in rec), name
        assert case.jit == (name in JIT_NAMES), name


def test_recorded_counts():
    assert len(NAMES) >= 60
    assert len([n for n in NAMES if "error" not in n and not n.startswith("repr/")]) >= 100
    assert 20 <= len(JAXPR_NAMES) <= 40
    assert "normal/(100,1000) 1234" in NAMES
    assert RECORDED["normal/(100,1000) 1234"]["eager"][0]["shape"] == [100, 1000]


def test_jax_eager_equals_jit():
    """In JAX itself every case gives the same values eagerly and under jit."""
    assert all(rec.get("eager_equals_jit", True) for rec in RECORDED.values())
