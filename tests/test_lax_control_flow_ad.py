"""Differentiation of ``jit``, ``cond``/``switch``, ``while_loop``, ``fori_loop`` and
``scan`` (``transpile/lax/control_flow_ad.py``).

Values are checked against central finite differences in float64 (forward mode with
``jvp``, reverse mode with ``grad``); a few jaxpr texts against JAX 0.10.2's, recorded
below; and the error JAX gives when reverse-differentiating a ``while_loop``.
"""
from __future__ import annotations

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import lax

EPS = 1e-6
RTOL = 1e-6


def _fd(f, args, k, direction):
    """Central difference of ``f`` along ``direction`` in argument ``k``."""
    hi = list(args)
    lo = list(args)
    hi[k] = args[k] + EPS * direction
    lo[k] = args[k] - EPS * direction
    return (np.asarray(f(*hi), np.float64) - np.asarray(f(*lo), np.float64)) / (2 * EPS)


# ---------------------------------------------------------------------------------------
# Programs: name -> (f, args builder, differentiable argument positions)

def _cond(x, y):
    return lax.cond(x > 0, lambda a, b: jnp.sin(a) * b, lambda a, b: jnp.cos(a) - b * a,
                    x, y)


def _cond_closure(x, y):
    w = jnp.cos(y)
    return lax.cond(x < 1.0, lambda a: a * w, lambda a: jnp.sin(a) + w, x)


def _cond_int_out(x, y):
    n, v = lax.cond(x > 0, lambda a: (1, a * y), lambda a: (2, jnp.sin(a)), x)
    return v * n


def _switch(x, y):
    branches = [lambda a, b: a * b, lambda a, b: jnp.sin(a + b), lambda a, b: -a * a]
    return lax.switch(jnp.int32(1) + (x > 0.5).astype(jnp.int32), branches, x, y)


def _fori(x, y):
    return lax.fori_loop(0, 4, lambda i, c: jnp.sin(c) * x + c, y)


def _scan(x, xs):
    def body(c, v):
        c2 = jnp.sin(c) * v + x
        return c2, c2 * c
    c, ys = lax.scan(body, x * 0.5, xs)
    return c + jnp.sum(ys)


def _scan_reverse(x, xs):
    def body(c, v):
        return c * jnp.cos(v) + x, jnp.sin(c)
    c, ys = lax.scan(body, x, xs, reverse=True)
    return c * jnp.sum(ys * xs)


def _scan_consts_vec(w, xs):
    # a vector carry, a closed-over vector (a const of the body), ys unused
    def body(c, v):
        return jnp.sin(c * w) + v, c
    c, _ = lax.scan(body, jnp.zeros(3), xs)
    return jnp.sum(c * c)


def _scan_int_carry(x, xs):
    def body(carry, v):
        i, c = carry
        return (i + 1, c * jnp.cos(v) + i * x), c
    (_, c), ys = lax.scan(body, (0, x), xs)
    return c + jnp.sum(ys)


def _scan_late_carry(x, xs):
    # the second carry only gets a tangent from the first one inside the loop
    def body(carry, v):
        a, b = carry
        return (a * v, b + jnp.sin(a)), None
    (a, b), _ = lax.scan(body, (x, 1.0), xs)
    return a + b


def _cond_in_scan(x, xs):
    def body(c, v):
        c = lax.cond(v > 0.5, lambda a: jnp.sin(a) * v, lambda a: a * a, c)
        return c, c
    c, ys = lax.scan(body, x, xs)
    return c + jnp.sum(ys)


def _scan_in_cond(x, xs):
    def run(a):
        return lax.scan(lambda c, v: (c * jnp.cos(v) + a, None), a, xs)[0]
    return lax.cond(x > 0, run, lambda a: jnp.sin(a), x)


@jax.jit
def _inner(a, b):
    return jnp.sin(a) * b


@jax.jit
def _outer(a, b):
    return _inner(a, b) * jnp.cos(a) + _inner(b, a)


def _nested_jit(x, y):
    return _outer(x, y) + y


def _jit_in_cond(x, y):
    return lax.cond(x > 0, lambda a, b: _inner(a, b) + a, lambda a, b: a - b, x, y)


def _fori_scan_in_jit(x, y):
    return jax.jit(lambda a, b: lax.fori_loop(0, 3, lambda i, c: c * jnp.sin(b) + a, b))(
        x, y)


def _while(x, y):
    def body(c):
        i, a, b = c
        return i + 1, jnp.sin(a) * b + a, b
    return lax.while_loop(lambda c: c[0] < 4, body, (0, x, y))[1]


def _while_float_cond(x, y):
    return lax.while_loop(lambda c: c[0] < 3.0,
                          lambda c: (c[0] + 1.0, c[1] * jnp.cos(c[1]) + y), (x * 0.0, x))[1]


