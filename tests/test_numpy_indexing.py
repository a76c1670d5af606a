"""``x[idx]``, ``.at[]`` and the index functions of ``transpile.numpy``.

Three kinds of checks:

* JAX 0.10.2's recorded behaviour on the programs of ``indexing_cases.py`` (groups
  ``jnp``, ``misc``, ``funcs``, ``rand``): jaxpr text, eager values and weak types, the
  staged jaxpr run by the NumPy evaluator, error classes and messages;
* NumPy as the reference on random index expressions (integers, slices with any step,
  ``None``, Ellipsis, integer arrays, masks), read eagerly and through a trace, and
  updated (``np.add.at``/``np.minimum.at`` for repeated indices);
* NumPy's ``take``, ``take_along_axis``, ``nonzero``, ``argwhere``, ``flatnonzero`` and
  ``unique`` (with ``size`` padding) as references for ours.
"""
from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile.errors import (BOOLEAN_INDEX_HINT, ConcretizationTypeError,
                              NonConcreteBooleanIndexError)
from transpile.interpreters.eval import eval_jaxpr_numpy
from transpile.jit import make_jaxpr

try:
    import indexing_checks
except ImportError:  # collected as a package
    from tests import indexing_checks
check_eager, check_jaxpr = indexing_checks.check_eager, indexing_checks.check_jaxpr
check_staged, names = indexing_checks.check_staged, indexing_checks.names
compile_recorded = indexing_checks.compile_recorded
check_compiled = indexing_checks.check_compiled


def staged(fn):
    """``fn`` traced with ``make_jaxpr`` and run by the NumPy evaluator (the traced path,
    without compiling C)."""
    def run(*args):
        closed, shapes = make_jaxpr(fn, return_shape=True)(*args)
        flat = [np.asarray(a) for a in jax.tree_util.tree_leaves(args)]
        outs = eval_jaxpr_numpy(closed.jaxpr, closed.consts, *flat)
        return jax.tree_util.tree_unflatten(jax.tree_util.tree_structure(shapes), outs)
    return run


RECORDED = names("jnp") + names("misc") + names("funcs") + names("rand")


@pytest.mark.parametrize("name", RECORDED)
def test_recorded_jaxpr(name):
    check_jaxpr(name)


@pytest.mark.parametrize("name", RECORDED)
def test_recorded_eager(name):
    check_eager(name)


@pytest.mark.parametrize("name", RECORDED)
def test_recorded_staged(name):
    check_staged(name)


@pytest.fixture(scope="module")
def compiled_recorded():
    return compile_recorded(RECORDED)


@pytest.mark.parametrize("name", RECORDED)
def test_recorded_compiled(compiled_recorded, name):
    check_compiled(compiled_recorded, name)


def test_recorded_data_matches_table():
    assert sorted(indexing_checks.PROGRAMS) == sorted(indexing_checks.RECORDED), \
        "re-run tools/record_indexing_data.py"


def test_recorded_counts():
    assert len(names("jnp")) >= 100 and len(names("misc")) >= 70
    assert len(names("funcs")) >= 30 and len(names("rand")) >= 100


# ---------------------------------------------------------------------------------------
# NumPy as the reference on random indices

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
    traced = staged(lambda a: a[idx])(x)
    np.testing.assert_array_equal(np.asarray(traced), want)


