"""Pass ``dot_transpose``: a 2-D product read only through a (1, 0) transpose becomes the
product of its swapped operands, with the same values bit for bit; other shapes and uses
are left alone."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import ir, lax
from transpile.interpreters.eval import eval_jaxpr_numpy
from transpile.passes import optimize, swap_transposed_dots

_R = np.random.default_rng(3)


def _f32(*shape):
    return _R.standard_normal(shape).astype(np.float32)


def _count(closed, name) -> int:
    def walk(j):
        n = 0
        for e in j.eqns:
            n += e.primitive.name == name
            for v in e.params.values():
                for sub in v if isinstance(v, tuple) else (v,):
                    if isinstance(sub, ir.ClosedJaxpr):
                        n += walk(sub.jaxpr)
                    elif isinstance(sub, ir.Jaxpr):
                        n += walk(sub)
        return n
    return walk(closed.jaxpr)


def _mlp_grad(w, x):
    return jax.grad(lambda w, x: jnp.sum(jnp.tanh(x @ w)))(w, x)


def _scan_body(w, x):
    return lax.scan(lambda c, xi: ((c @ w).T + xi, None), x[0], x)[0]


# name -> (fn, operands, transposes left, dots)
CASES = {
    "matmul_then_transpose": (lambda a, b: (a @ b).T, (_f32(20, 5), _f32(5, 9)), 0, 1),
    "square_result": (lambda a, b: (a @ b).T, (_f32(7, 5), _f32(5, 7)), 0, 1),
    "edge_tiles": (lambda a, b: (a @ b).T, (_f32(17, 300), _f32(300, 13)), 0, 1),
    "contract_first_dims": (lambda a, b: lax.dot_general(a, b, (((0,), (0,)), ((), ()))).T,
                            (_f32(40, 33), _f32(40, 6)), 0, 1),
    "weight_gradient": (_mlp_grad, (_f32(20, 24), _f32(16, 20)), 0, 2),
    "empty_contraction": (lambda a, b: (a @ b).T, (_f32(6, 0), _f32(0, 4)), 0, 1),
    "inside_scan": (_scan_body, (_f32(3, 3), _f32(4, 3, 3)), 0, 1),
    # left alone: matrix-vector shapes, a swapped product narrower than the tile, a product
    # with another reader, batch dimensions
    "row_vector": (lambda a, b: (a @ b).T, (_f32(1, 5), _f32(5, 9)), 1, 1),
    "few_rows": (lambda a, b: (a @ b).T, (_f32(10, 128), _f32(128, 512)), 1, 1),
    "column_vector": (lambda a, b: (a @ b).T, (_f32(7, 5), _f32(5, 1)), 1, 1),
    "product_also_read": (lambda a, b: ((a @ b).T, a @ b), (_f32(20, 5), _f32(5, 9)),
                          1, 1),
    "product_is_output": (lambda a, b: (jnp.transpose(a @ b), jnp.sin(a @ b)),
                          (_f32(20, 5), _f32(5, 9)), 1, 1),
    "batched": (lambda a, b: jnp.swapaxes(a @ b, 1, 2), (_f32(2, 20, 5), _f32(2, 5, 9)),
                1, 1),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_swap_cases(name):
    fn, args, n_transpose, n_dot = CASES[name]
    closed = jax.make_jaxpr(fn)(*args)
    out = optimize(closed)
    ir.typecheck(out)
    assert out.out_avals == closed.out_avals
    assert (_count(out, "transpose"), _count(out, "dot_general")) == (n_transpose, n_dot), \
        str(out)
    assert swap_transposed_dots(out) is out  # a fixed point
    # the rewritten jaxpr computes the original values (NumPy float64 reference)
    want = eval_jaxpr_numpy(closed.jaxpr, closed.consts,
                            *(a.astype(np.float64) for a in args))
    got = jax.jit(fn)(*args)
    for g, w in zip(jax.tree_util.tree_leaves(got), want, strict=True):
        np.testing.assert_allclose(np.asarray(g), w, rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("shape", [(9, 5, 7), (17, 300, 13), (130, 70, 300), (64, 784, 70)],
                         ids=lambda s: "x".join(map(str, s)))
def test_swapped_product_has_the_same_bits(shape):
    # the compiled product of swapped operands against the compiled product transposed
    # by NumPy: each element is the same sum in the same order
    m, k, n = shape
    a, b = _f32(m, k), _f32(k, n)
    swapped = np.asarray(jax.jit(lambda a, b: (a @ b).T)(a, b))
    plain = np.asarray(jax.jit(lambda a, b: a @ b)(a, b)).T
    np.testing.assert_array_equal(swapped.view(np.uint32), plain.view(np.uint32))


def test_precision_pair_follows_its_operand():
    a, b = _f32(8, 4), _f32(4, 6)
    prec = (lax.Precision.HIGHEST, lax.Precision.DEFAULT)
    dims = (((1,), (0,)), ((), ()))
    closed = optimize(jax.make_jaxpr(
        lambda a, b: lax.dot_general(a, b, dims, precision=prec).T)(a, b))
    (dot,) = [e for e in closed.jaxpr.eqns if e.primitive.name == "dot_general"]
    assert dot.params["precision"] == prec[::-1]
    assert dot.params["dimension_numbers"] == (((0,), (1,)), ((), ()))