def _fori_traced(x, y):
    n = (x * 0 + 4).astype(jnp.int32)
    return lax.fori_loop(0, n, lambda i, c: jnp.sin(c) * x + c, y)


XS = np.array([0.3, 0.9, -0.4, 1.2])
CASES = {
    "cond_true": (_cond, lambda: (0.7, 1.3)),
    "cond_false": (_cond, lambda: (-0.7, 1.3)),
    "cond_closure": (_cond_closure, lambda: (0.4, 0.8)),
    "cond_closure_false": (_cond_closure, lambda: (1.4, 0.8)),
    "cond_int_out": (_cond_int_out, lambda: (0.6, 2.0)),
    "switch_1": (_switch, lambda: (0.2, 0.5)),
    "switch_2": (_switch, lambda: (0.9, 0.5)),
    "fori_loop": (_fori, lambda: (0.7, 0.3)),
    "scan": (_scan, lambda: (0.5, XS)),
    "scan_reverse": (_scan_reverse, lambda: (0.5, XS)),
    "scan_consts_vec": (_scan_consts_vec, lambda: (np.array([0.5, -1.0, 2.0]),
                                                   np.array([[0.1, 0.2, 0.3],
                                                             [0.4, -0.5, 0.6]]))),
    "scan_int_carry": (_scan_int_carry, lambda: (0.5, XS)),
    "scan_late_carry": (_scan_late_carry, lambda: (0.5, XS)),
    "cond_in_scan": (_cond_in_scan, lambda: (0.5, XS)),
    "scan_in_cond": (_scan_in_cond, lambda: (0.5, XS)),
    "nested_jit": (_nested_jit, lambda: (0.5, 1.5)),
    "jit_in_cond": (_jit_in_cond, lambda: (0.5, 1.5)),
    "fori_scan_in_jit": (_fori_scan_in_jit, lambda: (0.5, 0.8)),
}
WHILE_CASES = {
    "while": (_while, lambda: (0.5, 0.8)),
    "while_float_cond": (_while_float_cond, lambda: (0.5, 0.8)),
    "fori_traced": (_fori_traced, lambda: (0.5, 0.8)),
}


def _args(make):
    return tuple(np.asarray(a, np.float64) for a in make())


def _directions(args, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(np.shape(a)) for a in args]


@pytest.mark.parametrize("name", sorted(CASES) + sorted(WHILE_CASES))
def test_jvp_matches_finite_differences(name):
    f, make = {**CASES, **WHILE_CASES}[name]
    with jax.enable_x64():
        args = _args(make)
        dirs = _directions(args)
        out, tan = jax.jvp(f, args, tuple(dirs))
        np.testing.assert_allclose(np.asarray(out), np.asarray(f(*args)), rtol=1e-12)
        want = sum(_fd(f, args, k, d) for k, d in enumerate(dirs))
        np.testing.assert_allclose(np.asarray(tan), want, rtol=RTOL, atol=1e-8)


@pytest.mark.parametrize("name", sorted(CASES))
def test_grad_matches_finite_differences(name):
    f, make = CASES[name]
    with jax.enable_x64():
        args = _args(make)
        grads = jax.grad(f, argnums=tuple(range(len(args))))(*args)
        for k, (a, g) in enumerate(zip(args, grads, strict=True)):
            assert np.shape(g) == np.shape(a)
            basis = np.eye(np.size(a)).reshape((np.size(a),) + np.shape(a))
            want = np.array([_fd(f, args, k, e) for e in basis]).reshape(np.shape(a))
            np.testing.assert_allclose(np.asarray(g), want, rtol=RTOL, atol=1e-8)


@pytest.mark.parametrize("name", ["cond_true", "scan", "fori_loop", "nested_jit",
                                  "cond_in_scan"])
def test_grad_jit_composition(name):
    f, make = CASES[name]
    with jax.enable_x64():
        args = _args(make)
        g0 = jax.grad(f, argnums=(0, 1))(*args)
        g1 = jax.grad(jax.jit(f), argnums=(0, 1))(*args)
        g2 = jax.jit(jax.grad(f, argnums=(0, 1)))(*args)
        for a, b, c in zip(g0, g1, g2, strict=True):
            np.testing.assert_allclose(np.asarray(b), np.asarray(a), rtol=1e-12)
            np.testing.assert_allclose(np.asarray(c), np.asarray(a), rtol=1e-10)


@pytest.mark.parametrize("name", ["cond_true", "scan", "nested_jit"])
def test_jvp_of_grad(name):
    """Forward over reverse: the JVP rules also differentiate the split primitives."""
    f, make = CASES[name]
    with jax.enable_x64():
        args = _args(make)
        g = jax.grad(f)
        _, t = jax.jvp(lambda x: g(x, *args[1:]), (args[0],), (np.ones_like(args[0]),))
        want = _fd(g, args, 0, np.ones_like(args[0]))
        np.testing.assert_allclose(np.asarray(t), want, rtol=1e-5)


