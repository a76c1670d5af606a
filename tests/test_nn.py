"""``transpile.nn`` against float64 NumPy references and JAX 0.10.2's recorded answers.

The programs live in ``nn_cases.py``; ``tests/data/nn.json`` (``tools/record_nn_data.py``)
holds JAX's output values, dtypes, weak types, ``make_jaxpr`` texts of each function and
of ``grad(sum(f))``, and the gradient values. Each case is checked eager and under
``jit``; differentiable ones also against central finite differences in float64.
"""
from __future__ import annotations

import functools

import numpy as np
import pytest

try:
    import jaxpr_cases
    import nn_cases
except ImportError:  # collected as a package
    from tests import jaxpr_cases, nn_cases

import transpile
import transpile as jax
import transpile.numpy as jnp

RECORDED = jaxpr_cases.load_data("nn.json")["cases"]
NAMES = list(RECORDED)
GRAD_NAMES = [n for n in NAMES if "grad_jaxpr" in RECORDED[n]]

_JIT_RESIDUALS = ("differentiating a jit keeps residuals JAX's partial evaluation drops "
                  "(the tangent of a max under stop_gradient, a zero for where's jvp)")

#: name -> why transpile's make_jaxpr(f) text differs (strict xfails).
KNOWN_JAXPR_DIFFERENCES: dict = {}
#: name -> why transpile's make_jaxpr(grad(sum(f))) text differs (strict xfails).
KNOWN_GRAD_JAXPR_DIFFERENCES: dict = {
    **KNOWN_JAXPR_DIFFERENCES,
    **{n: _JIT_RESIDUALS for n in (
        "log_softmax", "log_softmax axis0", "log_softmax x64")},
    "softmax where": "JAX reuses one traced jaxpr for the two _where calls of one "
                     "signature and hoists it (let _where = ...); transpile traces each",
}


@functools.cache
def _cases(x64):
    with transpile.enable_x64(x64):
        return nn_cases.programs(jax, jnp, np)


def _case(name):
    return _cases(RECORDED[name]["x64"])[name]


def _decode(values):
    return np.array([float(v) for v in values], np.float64)


def _marks(names, table):
    return [pytest.param(n, marks=pytest.mark.xfail(reason=table[n], strict=True))
            if n in table else n for n in names]


