"""Static indexing and ``.at[]`` updates against NumPy on random index expressions.

Indices mix integers (negative too), slices with any start/stop/step (out of range,
negative steps), ``None`` and ``Ellipsis``; masks are concrete boolean arrays. Every
expression is checked eagerly and under ``jit``. The jaxpr text of the indexing forms
JAX shares with us is in test_numpy_jaxprs.py.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

import transpile.numpy as jnp
from transpile.errors import NonConcreteBooleanIndexError
from transpile.jit import jit, make_jaxpr

SHAPE = (4, 5, 3)
BASE = np.arange(60, dtype=np.float32).reshape(SHAPE) - 20


def _random_slice(rng: random.Random, n: int) -> slice:
    def bound():
        return rng.choice([None, rng.randint(-n - 2, n + 2)])
    step = rng.choice([None, 1, 2, 3, -1, -2])
    return slice(bound(), bound(), step)


def _random_index(rng: random.Random, shape):
    entries, dim = [], 0
    used_ellipsis = False
    while dim < len(shape) and rng.random() < 0.85:
        kind = rng.choice(["int", "slice", "slice", "none", "ellipsis"])
        if kind == "int":
            n = shape[dim]
            entries.append(rng.randint(-n, n - 1))
            dim += 1
        elif kind == "slice":
            entries.append(_random_slice(rng, shape[dim]))
            dim += 1
        elif kind == "none":
            entries.append(None)
        elif not used_ellipsis:
            entries.append(Ellipsis)
            used_ellipsis = True
            dim = len(shape) - sum(1 for e in entries if e is not None and e is not Ellipsis)
            dim = max(dim, sum(1 for e in entries if isinstance(e, (int, slice))))
    if len(entries) == 1 and rng.random() < 0.5:
        return entries[0]
    return tuple(entries)


def _indices(count, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        idx = _random_index(rng, SHAPE)
        try:
            BASE[idx]
        except IndexError:
            continue
        out.append(idx)
    return out


INDICES = _indices(120, 0)


@pytest.mark.parametrize("idx", INDICES, ids=repr)
def test_getitem_matches_numpy(idx):
    want = BASE[idx]
    x = jnp.asarray(BASE)
    got = x[idx]
    assert got.shape == want.shape
    np.testing.assert_array_equal(np.asarray(got), want)
    traced = jit(lambda a: a[idx])(x)
    np.testing.assert_array_equal(np.asarray(traced), want)


@pytest.mark.parametrize("idx", INDICES[:60], ids=repr)
def test_at_set_and_add_match_numpy(idx):
    x = jnp.asarray(BASE)
    shape = BASE[idx].shape
    values = (np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) + 100)
    want = BASE.copy()
    want[idx] = values
    np.testing.assert_array_equal(np.asarray(x.at[idx].set(values)), want)
    np.testing.assert_array_equal(np.asarray(jit(lambda a, v: a.at[idx].set(v))(x, values)),
                                  want)
    want = BASE.copy()
    want[idx] += 7
    np.testing.assert_array_equal(np.asarray(x.at[idx].add(7)), want)
    want = BASE.copy()
    want[idx] = np.minimum(want[idx], 0)
    np.testing.assert_array_equal(np.asarray(x.at[idx].min(0)), want)
    want = BASE.copy()
    want[idx] *= -2
    np.testing.assert_array_equal(np.asarray(jit(lambda a: a.at[idx].multiply(-2))(x)), want)


MASK_CASES = [
    (np.array([True, False, True, True]),),
    (slice(None), np.array([False, True, True, False, True])),
    (np.arange(20).reshape(4, 5) % 3 == 0,),
    (BASE > 5,),
    (1, np.array([True, False, False, True, True])),
    (Ellipsis, np.array([True, False, True])),
    (np.zeros(4, bool),),
    (slice(None, None, -1), np.array([True, True, False, False, True]), slice(1, None)),
]


@pytest.mark.parametrize("idx", MASK_CASES, ids=lambda i: str(len(i)))
def test_mask_getitem_and_update(idx):
    x = jnp.asarray(BASE)
    want = BASE[idx]
    np.testing.assert_array_equal(np.asarray(x[idx]), want)
    np.testing.assert_array_equal(np.asarray(jit(lambda a: a[idx])(x)), want)
    want = BASE.copy()
    want[idx] = -1
    np.testing.assert_array_equal(np.asarray(x.at[idx].set(-1)), want)
    want = BASE.copy()
    want[idx] *= 3
    np.testing.assert_array_equal(np.asarray(jit(lambda a: a.at[idx].multiply(3))(x)), want)


def test_concrete_array_mask_and_index():
    x = jnp.arange(5.0)
    mask = x > 2
    assert np.asarray(x[mask]).tolist() == [3.0, 4.0]
    assert np.asarray(x[jnp.array(3)]).tolist() == 3.0
    # A mask built from constants inside a trace is still concrete.
    out = jit(lambda a: a[jnp.array([True, False, True, False, False])])(x)
    assert np.asarray(out).tolist() == [0.0, 2.0]


def test_traced_mask_raises():
    with pytest.raises(NonConcreteBooleanIndexError,
                       match=r"Array boolean indices must be concrete; got bool\[5\]"):
        make_jaxpr(lambda a: a[a > 2])(np.arange(5.0, dtype=np.float32))
    with pytest.raises(NonConcreteBooleanIndexError):
        make_jaxpr(lambda a: a.at[a > 2].set(0.0))(np.arange(5.0, dtype=np.float32))


def test_not_implemented_indexing():
    x = jnp.arange(5.0)
    with pytest.raises(NotImplementedError, match="gather"):
        x[np.array([0, 2])]
    with pytest.raises(NotImplementedError, match="gather"):
        x.at[jnp.array([0, 2])].set(1.0)
    with pytest.raises(NotImplementedError, match="traced integer"):
        jit(lambda a, i: a[i])(x, 1)


def test_out_of_bounds_ints_clamp_for_reads_and_drop_for_updates():
    x = jnp.arange(5.0)
    assert float(x[7]) == 4.0 and float(x[-9]) == 0.0
    assert float(jit(lambda a: a[7])(x)) == 4.0
    assert np.asarray(x.at[7].set(1.0)).tolist() == [0, 1, 2, 3, 4]
    assert np.asarray(x.at[7].set(1.0, mode="clip")).tolist() == [0, 1, 2, 3, 1]
    assert np.asarray(x.at[7].get(mode="fill", fill_value=-5)).tolist() == -5.0
    m = jnp.zeros((2, 3))
    assert float(m.at[0, 5].get()) == 0.0


def test_update_ref_repr_and_dtypes():
    x = jnp.arange(5.0)
    assert repr(x.at[1]) == "_IndexUpdateRef(Array([0., 1., 2., 3., 4.], dtype=float32), 1)"
    assert repr(x.at[1:3]) == ("_IndexUpdateRef(Array([0., 1., 2., 3., 4.], dtype=float32), "
                               "slice(1, 3, None))")
    assert repr(x.at) == "_IndexUpdateHelper(Array([0., 1., 2., 3., 4.], dtype=float32))"
    out = jnp.arange(3).at[2].divide(2)
    assert out.dtype == np.float32 and np.asarray(out).tolist() == [0.0, 1.0, 1.0]
    with pytest.warns(FutureWarning, match="cannot safely cast value from dtype=float32 to "
                                           "dtype=int32"):
        out = jnp.arange(3).at[1].set(2.7)
    assert out.dtype == np.int32 and np.asarray(out).tolist() == [0, 2, 2]
    assert np.asarray(x.at[1].apply(lambda v: v * 10)).tolist() == [0, 10, 2, 3, 4]
    assert float(x.at[2].get()) == 2.0


def test_index_errors():
    x = jnp.arange(5.0)
    with pytest.raises(TypeError, match="Using a non-tuple sequence for multidimensional "
                                        "indexing is not allowed"):
        x[[0, 1]]
    with pytest.raises(IndexError, match="Too many indices: array is 1-dimensional, but 2 "
                                         "were indexed"):
        x[0, 1]
    with pytest.raises(IndexError, match=r"an index can only have a single ellipsis"):
        x[..., ...]
    with pytest.raises(TypeError, match="Indexer must have integer or boolean type, got "
                                        "indexer with type float64"):
        x[1.5]
    with pytest.raises(IndexError, match="Slice entries must be static integers"):
        jit(lambda a, i: a[i:i + 2])(x, 1)
    with pytest.raises(TypeError, match="JAX arrays are immutable"):
        x[0] = 1.0
    with pytest.raises(IndexError, match=r"boolean index did not match shape of indexed "
                                         r"array in index 0: got \(3,\), expected \[5\]"):
        x[np.array([True, False, True])]