@pytest.mark.parametrize("idx", INDICES[:60], ids=repr)
def test_at_set_and_add_match_numpy(idx):
    x = jnp.asarray(BASE)
    shape = BASE[idx].shape
    values = (np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) + 100)
    want = BASE.copy()
    want[idx] = values
    np.testing.assert_array_equal(np.asarray(x.at[idx].set(values)), want)
    np.testing.assert_array_equal(np.asarray(staged(lambda a, v: a.at[idx].set(v))(x, values)),
                                  want)
    want = BASE.copy()
    want[idx] += 7
    np.testing.assert_array_equal(np.asarray(x.at[idx].add(7)), want)
    want = BASE.copy()
    want[idx] = np.minimum(want[idx], 0)
    np.testing.assert_array_equal(np.asarray(x.at[idx].min(0)), want)
    want = BASE.copy()
    want[idx] *= -2
    np.testing.assert_array_equal(np.asarray(staged(lambda a: a.at[idx].multiply(-2))(x)), want)


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
    np.testing.assert_array_equal(np.asarray(staged(lambda a: a[idx])(x)), want)
    want = BASE.copy()
    want[idx] = -1
    np.testing.assert_array_equal(np.asarray(x.at[idx].set(-1)), want)
    want = BASE.copy()
    want[idx] *= 3
    np.testing.assert_array_equal(np.asarray(staged(lambda a: a.at[idx].multiply(3))(x)), want)


def test_concrete_array_mask_and_index():
    x = jnp.arange(5.0)
    mask = x > 2
    assert np.asarray(x[mask]).tolist() == [3.0, 4.0]
    assert np.asarray(x[jnp.array(3)]).tolist() == 3.0
    # A mask built from constants inside a trace is still concrete.
    out = staged(lambda a: a[jnp.array([True, False, True, False, False])])(x)
    assert np.asarray(out).tolist() == [0.0, 2.0]


def test_traced_mask_raises():
    with pytest.raises(NonConcreteBooleanIndexError,
                       match=r"Array boolean indices must be concrete; got bool\[5\]"):
        make_jaxpr(lambda a: a[a > 2])(np.arange(5.0, dtype=np.float32))
    with pytest.raises(NonConcreteBooleanIndexError):
        make_jaxpr(lambda a: a.at[a > 2].set(0.0))(np.arange(5.0, dtype=np.float32))


def test_out_of_bounds_ints_clamp_for_reads_and_drop_for_updates():
    x = jnp.arange(5.0)
    assert float(x[7]) == 4.0 and float(x[-9]) == 0.0
    assert float(staged(lambda a: a[7])(x)) == 4.0
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
        make_jaxpr(lambda a, i: a[i:i + 2])(x, 1)
    with pytest.raises(TypeError, match="JAX arrays are immutable"):
        x[0] = 1.0
    with pytest.raises(IndexError, match=r"boolean index did not match shape of indexed "
                                         r"array in index 0: got \(3,\), expected \[5\]"):
        x[np.array([True, False, True])]


# ---------------------------------------------------------------------------------------
# Integer arrays, traced integers and repeated indices, against NumPy

def _array_index(rng: random.Random, shape):
    """An index mixing integer arrays (in range, negative ones too) with the rest."""
    entries = []
    for n in shape:
        kind = rng.choice(["arr", "arr", "int", "slice", "none"])
        if kind == "arr":
            entries.append(np.array([rng.randint(-n, n - 1) for _ in range(rng.choice([2, 3]))]
                                    if rng.random() < 0.8 else
                                    [[rng.randint(-n, n - 1)] * 3] * 2))
        elif kind == "int":
            entries.append(rng.randint(-n, n - 1))
        elif kind == "slice":
            entries.append(slice(rng.choice([None, 1]), None, rng.choice([None, 2, -1])))
        else:
            entries.append(None)
            entries.append(slice(None))
    return tuple(entries)


def _array_indices(count, seed):
    rng, out = random.Random(seed), []
    while len(out) < count:
        idx = _array_index(rng, SHAPE)
        try:
            BASE[idx]
        except (IndexError, ValueError):
            continue
        out.append(idx)
    return out


ARRAY_INDICES = _array_indices(60, 1)