def _tol(dtype):
    return dict(rtol=2e-6, atol=1e-6) if np.dtype(dtype) == np.float32 else \
        dict(rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("use_jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name", NAMES)
def test_values_match_jax(name, use_jit):
    rec = RECORDED[name]
    case = _case(name)
    with transpile.enable_x64(rec["x64"]):
        fn = jax.jit(case.fn) if use_jit else case.fn
        y = fn(case.arg)
        assert str(y.dtype) == rec["dtype"]
        assert list(y.shape) == rec["shape"]
        assert bool(y.weak_type) == rec["weak_type"]
        got = np.asarray(y, np.float64).ravel()
        np.testing.assert_allclose(got, _decode(rec["value"]), **_tol(rec["dtype"]))


@pytest.mark.parametrize("name", [n for n in NAMES if _case(n).ref is not None])
def test_values_match_numpy_float64(name):
    rec = RECORDED[name]
    case = _case(name)
    with transpile.enable_x64(rec["x64"]):
        got = np.asarray(case.fn(case.arg), np.float64)
    want = case.ref(np.asarray(case.arg, np.float64))
    tol = dict(rtol=1e-5, atol=1e-6) if rec["dtype"] == "float32" else \
        dict(rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got, np.broadcast_to(want, got.shape), **tol)


@pytest.mark.parametrize("name", _marks(NAMES, KNOWN_JAXPR_DIFFERENCES))
def test_jaxpr_text(name):
    rec = RECORDED[name]
    case = _case(name)
    with transpile.enable_x64(rec["x64"]):
        assert str(jax.make_jaxpr(case.fn)(case.arg)) == rec["jaxpr"]


def _grad(fn):
    return jax.grad(lambda x: jnp.sum(fn(x)))


@pytest.mark.parametrize("name", _marks(GRAD_NAMES, KNOWN_GRAD_JAXPR_DIFFERENCES))
def test_grad_jaxpr_text(name):
    rec = RECORDED[name]
    case = _case(name)
    with transpile.enable_x64(rec["x64"]):
        assert str(jax.make_jaxpr(_grad(case.fn))(case.arg)) == rec["grad_jaxpr"]


@pytest.mark.parametrize("use_jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name", GRAD_NAMES)
def test_grad_values_match_jax(name, use_jit):
    rec = RECORDED[name]
    case = _case(name)
    with transpile.enable_x64(rec["x64"]):
        g = _grad(case.fn)
        got = np.asarray((jax.jit(g) if use_jit else g)(case.arg), np.float64).ravel()
    np.testing.assert_allclose(got, _decode(rec["grad_value"]), **_tol(rec["dtype"]))


@pytest.mark.parametrize("name", [n for n in GRAD_NAMES if n.endswith("x64")])
def test_grad_matches_central_differences(name):
    """d/dx sum(f(x)) by central differences in float64, away from kinks at 0 (and 6)."""
    case = _case(name)
    x = np.asarray(case.arg, np.float64)
    with transpile.enable_x64(True):
        g = np.asarray(_grad(case.fn)(x))
        f = lambda v: float(np.sum(np.asarray(case.fn(v))))  # noqa: E731
        h = 1e-6
        fd = np.empty_like(x)
        for i in np.ndindex(x.shape):
            e = np.zeros_like(x)
            e[i] = h
            fd[i] = (f(x + e) - f(x - e)) / (2 * h)
    smooth = (x != 0) & (x != 6)
    np.testing.assert_allclose(g[smooth], fd[smooth], rtol=1e-6, atol=1e-7)


def test_relu_derivative_at_zero_is_zero():
    assert float(jax.grad(jax.nn.relu)(0.0)) == 0.0
    assert float(jax.grad(jax.nn.relu6)(0.0)) == 0.0
    assert float(jax.grad(jax.nn.relu6)(6.0)) == 0.0


def test_logsumexp_return_sign_and_negative_b():
    x = jnp.array([0.0, 1.0], jnp.float32)
    out, sign = jax.nn.logsumexp(x, b=jnp.array([1.0, -1.0]), return_sign=True)
    np.testing.assert_allclose(float(out), np.log(np.e - 1), rtol=1e-6)
    assert float(sign) == -1.0
    assert np.isnan(float(jax.nn.logsumexp(x, b=jnp.array([1.0, -1.0]))))


def test_nn_is_exported():
    assert "nn" in transpile.__all__
    for name in ("relu", "relu6", "sigmoid", "log_sigmoid", "softplus", "silu", "swish",
                 "gelu", "elu", "leaky_relu", "celu", "selu", "softmax", "log_softmax",
                 "logsumexp", "one_hot", "standardize"):
        assert callable(getattr(transpile.nn, name)), name


# ---------------------------------------------------------------------------------------
# The rest of jax.nn (activations, glu, logmeanexp, dot_product_attention) against JAX
# 0.10.2's recorded values (tests/api_cases.py, tools/record_api_data.py).

try:
    import api_cases
except ImportError:  # collected as a package
    from tests import api_cases

API = jaxpr_cases.load_data("api.json")


def _eval_nn(expr, x):
    return eval(expr, {"nn": jax.nn, "x": x, "np": np})


@pytest.mark.parametrize("name", list(api_cases.NN_EXPRS))
def test_more_activations_match_jax(name):
    expr = api_cases.NN_EXPRS[name]
    x = jnp.asarray(api_cases.NN_X)
    api_cases.assert_matches(_eval_nn(expr, x), API["nn"][name], rtol=2e-6, atol=1e-7)


def test_more_activations_under_jit_and_grad():
    # one jitted program over all of them (few compiles), then their gradients
    names = list(api_cases.NN_GRAD)
    x = jnp.asarray(api_cases.NN_X)
    outs = jax.jit(lambda x: [_eval_nn(api_cases.NN_EXPRS[n], x) for n in names])(x)
    for n, o in zip(names, outs):
        api_cases.assert_matches(o, API["nn"][n], rtol=2e-6, atol=1e-7)
    grads = jax.jit(lambda x: [jax.grad(lambda x, n=n: jnp.sum(
        _eval_nn(api_cases.NN_EXPRS[n], x)))(x) for n in names])(x)
    for n, g in zip(names, grads):
        api_cases.assert_matches(g, API["nn_grad"][n], rtol=2e-5, atol=1e-6)


@pytest.mark.parametrize("name", list(api_cases.ATTENTION_EXPRS))
def test_dot_product_attention_matches_jax(name):
    inputs = {k: jnp.asarray(v) for k, v in api_cases.attention_inputs().items()}
    got = eval(api_cases.ATTENTION_EXPRS[name], {"nn": jax.nn, **inputs})
    want = API["attention"][name]
    if isinstance(want, list):
        for g, w in zip(got, want, strict=True):
            api_cases.assert_matches(g, w, rtol=1e-5, atol=1e-6)
    else:
        api_cases.assert_matches(got, want, rtol=1e-5, atol=1e-6)


def test_dot_product_attention_jit_grad_and_reference():
    inp = api_cases.attention_inputs()
    q, k, v = (jnp.asarray(inp[n]) for n in "qkv")
    f = jax.jit(lambda q, k, v: jax.nn.dot_product_attention(q, k, v, is_causal=True))
    # float64 NumPy reference of causal grouped attention
    q64, k64, v64 = (inp[n].astype(np.float64) for n in "qkv")
    kk = np.repeat(k64, 2, axis=2)
    vv = np.repeat(v64, 2, axis=2)
    logits = np.einsum("btnh,bsnh->bnts", q64, kk) / np.sqrt(8)
    logits = np.where(np.tril(np.ones((3, 5), bool)), logits, -np.inf)
    p = np.exp(logits - logits.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    ref = np.einsum("bnts,bsnh->btnh", p, vv)
    np.testing.assert_allclose(np.asarray(f(q, k, v)), ref, rtol=1e-5, atol=1e-5)
    g = jax.grad(lambda q: jnp.sum(f(q, k, v) ** 2))(q)
    eps = 1e-3
    d = np.zeros_like(inp["q"])
    d[1, 2, 3, 4] = eps
    num = (float(jnp.sum(f(q + d, k, v) ** 2)) - float(jnp.sum(f(q - d, k, v) ** 2))) / (2 * eps)
    np.testing.assert_allclose(float(g[1, 2, 3, 4]), num, rtol=2e-2, atol=2e-3)


@pytest.mark.parametrize("expr", api_cases.NN_ERRORS)
def test_nn_errors_match_jax(expr):
    inputs = {k: jnp.asarray(v) for k, v in api_cases.attention_inputs().items()}
    want = API["errors"][expr]
    with pytest.raises(Exception) as info:
        eval(expr, {"nn": jax.nn, "np": np, **inputs})
    assert type(info.value).__name__ == want["error"]
    assert str(info.value) == want["message"]


def test_cudnn_attention_is_refused_clearly():
    inp = {k: jnp.asarray(v) for k, v in api_cases.attention_inputs().items()}
    with pytest.raises(NotImplementedError, match="cudnn"):
        jax.nn.dot_product_attention(inp["q"], inp["k"], inp["v"], implementation="cudnn")
