"""``transpile.scipy.special``'s additions (``special_extra.py``) against JAX 0.10.2's
recorded answers (dtype, weak type, shape, values within float32/float64 rounding) and
SciPy's float64 values recorded beside them (SciPy's alone where JAX's algorithm fails) (``tests/data/lax_extra.json``, calls in
``lax_extra_cases.special_calls``); under ``jit`` too; derivatives against central
differences."""
from __future__ import annotations

import numpy as np
import pytest

try:
    import jaxpr_cases
    import lax_extra_cases as cases
except ImportError:  # collected as a package
    from tests import jaxpr_cases
    from tests import lax_extra_cases as cases

import transpile as jax
import transpile.numpy as jnp
from transpile.config import enable_x64
from transpile.scipy import special as sps

DATA = jaxpr_cases.load_data("lax_extra.json")["special"]
DTYPES = ("float32", "float64")
CASES = [(dt, i) for dt in DTYPES for i in range(len(cases.special_calls(dt)))]
IDS = [f"{dt}-{cases.special_calls(dt)[i][0]}" for dt, i in CASES]

#: against JAX: float32 a few ulp (it computes in float32, with other algorithms), with
#: an absolute floor near zeros; float64: JAX's own algorithms' error
TOL = {"float32": (3e-5, 1e-6), "float64": (1e-6, 1e-12)}
#: against SciPy (float64 only): our algorithms' error
SCIPY_TOL = {"default": (1e-11, 1e-14), "hyp2f1": (1e-8, 1e-14)}
#: where JAX's answer is not SciPy's: we follow JAX there (expn(n, 0) is 1/n in JAX
#: 0.10.2, 1/(n - 1) in SciPy)
JAX_CONVENTIONS = {("expn", 4)}


def _dec(values):
    return np.array([float(v) for v in values])


def _run(dt, i, jitted=False):
    name, args, kwargs = cases.special_calls(dt)[i]
    with enable_x64(True):
        made = [cases.make_arg(a, np, jnp) for a in args]
        fn = getattr(sps, name)
        if jitted:
            out = jax.jit(lambda *xs: fn(*xs, **kwargs))(*made)
        else:
            out = fn(*made, **kwargs)
        return name, [np.asarray(y) for y in (out if isinstance(out, tuple) else (out,))], \
            [getattr(y, "weak_type", False) for y in (out if isinstance(out, tuple) else (out,))]


def _jax_is_sane(jax_vals, ref):
    """Where JAX's value is SciPy's (to 1e-4, or both not finite): elsewhere JAX's
    algorithm has failed (bessel_jn overflows to NaN at small |z|, hyp2f1's series
    diverges below x = -1) and SciPy's value is the reference."""
    with np.errstate(invalid="ignore"):
        close = np.abs(jax_vals - ref) <= 1e-4 * np.abs(ref) + 1e-30
    return close | (~np.isfinite(jax_vals) & ~np.isfinite(ref)) | (jax_vals == ref)


def _check(dt, i, outs, weaks):
    name = cases.special_calls(dt)[i][0]
    rec = DATA[dt][i]
    assert len(outs) == len(rec["jax"])
    for k, (y, weak, want) in enumerate(zip(outs, weaks, rec["jax"], strict=True)):
        assert str(y.dtype) == want["dtype"] and list(y.shape) == want["shape"]
        assert bool(weak) == want["weak_type"]
        with np.errstate(over="ignore"):  # SciPy's value in the dtype's range
            ref = _dec(rec["scipy"][k]).astype(dt).astype(np.float64)
        expect = _dec(want["values"])
        got = y.ravel().astype(np.float64)
        convention = np.array([(name, j) in JAX_CONVENTIONS for j in range(got.size)])
        sane = _jax_is_sane(expect, ref) | convention
        rtol, atol = TOL[dt]
        np.testing.assert_allclose(got[sane], expect[sane], rtol=rtol, atol=atol,
                                   err_msg=f"{name} vs JAX")
        np.testing.assert_allclose(got[~sane], ref[~sane], rtol=max(rtol, 1e-6),
                                   atol=atol, err_msg=f"{name} vs SciPy where JAX fails")
        if dt == "float64":
            ok = ~convention & ~(np.isnan(ref) & ~np.isnan(got))
            srtol, satol = SCIPY_TOL.get(name, SCIPY_TOL["default"])
            np.testing.assert_allclose(got[ok], ref[ok], rtol=srtol, atol=satol,
                                       err_msg=f"{name} vs SciPy")


@pytest.mark.parametrize("dt, i", CASES, ids=IDS)
def test_matches_jax_and_scipy(dt, i):
    _, outs, weaks = _run(dt, i)
    _check(dt, i, outs, weaks)


@pytest.mark.parametrize("i", range(len(cases.special_calls("float32"))),
                         ids=[c[0] for c in cases.special_calls("float32")])
def test_jit_matches_jax(i):
    _, outs, weaks = _run("float32", i, jitted=True)
    _check("float32", i, outs, weaks)


GRADS = [
    ("erfcx", lambda x: sps.erfcx(x), [-1.0, 0.5, 3.0]),
    ("dawsn", lambda x: sps.dawsn(x), [0.1, 1.0, 4.0, 12.0]),
    ("spence", lambda x: sps.spence(x), [0.3, 0.7, 2.5]),
    ("sici_si", lambda x: sps.sici(x)[0], [0.5, 3.0]),
    ("sici_ci", lambda x: sps.sici(x)[1], [0.5, 3.0]),
    ("fresnel_s", lambda x: sps.fresnel(x)[0], [0.7, 2.5]),
    ("fresnel_c", lambda x: sps.fresnel(x)[1], [0.7, 2.5]),
    ("expn", lambda x: sps.expn(3, x), [0.5, 2.0]),
    ("owens_t", lambda x: sps.owens_t(x, 0.7), [0.3, 1.5]),
    ("hyp1f1", lambda x: sps.hyp1f1(0.5, 1.5, x), [-1.0, 2.0]),
    ("hyp2f1", lambda x: sps.hyp2f1(0.5, 1.0, 1.5, x), [-2.0, 0.4]),
]


@pytest.mark.parametrize("name, fn, points", GRADS, ids=[g[0] for g in GRADS])
def test_grad_matches_central_differences(name, fn, points):
    with enable_x64(True):
        x = jnp.asarray(points, np.float64)
        g = jax.vmap(jax.grad(fn))(x)
        h = 1e-6
        fd = (np.asarray(fn(x + h)) - np.asarray(fn(x - h))) / (2 * h)
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-9)


def test_bessel_jn_shape_and_errors():
    out = sps.bessel_jn(jnp.ones((2, 3)), v=2)
    assert out.shape == (3, 2, 3) and out.dtype == np.float32
    with pytest.raises(ValueError, match="non-negative"):
        sps.bessel_jn(1.0, v=-1)