@pytest.mark.parametrize("idx", ARRAY_INDICES, ids=repr)
def test_array_indices_match_numpy(idx):
    x = jnp.asarray(BASE)
    want = BASE[idx]
    np.testing.assert_array_equal(np.asarray(x[idx]), want)
    traced = [jnp.asarray(e) if isinstance(e, np.ndarray) else e for e in idx]
    pos = [i for i, e in enumerate(traced) if not isinstance(e, (slice, type(None)))]

    def read(a, *vals):
        full = list(traced)
        for i, v in zip(pos, vals, strict=True):
            full[i] = v
        return a[tuple(full)]
    np.testing.assert_array_equal(staged(read)(x, *[traced[i] for i in pos]), want)
    # updates: repeated indices accumulate for add/min, and set stores one of them
    want = BASE.copy()
    np.add.at(want, idx, 1.5)
    np.testing.assert_array_equal(np.asarray(x.at[idx].add(1.5)), want)
    want = BASE.copy()
    np.minimum.at(want, idx, -3.0)
    np.testing.assert_array_equal(np.asarray(x.at[idx].min(-3.0)), want)
    want = BASE.copy()
    want[idx] = 99.0
    np.testing.assert_array_equal(np.asarray(x.at[idx].set(99.0)), want)


def test_repeated_indices():
    x = jnp.arange(5.0)
    i = jnp.array([0, 0, 1, -1, 4])
    assert np.asarray(x.at[i].add(1)).tolist() == [2, 2, 2, 3, 6]
    assert np.asarray(x.at[i].subtract(1)).tolist() == [-2, 0, 2, 3, 2]
    assert np.asarray(x.at[i].multiply(3)).tolist() == [0, 3, 2, 3, 36]
    assert np.asarray(x.at[i].set(jnp.array([5., 6., 7., 8., 9.]))).tolist() == \
        [6, 7, 2, 3, 9]
    assert np.asarray(x.at[i].apply(lambda v: v + 1)).tolist() == [2, 2, 2, 3, 6]
    assert np.asarray(x.at[i].power(2.0)).tolist() == [0, 1, 2, 3, 256]
    assert np.asarray(x.at[i].divide(2.0)).tolist() == [0, 0.5, 2, 3, 1]
    assert np.asarray(staged(lambda a, j: a.at[j].add(1))(x, i)).tolist() == [2, 2, 2, 3, 6]


def test_modes_and_out_of_range():
    x = jnp.arange(5.0)
    i = jnp.array([1, 10, -10, -1])
    assert np.asarray(x[i]).tolist() == [1, 4, 0, 4]
    got = np.asarray(x.at[i].get(mode="fill"))
    assert got[[0, 3]].tolist() == [1, 4] and np.isnan(got[1:3]).all()
    assert np.asarray(x.at[i].get(mode="fill", fill_value=-1)).tolist() == [1, -1, -1, 4]
    assert np.asarray(x.at[i].get(mode="clip")).tolist() == [1, 4, 0, 4]
    assert np.asarray(x.at[i].set(9.0)).tolist() == [0, 9, 2, 3, 9]
    assert np.asarray(x.at[i].set(9.0, mode="clip")).tolist() == [9, 9, 2, 3, 9]
    assert np.asarray(x.at[i].add(1.0, mode="promise_in_bounds")).tolist() == [0, 2, 2, 3, 5]
    assert np.asarray(x.at[-1].set(9.0, wrap_negative_indices=False)).tolist() == \
        [0, 1, 2, 3, 4]
    assert np.asarray(jnp.arange(5).at[jnp.array([9])].get(mode="fill")).tolist() == \
        [np.iinfo(np.int32).min]
    assert np.asarray(jnp.arange(5, dtype=jnp.uint8).at[9].get(mode="fill")).tolist() == 255
    with pytest.raises(ValueError, match='Unknown gather mode "bogus"'):
        x.at[i].get(mode="bogus")


def test_traced_integer_reads_clamp():
    x = jnp.arange(12.0).reshape(3, 4)
    f = staged(lambda a, i, j: a[i, j])
    for i, j in itertools_product([-4, -1, 0, 2, 3, 50], [-9, -1, 0, 3, 4]):
        wi = min(max(i + 3 if i < 0 else i, 0), 2)
        wj = min(max(j + 4 if j < 0 else j, 0), 3)
        assert float(f(x, np.int32(i), np.int32(j))) == 4 * wi + wj
        assert float(x[jnp.asarray(np.int32(i)), jnp.asarray(np.int32(j))]) == 4 * wi + wj