@pytest.mark.parametrize("name", ["cond_true", "cond_false", "switch_2", "scan",
                                  "scan_late_carry", "nested_jit", "while"])
def test_jit_of_jvp(name):
    f, make = {**CASES, **WHILE_CASES}[name]
    with jax.enable_x64():
        args = _args(make)
        dirs = tuple(_directions(args))
        want = jax.jvp(f, args, dirs)
        got = jax.jit(lambda a, d: jax.jvp(f, a, d))(args, dirs)
        for g, w in zip(got, want, strict=True):
            np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-10)


@pytest.mark.parametrize("name", ["cond_true", "scan", "cond_in_scan", "nested_jit"])
def test_grad_of_jvp(name):
    """Reverse over forward: the JVP'd primitive is linearized and transposed."""
    f, make = CASES[name]
    with jax.enable_x64():
        args = _args(make)
        d = np.ones_like(args[0])

        def h(x, *rest):
            return jax.jvp(lambda a: f(a, *rest), (x,), (d,))[1]
        got = jax.grad(h)(*args)
        want = _fd(h, args, 0, d)
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5)


@pytest.mark.parametrize("name", ["cond_true", "scan", "fori_loop", "nested_jit"])
def test_grad_of_grad(name):
    """Reverse over reverse: the transposed primitives are differentiated again."""
    f, make = CASES[name]
    with jax.enable_x64():
        args = _args(make)
        g = jax.grad(f)
        got = jax.grad(lambda *a: jnp.sum(g(*a)))(*args)
        want = _fd(lambda *a: np.sum(np.asarray(g(*a))), args, 0, np.ones_like(args[0]))
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5)


def test_linearize_scan_and_cond():
    with jax.enable_x64():
        for name in ("scan", "cond_false", "jit_in_cond"):
            f, make = CASES[name]
            args = _args(make)
            dirs = tuple(_directions(args))
            _, f_jvp = jax.linearize(f, *args)
            _, want = jax.jvp(f, args, dirs)
            np.testing.assert_allclose(np.asarray(f_jvp(*dirs)), np.asarray(want),
                                       rtol=1e-12)


def test_linearize_while_works_forward():
    """A while loop can be linearized (its JVP loop is staged whole); only
    transposing it fails."""
    with jax.enable_x64():
        args = _args(WHILE_CASES["while"][1])
        out, f_jvp = jax.linearize(_while, *args)
        _, want = jax.jvp(_while, args, (1.0, 0.0))
        np.testing.assert_allclose(np.asarray(f_jvp(1.0, 0.0)), np.asarray(want),
                                   rtol=1e-12)


WHILE_ERROR = ("Reverse-mode differentiation does not work for lax.while_loop or "
               "lax.fori_loop with dynamic start/stop values. Try using lax.scan, or using "
               "fori_loop with static start/stop.")


@pytest.mark.parametrize("f", [
    lambda x: lax.while_loop(lambda c: c < 10, lambda c: c * 2, x),
    lambda x: _while(x, 2.0),
    jax.jit(lambda x: _fori_traced(x, 0.3)),  # traced bounds: a while loop
])
def test_grad_of_while_raises_jax_error(f):
    with pytest.raises(ValueError) as e:
        jax.grad(f)(1.0)
    assert str(e.value) == WHILE_ERROR


def test_while_without_tangents_is_fine_under_grad():
    # The loop only touches a non-differentiated value.
    def f(x):
        n = lax.while_loop(lambda c: c < 10, lambda c: c * 2, 1.0)
        return jnp.sin(x) * n
    np.testing.assert_allclose(float(jax.grad(f)(0.3)), np.cos(0.3) * 16, rtol=1e-6)


# ---------------------------------------------------------------------------------------
# Jaxpr text against JAX 0.10.2 (float32, recorded in a scratch virtualenv)

def g(x):
    return jnp.sin(x) * x


_g_jit = jax.jit(g)


def _c(x):
    return lax.cond(x > 0, lambda x: jnp.sin(x), lambda x: jnp.cos(x) * x, x)


def _h(x):
    return lax.scan(lambda c, x: (c * jnp.sin(x), c), x, jnp.arange(3.))


def _w(x):
    return lax.while_loop(lambda c: c[0] < 10,
                          lambda c: (c[0] + 1, c[1] * jnp.sin(c[1])), (0, x))[1]


