"""Gathers whose index expressions fuse into their kernel, and scatters, against NumPy.

``x[i]`` stages the wrapping of negative indices (``lt``, ``add``, ``select_n``,
``broadcast_in_dim``) before its ``gather``: the planner computes it per index vector
inside the gather's loop (``Lowering.fused_operands``), so no index array is stored.
Large single-element gathers also run their batch loop in blocks
(``indexing_kernels.BLOCK``). Scatters keep their index arithmetic in a loop of its
own. Each case runs under ``jit`` and eagerly, and the gathers' gradients (a
scatter-add) are checked against ``np.add.at``.
"""
import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile.codegen import indexing_kernels
from test_codegen_indexing import _same_bits

_rng = np.random.default_rng(19)


def _values(dtype, shape, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _wrap_clip(i, n):
    """``jnp``'s rule for gathered indices: negative ones wrap once, then clamp."""
    i = np.asarray(i, np.int64)
    return np.clip(np.where(i < 0, i + n, i), 0, n - 1)


def _ints(lo, hi, shape, dtype=np.int32):
    return _rng.integers(lo, hi, shape).astype(dtype)


def _scatter_add_ref(x, i, u):
    """``x.at[i].add(u)`` (indices wrapped once; out-of-bounds updates dropped)."""
    out = np.array(x)
    i = np.asarray(i, np.int64)
    i = np.where(i < 0, i + x.shape[0], i)
    keep = (i >= 0) & (i < x.shape[0])
    np.add.at(out, i[keep], np.broadcast_to(u, i.shape)[keep])
    return out


_X = _values(np.float32, (50,), 1)
_M = _values(np.float32, (6, 9), 2)
_BIG = _values(np.float32, (3000,), 3)
_PAR = _values(np.float32, (70000,), 4)

#: (name, function, arguments, NumPy reference)
CASES = [
    ("negative", lambda x, i: x[i], (_X, _ints(-50, 0, 40)),
     lambda x, i: x[_wrap_clip(i, 50)]),
    ("out_of_range", lambda x, i: x[i], (_X, _ints(-200, 200, 40)),
     lambda x, i: x[_wrap_clip(i, 50)]),
    ("int64_indices", lambda x, i: x[i], (_X, _ints(-60, 60, 13, np.int64)),
     lambda x, i: x[_wrap_clip(i, 50)]),
    ("uint8_indices", lambda x, i: x[i], (_X, _ints(0, 255, 13, np.uint8)),
     lambda x, i: x[_wrap_clip(i, 50)]),
    ("multi_dim_indices", lambda x, i: x[i], (_X, _ints(-70, 70, (4, 5))),
     lambda x, i: x[_wrap_clip(i, 50)]),
    ("rows", lambda m, i: m[i], (_M, _ints(-8, 8, 7)), lambda m, i: m[_wrap_clip(i, 6)]),
    ("columns", lambda m, i: m[:, i] * 2, (_M, _ints(-12, 12, 5)),
     lambda m, i: m[:, _wrap_clip(i, 9)] * 2),
    ("computed_indices", lambda x, y: x[(y * 7).astype(np.int32) - 3],
     (_X, _values(np.float32, (30,), 5).clip(-9, 9)),
     lambda x, y: x[_wrap_clip((y * np.float32(7)).astype(np.int32) - 3, 50)]),
    ("indices_from_the_operand", lambda x: x[x.astype(np.int32)],
     (np.array([3, -1, 0, 2, 9, 1, -7], np.float32),),
     lambda x: x[_wrap_clip(x.astype(np.int32), 7)]),
    # sqrt is costly: it stays a loop of its own, the cheap rest fuses
    ("costly_indices", lambda x, y: x[jnp.sqrt(y).astype(np.int32) - 4],
     (_X, np.abs(_values(np.float32, (30,), 6)) * 60),
     lambda x, y: x[_wrap_clip(np.sqrt(y).astype(np.int32) - 4, 50)]),
    ("float16_operand", lambda x, i: x[i], (_X.astype(np.float16), _ints(-50, 50, 9)),
     lambda x, i: x[_wrap_clip(i, 50)]),
    ("fill_mode", lambda x, i: x.at[i].get(mode="fill", fill_value=-1.0),
     (_X, _ints(-80, 80, 30)),
     lambda x, i: np.where((i >= -50) & (i < 50), x[_wrap_clip(i, 50)], np.float32(-1))),
    ("blocked", lambda x, i: x[i], (_BIG, _ints(-4000, 4000, 2500)),
     lambda x, i: x[_wrap_clip(i, 3000)]),
    ("blocked_parallel", lambda x, i: x[i] + 1, (_PAR, _ints(-70000, 70000, 70001)),
     lambda x, i: x[_wrap_clip(i, 70000)] + np.float32(1)),
    ("batched", jax.vmap(lambda x, i: x[i]), (_M, _ints(-9, 9, (6, 4))),
     lambda m, i: np.take_along_axis(m, _wrap_clip(i, 9), 1)),
    ("scatter_add", lambda x, i, u: x.at[i].add(u), (_X, _ints(-60, 60, 20), _X[:20]),
     _scatter_add_ref),
    ("scatter_add_2d_indices", lambda x, i: x.at[i].add(2.0), (_X, _ints(-60, 60, (3, 4))),
     lambda x, i: _scatter_add_ref(x, i, np.float32(2))),
    # The update's indices are read from the array it updates (a temporary, which an
    # update may otherwise overwrite in place): a later index must not read an earlier
    # update (were a scatter's indices fused, Planner._group_step's guard keeps this).
    ("scatter_reads_its_operand",
     lambda x: (y := x * 2).at[(y / 2).astype(np.int32)].add(4.0) * 3,
     (np.array([1, 0, 3, 2, 5, 4], np.float32),),
     lambda x: _scatter_add_ref(x * 2, (x * 2 / 2).astype(np.int32), np.float32(4)) * 3),
]


@pytest.mark.parametrize("name, fn, args, ref", CASES, ids=[c[0] for c in CASES])
def test_jit_matches_numpy(name, fn, args, ref):
    want = ref(*args)
    got = np.asarray(jax.jit(fn)(*args))
    assert _same_bits(got, np.asarray(want, got.dtype)) and got.shape == want.shape


@pytest.mark.parametrize("name, fn, args, ref", CASES[:6] + CASES[-3:],
                         ids=[c[0] for c in CASES[:6] + CASES[-3:]])
def test_eager_matches_numpy(name, fn, args, ref):
    got = np.asarray(fn(*[jnp.asarray(a) for a in args]))
    assert _same_bits(got, np.asarray(ref(*args), got.dtype))


#: (name, operand, indices): the indices stay in range (wrapped negatives included),
#: where the gradient of a gather is the scatter-add of the cotangent.
GRAD_CASES = [
    ("negative", _X, _ints(-50, 50, 40)),
    ("repeated_2d", _X, np.array([[0, -1, 0], [49, -50, 3]], np.int32)),
    ("blocked", _BIG, _ints(-3000, 3000, 2100)),
]


@pytest.mark.parametrize("name, x, i", GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_grad_is_the_scatter_add_of_the_cotangent(name, x, i):
    w = _values(np.float32, i.shape, 7)
    got = np.asarray(jax.jit(jax.grad(lambda x, i, w: jnp.sum(x[i] * w)))(x, i, w))
    want = np.zeros_like(x)
    np.add.at(want, _wrap_clip(i, x.shape[0]), w)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def _kernels(fn, *args):
    """The generated kernels' definitions (each up to its closing brace)."""
    text = jax.jit(fn).lower(*args).compile().as_text()
    return [k.split("\n}\n", 1)[0] for k in text.split("\nstatic void ")[1:]]


def test_index_normalisation_fuses_into_the_gather():
    kernels = _kernels(lambda x, i: x[i], _X, _ints(-50, 50, 40))
    assert len(kernels) == 1  # no kernel storing the wrapped indices first
    # one comment per fused equation, named after the jaxpr's variables
    for eqn in ("c = lt b 0:i32[]", "d = add b 50:i32[]", "e = select_n c b d"):
        assert f"/* {eqn} */" in kernels[0]
    assert "const int32_t b = B[g0];" in kernels[0]


def test_costly_index_expressions_are_stored_first():
    _, fn, args, _ = next(c for c in CASES if c[0] == "costly_indices")
    kernels = _kernels(fn, *args)
    assert len(kernels) == 2 and "sqrtf(" in kernels[0] and "sqrtf(" not in kernels[1]


def test_scatter_indices_are_wrapped_by_a_parallel_loop_first():
    # (a scatter's update loop runs on one thread: indexing_kernels.FUSED_INDICES)
    kernels = _kernels(lambda x, i, u: x.at[i].add(u), _X, _ints(-60, 60, 20), _X[:20])
    assert len(kernels) == 2 and " = lt b 0:i32[] */" in kernels[0]


def test_large_single_element_gathers_are_blocked():
    k, = _kernels(lambda x, i: x[i], _BIG, _ints(0, 3000, 2500))
    assert f"int32_t tp_at[{indexing_kernels.BLOCK}];" in k and "#pragma omp simd" in k
    # rows are copied whole, not blocked
    kernels = _kernels(lambda m, i: m[i], np.zeros((3000, 4), np.float32),
                       _ints(0, 3000, 2500))
    assert "tp_at[" not in kernels[0]