def itertools_product(a, b):
    return [(p, q) for p in a for q in b]


# ---------------------------------------------------------------------------------------
# take, take_along_axis

@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("mode", [None, "fill", "clip", "wrap"])
def test_take_matches_numpy(axis, mode):
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    idx = np.array([[0, 2], [-1, 1]])
    # As in JAX, 'clip' clamps negative indices to 0 instead of counting from the end.
    want = np.take(a, np.maximum(idx, 0) if mode == "clip" else idx, axis=axis)
    got = jnp.take(jnp.asarray(a), jnp.asarray(idx), axis=axis, mode=mode)
    np.testing.assert_array_equal(np.asarray(got), want)
    far = np.array([0, 20, -20])
    got = np.asarray(jnp.take(jnp.asarray(a), jnp.asarray(far), axis=axis, mode=mode))
    if mode in ("clip", "wrap"):
        np.testing.assert_array_equal(got, np.take(a, far, axis=axis, mode=mode))
    else:
        assert np.isnan(np.take(got, [1, 2], axis=0 if axis is None else axis)).all()


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_take_along_axis_matches_numpy(axis):
    rng = np.random.RandomState(0)
    a = rng.randn(3, 4).astype(np.float32)
    if axis is None:
        idx = np.array([0, 11, -1, 5])
    else:
        shape = list(a.shape)
        shape[axis] = 5
        idx = rng.randint(-a.shape[axis], a.shape[axis], size=shape)
    want = np.take_along_axis(a, idx, axis=axis)
    got = jnp.take_along_axis(jnp.asarray(a), jnp.asarray(idx), axis=axis)
    np.testing.assert_array_equal(np.asarray(got), want)
    got = staged(lambda x, i: jnp.take_along_axis(x, i, axis=axis))(a, idx)
    np.testing.assert_array_equal(got, want)
    # broadcasting between the array and the indices
    b = np.take_along_axis(a, np.argsort(a[:1], axis=1), axis=1)
    got = jnp.take_along_axis(jnp.asarray(a), jnp.argsort(jnp.asarray(a[:1]), axis=1),
                              axis=1)
    np.testing.assert_array_equal(np.asarray(got), b)


# ---------------------------------------------------------------------------------------
# nonzero and friends, unique

NONZERO_INPUTS = [np.array([0., 1., 0., 3., 4.], np.float32),
                  (np.arange(12).reshape(3, 4) % 3 == 0),
                  np.zeros((2, 3), np.int32),
                  np.array([[0, 5], [7, 0]], np.int32)]


@pytest.mark.parametrize("k", range(len(NONZERO_INPUTS)))
@pytest.mark.parametrize("size", [None, 1, 3, 8])
def test_nonzero_family_matches_numpy(k, size):
    a = NONZERO_INPUTS[k]

    def pad(v, fill=0):
        if size is None:
            return v
        return np.concatenate([v[:size], np.full(max(size - len(v), 0), fill)])
    want = [pad(v) for v in np.nonzero(a)]
    for fn in (lambda x: jnp.nonzero(x, size=size), staged(lambda x: jnp.nonzero(x,
                                                                                 size=size))):
        if size is None and getattr(fn, "__name__", "") == "run":
            continue  # without size, only concrete input works
        got = fn(jnp.asarray(a) if size is None else a)
        assert [np.asarray(g).tolist() for g in got] == [w.tolist() for w in want]
        assert all(np.asarray(g).dtype == np.int32 for g in got)
    if size is not None:
        got = staged(lambda x: jnp.nonzero(x, size=size, fill_value=-1))(a)
        assert [np.asarray(g).tolist() for g in got] == \
            [pad(v, -1).tolist() for v in np.nonzero(a)]
        got = staged(lambda x: jnp.argwhere(x, size=size))(a)
        assert np.asarray(got).tolist() == np.stack(want, axis=1).tolist()
        got = staged(lambda x: jnp.flatnonzero(x, size=size))(a)
        assert np.asarray(got).tolist() == pad(np.flatnonzero(a)).tolist()
        got = staged(lambda x: jnp.where(x, size=size))(a)
        assert [np.asarray(g).tolist() for g in got] == [w.tolist() for w in want]
    else:
        assert np.asarray(jnp.argwhere(a)).tolist() == np.argwhere(a).tolist()
        assert np.asarray(jnp.flatnonzero(a)).tolist() == np.flatnonzero(a).tolist()