JAXPRS = {
    "jvp_cond": (lambda x, t: jax.jvp(_c, (x,), (t,)), 2, """\
{ lambda ; a:f32[] b:f32[]. let
    c:bool[] = gt a 0.0:f32[]
    d:i32[] = convert_element_type[new_dtype=int32 weak_type=False] c
    e:f32[] f:f32[] = cond[
      branches=(
        { lambda ; g:f32[] h:f32[]. let
            i:f32[] = cos g
            j:f32[] = sin g
            k:f32[] = mul h j
            l:f32[] = neg k
            m:f32[] = mul i g
            n:f32[] = mul l g
            o:f32[] = mul i h
            p:f32[] = add_any n o
          in (m, p) }
        { lambda ; q:f32[] r:f32[]. let
            s:f32[] = sin q
            t:f32[] = cos q
            u:f32[] = mul r t
          in (s, u) }
      )
    ] d a b
  in (e, f) }"""),
    "jvp_jit": (lambda x, t: jax.jvp(_g_jit, (x,), (t,)), 2, """\
{ lambda ; a:f32[] b:f32[]. let
    c:f32[] d:f32[] = jit[
      name=g
      jaxpr={ lambda ; a:f32[] b:f32[]. let
          e:f32[] = sin a
          f:f32[] = cos a
          g:f32[] = mul b f
          c:f32[] = mul e a
          h:f32[] = mul g a
          i:f32[] = mul e b
          d:f32[] = add_any h i
        in (c, d) }
    ] a b
  in (c, d) }"""),
    "grad_jit": (jax.grad(_g_jit), 1, """\
{ lambda ; a:f32[]. let
    _:f32[] b:f32[] c:f32[] = jit[
      name=g
      jaxpr={ lambda ; a:f32[]. let
          c:f32[] = sin a
          b:f32[] = cos a
          _:f32[] = mul c a
        in (_, b, c) }
    ] a
    d:f32[] = jit[
      name=g
      jaxpr={ lambda ; b:f32[] a:f32[] c:f32[] e:f32[]. let
          f:f32[] = mul c e
          g:f32[] = mul e a
          h:f32[] = mul g b
          d:f32[] = add_any f h
        in (d,) }
    ] b a c 1.0:f32[]
  in (d,) }"""),
    "jvp_scan": (lambda x, t: jax.jvp(_h, (x,), (t,)), 2, """\
{ lambda ; a:f32[] b:f32[]. let
    c:f32[3] = iota[dimension=0 dtype=float32 shape=(3,) sharding=None] 
    d:f32[] e:f32[] f:f32[3] g:f32[3] = scan[
      jaxpr={ lambda ; h:f32[] i:f32[] j:f32[]. let
          k:f32[] = sin j
          l:f32[] = convert_element_type[new_dtype=float32 weak_type=False] h
          m:f32[] = convert_element_type[new_dtype=float32 weak_type=False] i
          n:f32[] = mul l k
          o:f32[] = mul m k
        in (n, o, h, i) }
      length=3
      num_carry=2
      num_consts=0
      reverse=False
      unroll=1
    ] a b c
  in (d, f, e, g) }"""),
    "jvp_while": (lambda x, t: jax.jvp(_w, (x,), (t,)), 2, """\
{ lambda ; a:f32[] b:f32[]. let
    _:i32[] c:f32[] d:f32[] = while[
      body_jaxpr={ lambda ; e:i32[] f:f32[] g:f32[]. let
          h:i32[] = add e 1:i32[]
          i:f32[] = sin f
          j:f32[] = cos f
          k:f32[] = mul g j
          l:f32[] = mul f i
          m:f32[] = mul g i
          n:f32[] = mul f k
          o:f32[] = add_any m n
        in (h, l, o) }
      body_nconsts=0
      cond_jaxpr={ lambda ; p:i32[] q:f32[] r:f32[]. let
          s:bool[] = lt p 10:i32[]
        in (s,) }
      cond_nconsts=0
    ] 0:i32[] a b
  in (c, d) }"""),
}


@pytest.mark.parametrize("name", sorted(JAXPRS))
def test_jaxpr_text_matches_jax(name):
    fn, nargs, want = JAXPRS[name]
    assert str(jax.make_jaxpr(fn)(*([1.0] * nargs))) == want


def test_grad_cond_jaxpr_structure():
    """JAX 0.10.2 fills a branch's unused residual slots with ``empty2``; here they are
    zeros. Otherwise the text is JAX's: slots shared by type, a primal cond emitting the
    residuals and a linear cond taking them."""
    text = str(jax.make_jaxpr(jax.grad(_c))(1.0))
    assert "_:f32[] d:f32[] e:f32[] f:f32[] = cond[" in text
    assert "] c d e f 1.0:f32[]" in text
    assert text.count("cond[") == 2


def test_grad_scan_jaxpr_structure():
    """The primal scan emits the residuals as ys; the linear one runs in reverse."""
    text = str(jax.make_jaxpr(jax.grad(lambda x: _h(x)[0]))(1.0))
    assert "_:f32[] _:f32[3] c:f32[3] = scan[" in text
    assert "reverse=True" in text
    assert "] 1.0:f32[] c" in text
