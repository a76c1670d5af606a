"""Pass ``scan_dots``: a scan body's product of a scanned input and a loop constant runs
once for all steps before the loop; the values match NumPy float64, and shapes or
operands it cannot stack stay in the body."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import ir, lax
from transpile.interpreters.eval import eval_jaxpr_numpy
from transpile.passes import hoist_scan_dots, optimize
from transpile.passes import scan_dots

_R = np.random.default_rng(5)


def _f32(*shape):
    return _R.standard_normal(shape).astype(np.float32)


def _scan_body_dots(closed) -> list:
    """The number of dot_general equations in each scan body, outermost first."""
    found = []

    def walk(j):
        for e in j.eqns:
            if e.primitive.name == "scan":
                body = e.params["jaxpr"].jaxpr
                found.append(sum(b.primitive.name == "dot_general" for b in body.eqns))
                walk(body)
    walk(closed.jaxpr)
    return found


def _rnn(w, u, xs, h0, reverse=False):
    def cell(h, x):
        h = jnp.tanh(h @ w + x @ u)
        return h, h[0]
    return lax.scan(cell, h0, xs, reverse=reverse)


def _batched_rnn(w, u, xs, h0):
    # x_t is (batch, features): a matrix times the constant
    return lax.scan(lambda h, x: (jnp.tanh(h @ w + x @ u), None), h0, xs)[0]


def _const_on_the_left(w, u, xs, h0):
    # u @ x_t: the steps' dimension would not lead the stacked result, so it stays
    return lax.scan(lambda h, x: (jnp.tanh(h + u.T @ x), None), h0, xs)[0]


def _two_scanned(w, u, xs, h0):
    return lax.scan(lambda h, x: (h + x @ x, None), h0, xs)[0]


def _nested(w, u, xs, h0):
    def outer(h, x):
        return lax.scan(lambda g, y: (jnp.tanh(g @ w + y @ u), None), h, x[None])[0], None
    return lax.scan(outer, h0, xs)[0]


def _input_also_read(w, u, xs, h0):
    return lax.scan(lambda h, x: (jnp.tanh(h @ w + x @ u) + x.sum(), x @ u), h0, xs)


W, U = _f32(16, 16) * np.float32(0.2), _f32(8, 16) * np.float32(0.3)
XS, H0 = _f32(12, 8), _f32(16)

# name -> (fn, operands, dots left in each scan body, outermost first)
CASES = {
    "rnn": (_rnn, (W, U, XS, H0), [1]),
    "rnn_reverse": (lambda *a: _rnn(*a, reverse=True), (W, U, XS, H0), [1]),
    "batched_inputs": (_batched_rnn, (W, U, _f32(12, 3, 8), _f32(3, 16)), [1]),
    "long_contraction": (_rnn, (W, _f32(300, 16) * np.float32(0.05), _f32(12, 300), H0),
                         [1]),
    "no_steps": (_rnn, (W, U, _f32(0, 8), H0), [1]),
    "input_also_read": (_input_also_read, (W, U, XS, H0), [1]),
    "const_on_the_left": (_const_on_the_left, (W, _f32(16, 8), _f32(12, 16, 4),
                                               _f32(8, 4)), [1]),
    "two_scanned_operands": (_two_scanned, (W, U, _f32(12, 4, 4), _f32(4, 4)), [1]),
    # the inner product moves to the outer body, where its operand is no scanned input
    "nested": (_nested, (W, U, XS, H0), [1, 1]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_scan_dot_cases(name):
    fn, args, left = CASES[name]
    closed = jax.make_jaxpr(fn)(*args)
    out = optimize(closed)
    ir.typecheck(out)
    assert out.out_avals == closed.out_avals
    assert _scan_body_dots(out) == left, str(out)
    assert hoist_scan_dots(out) is out  # a fixed point
    want = eval_jaxpr_numpy(closed.jaxpr, closed.consts,
                            *(a.astype(np.float64) for a in args))
    got = jax.jit(fn)(*args)
    for g, w in zip(jax.tree_util.tree_leaves(got), want, strict=True):
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-4, atol=1e-4)


def test_stacked_result_size_is_bounded(monkeypatch):
    monkeypatch.setattr(scan_dots, "MAX_BYTES", 12 * 16 * 4 - 1)
    out = optimize(jax.make_jaxpr(_rnn)(W, U, XS, H0))
    assert _scan_body_dots(out) == [2]
