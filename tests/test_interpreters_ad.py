"""The differentiation machinery and API (interpreters/ad.py, autodiff.py,
custom_derivatives.py): tracers, jvp/vjp/grad/linearize/jacobians, argument handling,
custom rules, checkpoint and the errors, checked against finite differences and against
texts recorded from JAX 0.10.2. The rules of each primitive family have test files of
their own (test_lax_*_ad.py).
"""
import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile.interpreters import ad


def f_sinx(x):
    return jnp.sin(x) * x


def df_sinx(x):
    return np.cos(x) * x + np.sin(x)


# ---------------------------------------------------------------------------------------
# Tracers (JAX_BEHAVIOUR.md section 2)

def _seen(transform, fn_wrap=lambda f: f):
    seen = []

    def f(x):
        seen.append(repr(x))
        return jnp.sin(x) * x
    transform(fn_wrap(f))
    return seen[0]


def test_tracer_reprs():
    assert _seen(lambda f: jax.grad(f)(3.0)) == "GradTracer(primal=3.0, typeof(tangent)=f32[])"
    assert _seen(lambda f: jax.jvp(f, (2.0,), (1.0,))) == "JVPTracer(primal=2.0, tangent=1.0)"
    assert _seen(lambda f: jax.jit(jax.grad(f))(3.0)) == \
        "GradTracer(primal=JitTracer(~float32[]), typeof(tangent)=f32[])"


def test_python_control_flow_works_under_plain_grad():
    def relu_ish(x):
        return x * x if x > 0 else -x
    assert float(jax.grad(relu_ish)(3.0)) == 6.0
    assert float(jax.grad(relu_ish)(-3.0)) == -1.0


# ---------------------------------------------------------------------------------------
# Values against finite differences

@pytest.mark.parametrize("x", [0.3, -1.7, 2.5])
def test_grad_jvp_vjp_linearize_agree(x):
    with jax.enable_x64():
        want = df_sinx(x)
        np.testing.assert_allclose(jax.grad(f_sinx)(x), want, rtol=1e-12)
        y, t = jax.jvp(f_sinx, (x,), (1.0,))
        np.testing.assert_allclose(t, want, rtol=1e-12)
        np.testing.assert_allclose(y, f_sinx(x))
        y, pull = jax.vjp(f_sinx, x)
        np.testing.assert_allclose(pull(1.0)[0], want, rtol=1e-12)
        y, lin = jax.linearize(f_sinx, x)
        np.testing.assert_allclose(lin(2.0), 2 * want, rtol=1e-12)
        v, g = jax.value_and_grad(f_sinx)(x)
        np.testing.assert_allclose((v, g), (f_sinx(x), want), rtol=1e-12)
        eps = 1e-6
        fd = (f_sinx(x + eps) - f_sinx(x - eps)) / (2 * eps)
        np.testing.assert_allclose(jax.grad(f_sinx)(x), fd, rtol=1e-7)


def test_argnums_has_aux_and_pytrees():
    def f(a, b):
        return jnp.sin(a["x"]) * b + a["y"] * a["y"], {"aux": b}
    a = {"x": 0.5, "y": 2.0}
    g, aux = jax.grad(f, argnums=(0, 1), has_aux=True)(a, 3.0)
    np.testing.assert_allclose(g[0]["x"], np.cos(0.5) * 3.0, rtol=1e-6)
    np.testing.assert_allclose(g[0]["y"], 4.0)
    np.testing.assert_allclose(g[1], np.sin(0.5), rtol=1e-6)
    assert float(aux["aux"]) == 3.0
    (v, aux2), g1 = jax.value_and_grad(f, has_aux=True)(a, 3.0)
    assert set(g1) == {"x", "y"} and float(aux2["aux"]) == 3.0