@pytest.mark.parametrize("values", [[3, 1, 3, 2], [2.5, np.nan, 1.0, np.nan, 2.5], [7],
                                    [[1, 2], [2, 0]]])
@pytest.mark.parametrize("size", [None, 2, 6])
def test_unique_matches_numpy(values, size):
    a = np.asarray(values, np.float32 if any(isinstance(v, float) for v in
                                             np.ravel(values)) else np.int32)
    want = np.unique(a)
    if size is None:
        got = np.asarray(jnp.unique(jnp.asarray(a)))
        np.testing.assert_array_equal(got, want)
        return
    padded = np.concatenate([want[:size], np.full(max(size - len(want), 0), want[0])])
    for fn in (lambda x: jnp.unique(x, size=size), staged(lambda x: jnp.unique(x,
                                                                                size=size))):
        np.testing.assert_array_equal(np.asarray(fn(a)), padded)
    got = staged(lambda x: jnp.unique(x, size=size, fill_value=-5))(a)
    filled = np.concatenate([want[:size], np.full(max(size - len(want), 0), -5)])
    np.testing.assert_array_equal(np.asarray(got), filled.astype(a.dtype))


def test_unique_extra_outputs_concrete():
    a = jnp.array([3, 1, 3, 2])
    vals, index, inverse, counts = jnp.unique(a, return_index=True, return_inverse=True,
                                              return_counts=True)
    assert np.asarray(vals).tolist() == [1, 2, 3]
    assert np.asarray(index).tolist() == [1, 3, 0]
    assert np.asarray(inverse).tolist() == [2, 0, 2, 1]
    assert np.asarray(counts).tolist() == [1, 1, 2]


def test_value_dependent_shapes_need_size():
    x = np.arange(5.0, dtype=np.float32)
    msg = ("The size argument of jnp.nonzero must be statically specified to use "
           "jnp.nonzero within JAX transformations.")
    for fn in (jnp.nonzero, jnp.flatnonzero, jnp.argwhere, lambda a: jnp.where(a)):
        with pytest.raises(ConcretizationTypeError, match=msg):
            make_jaxpr(fn)(x)
    with pytest.raises(ConcretizationTypeError, match="The error arose for the first "
                                                      "argument of jnp.unique()"):
        make_jaxpr(jnp.unique)(x)
    with pytest.raises(ValueError, match="Calling nonzero on 0d arrays is not allowed"):
        jnp.nonzero(jnp.float32(1))


def test_traced_mask_message_is_jaxs_with_the_remedies():
    with pytest.raises(NonConcreteBooleanIndexError) as info:
        make_jaxpr(lambda a: a[a > 2])(np.arange(5.0, dtype=np.float32))
    assert str(info.value) == (
        "Array boolean indices must be concrete; got bool[5]\n" + BOOLEAN_INDEX_HINT +
        "\n\nSee "
        "https://docs.jax.dev/en/latest/errors.html#jax.errors.NonConcreteBooleanIndexError")
    assert "jnp.where(mask, x, 0)" in BOOLEAN_INDEX_HINT
    assert "x.at[mask].set(v)" in BOOLEAN_INDEX_HINT


def test_update_promotion_warns_once():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = jnp.arange(3).at[jnp.array([1])].add(jnp.ones(1))
    assert out.dtype == np.int32 and np.asarray(out).tolist() == [0, 2, 2]
    assert [str(w.message) for w in caught] == [
        "scatter inputs have incompatible types: cannot safely cast value from "
        "dtype=float32 to dtype=int32 with jax_numpy_dtype_promotion=standard. In future "
        "JAX releases this will result in an error."]