def test_vectors_jacobians_and_hessian():
    x = np.array([0.1, 0.7, -1.2], np.float32)

    def f(v):
        return jnp.sin(v) * v
    jf = np.asarray(jax.jacfwd(f)(x))
    jr = np.asarray(jax.jacrev(f)(x))
    np.testing.assert_allclose(jf, np.diag(df_sinx(x)), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(jr, jf, rtol=1e-6, atol=1e-7)
    h = jax.hessian(lambda v: f(v)[0] + f(v)[2])(x)
    d2 = 2 * np.cos(x) - x * np.sin(x)
    np.testing.assert_allclose(np.asarray(h), np.diag([d2[0], 0, d2[2]]), rtol=1e-5,
                               atol=1e-6)


def test_higher_order_and_compositions():
    x = 0.8
    d2 = 2 * np.cos(x) - x * np.sin(x)
    np.testing.assert_allclose(jax.grad(jax.grad(f_sinx))(x), d2, rtol=1e-5)
    for g in (jax.grad(jax.jit(f_sinx)), jax.jit(jax.grad(f_sinx)),
              jax.jit(jax.grad(jax.jit(f_sinx)))):
        np.testing.assert_allclose(g(x), df_sinx(x), rtol=1e-6)


# ---------------------------------------------------------------------------------------
# Jaxpr text (recorded from JAX 0.10.2)

def test_grad_jaxpr_text():
    assert str(jax.make_jaxpr(jax.grad(f_sinx))(1.0)) == """{ lambda ; a:f32[]. let
    b:f32[] = sin a
    c:f32[] = cos a
    _:f32[] = mul b a
    d:f32[] = mul b 1.0:f32[]
    e:f32[] = mul 1.0:f32[] a
    f:f32[] = mul e c
    g:f32[] = add_any d f
  in (g,) }"""


# ---------------------------------------------------------------------------------------
# Custom rules and checkpoint

@jax.custom_jvp
def twice_sin(x):
    return jnp.sin(x)


@twice_sin.defjvp
def twice_sin_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return twice_sin(x), 2.0 * t


@jax.custom_vjp
def scaled_mul(x, y):
    return x * y


def scaled_mul_fwd(x, y):
    return scaled_mul(x, y), (x, y)


def scaled_mul_bwd(res, g):
    x, y = res
    return (g * y * 10, g * x)


scaled_mul.defvjp(scaled_mul_fwd, scaled_mul_bwd)


def test_custom_jvp():
    assert float(jax.grad(twice_sin)(1.0)) == 2.0
    y, t = jax.jvp(twice_sin, (1.0,), (1.0,))
    assert float(t) == 2.0 and abs(float(y) - np.sin(1.0)) < 1e-6
    assert abs(float(jax.jit(twice_sin)(1.0)) - np.sin(1.0)) < 1e-6
    assert str(jax.make_jaxpr(jax.grad(twice_sin))(1.0)) == """{ lambda ; a:f32[]. let
    _:f32[] = custom_jvp_call[
      name=twice_sin
      call_jaxpr={ lambda ; b:f32[]. let c:f32[] = sin b in (c,) }
      jvp=twice_sin_jvp
      symbolic_zeros=False
    ] a
    d:f32[] = mul 2.0:f32[] 1.0:f32[]
  in (d,) }"""


def test_custom_vjp():
    gx, gy = jax.grad(scaled_mul, (0, 1))(1.0, 2.0)
    assert (float(gx), float(gy)) == (20.0, 1.0)
    assert float(jax.jit(scaled_mul)(3.0, 2.0)) == 6.0
    assert str(jax.make_jaxpr(jax.grad(scaled_mul))(1.0, 2.0)) == """{ lambda ; a:f32[] b:f32[]. let
    _:f32[] = custom_vjp_call[
      name=scaled_mul
      bwd=scaled_mul_bwd
      call_jaxpr={ lambda ; c:f32[] d:f32[]. let e:f32[] = mul c d in (e,) }
      fwd=scaled_mul_fwd
      symbolic_zeros=False
    ] a b
    f:f32[] = mul 1.0:f32[] b
    g:f32[] = mul f 10.0:f32[]
    _:f32[] = mul 1.0:f32[] a
  in (g,) }"""
    with pytest.raises(TypeError, match="can't apply forward-mode autodiff \\(jvp\\) to a "
                                        "custom_vjp function."):
        jax.jvp(scaled_mul, (1.0, 2.0), (1.0, 1.0))


def test_custom_vjp_bad_bwd():
    @jax.custom_vjp
    def f(x, y):
        return x * y
    f.defvjp(lambda x, y: (x * y, (x, y)), lambda res, g: (g,))
    with pytest.raises(TypeError, match="Custom VJP bwd rule must produce"):
        jax.grad(f)(1.0, 2.0)


def test_checkpoint():
    g = jax.checkpoint(lambda x: jnp.sin(jnp.sin(x)))
    assert "remat2[" in str(jax.make_jaxpr(g)(1.0))
    want = np.cos(np.sin(1.0)) * np.cos(1.0)
    np.testing.assert_allclose(jax.grad(g)(1.0), want, rtol=1e-6)
    np.testing.assert_allclose(jax.jit(g)(1.0), np.sin(np.sin(1.0)), rtol=1e-6)


# ---------------------------------------------------------------------------------------
# Errors (JAX 0.10.2's texts)

@pytest.mark.parametrize("call,exc,match", [
    (lambda: jax.grad(lambda x: x * jnp.ones(3))(1.0), TypeError,
     r"Gradient only defined for scalar-output functions. Output had shape: \(3,\)."),
    (lambda: jax.grad(lambda x: x * 2)(1), TypeError,
     "grad requires real- or complex-valued inputs \\(input dtype that is a sub-dtype of "
     "np.inexact\\), but got int32. If you want to use Boolean- or integer-valued inputs, "
     "use vjp or set allow_int to True."),
    (lambda: jax.grad(lambda x: (x > 0).astype(jnp.int32))(1.0), TypeError,
     "grad requires real-valued outputs"),
    (lambda: jax.jvp(f_sinx, (1.0,), (np.ones(2, np.float32),)), ValueError,
     "jvp called with different primal and tangent shapes"),
    (lambda: jax.jvp(f_sinx, 1.0, 1.0), TypeError,
     "primal and tangent arguments to jax.jvp must be tuples or lists"),
    (lambda: jax.grad(f_sinx, argnums=2)(1.0), TypeError,
     "differentiating with respect to argnums=2 requires at least 3 positional arguments"),
    (lambda: jax.grad(lambda x: x, has_aux=True)(1.0), TypeError,
     "expected function with aux output to return a two-element tuple"),
])
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_float0_tangents_for_integers():
    y, t = jax.jvp(lambda i, x: x * 2, (3, 1.0), (np.zeros((), ad.float0), 1.0))
    assert float(t) == 2.0
    g = jax.grad(lambda i, x: x * 2, argnums=0, allow_int=True)(3, 1.0)
    assert g.dtype == ad.float0 and g.shape == ()
