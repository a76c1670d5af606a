"""The cached jit call with containers and keywords (``jit.JitWrapped.__call__``'s fast
key): same results as the function run op by op, and a retrace exactly when the
structure or an abstract value changes."""
from __future__ import annotations

import collections

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

Point = collections.namedtuple("Point", ["x", "y"])
Other = collections.namedtuple("Other", ["x", "y"])


def _arr(*shape, dtype=np.float32, k=1.0):
    n = int(np.prod(shape)) if shape else 1
    return tnp.asarray((np.arange(n, dtype=np.float64) * k - 3).astype(dtype).reshape(shape))


def _traced(fun):
    traces = []

    def counted(*args, **kwargs):
        traces.append(1)
        return fun(*args, **kwargs)
    return tp.jit(counted), traces


def _leaves_sum(tree):
    total = 0.0
    for leaf in tp.tree_util.tree_leaves(tree):
        total = total + leaf
    return total


def _same(got, want):
    got_l, got_t = tp.tree_util.tree_flatten(got)
    want_l, want_t = tp.tree_util.tree_flatten(want)
    assert got_t == want_t
    for g, w in zip(got_l, want_l, strict=True):
        assert np.asarray(g).dtype == np.asarray(w).dtype
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))


CASES = {
    "dict": lambda: ({"b": _arr(3), "a": _arr(3, k=2.0), "c": _arr(3, k=0.5)},),
    "list": lambda: ([_arr(2, 2), _arr(2, 2, k=3.0)],),
    "tuple": lambda: ((_arr(4), _arr(4, dtype=np.int32)),),
    "namedtuple": lambda: (Point(_arr(5), _arr(5, k=-1.0)),),
    "nested": lambda: ({"p": Point(_arr(2), [_arr(2), (_arr(2),)]), "q": [_arr(2)]},),
    "none_leaves": lambda: ({"a": None, "b": _arr(3), "c": [None, _arr(3)]},),
    "numpy_and_scalars": lambda: ({"a": np.ones(3, np.float32), "s": 2.5, "i": 3},),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_pytree_arguments_match_eager_and_hit_the_cache(name):
    f, traces = _traced(lambda t: _leaves_sum(t) * 2.0)
    args = CASES[name]()
    with tp.disable_jit():
        want = f(*args)
    traces.clear()
    first = f(*args)
    again = f(*CASES[name]())  # new containers, same structure and avals
    _same(first, want)
    _same(again, want)
    assert len(traces) == 1
    assert len(f._fast) == 1  # the second call was served by the fast key


def test_keyword_arguments():
    f, traces = _traced(lambda x, *, scale, shift=None: x * scale + (0 if shift is None
                                                                        else shift))
    x, s = _arr(4), _arr(4, k=0.5)
    with tp.disable_jit():
        want = f(x, scale=s, shift=x)
    traces.clear()
    _same(f(x, scale=s, shift=x), want)
    _same(f(x, shift=x, scale=s), want)  # keyword order does not matter
    assert len(traces) == 1
    f(x, scale=s)  # a keyword left out: another structure
    assert len(traces) == 2
    f(x, scale=2.0)  # a Python scalar: weak f32
    assert len(traces) == 3
    f(x, scale=3.0)
    assert len(traces) == 3


def test_retrace_only_when_structure_or_avals_change():
    f, traces = _traced(lambda d: _leaves_sum(d))
    f({"a": _arr(3), "b": _arr(3)})
    f({"b": _arr(3), "a": _arr(3)})  # same keys, other insertion order
    assert len(traces) == 1
    f({"a": _arr(3), "c": _arr(3)})  # other keys
    assert len(traces) == 2
    f({"a": _arr(4), "b": _arr(4)})  # other shape
    assert len(traces) == 3
    f({"a": _arr(3, dtype=np.int32), "b": _arr(3, dtype=np.int32)})  # other dtype
    assert len(traces) == 4
    f({"a": _arr(3), "b": [_arr(3)]})  # a list where a leaf was
    assert len(traces) == 5
    f({"a": _arr(3), "b": _arr(3)})
    assert len(traces) == 5


def test_namedtuple_types_are_told_apart():
    f, traces = _traced(lambda p: p.x - p.y)
    got_p = f(Point(_arr(3), _arr(3, k=2.0)))
    got_o = f(Other(_arr(3), _arr(3, k=2.0)))
    assert len(traces) == 2
    _same(got_p, got_o)


def test_weak_and_strong_leaves_are_told_apart():
    f, traces = _traced(lambda d: d["a"] + d["b"])
    x = _arr(3)
    strong = f({"a": x, "b": tnp.asarray(np.float32(1.5))})
    weak = f({"a": x, "b": 1.5})
    assert len(traces) == 2
    _same(strong, weak)


def test_statics_with_keywords_take_the_slow_path():
    f = tp.jit(lambda x, *, n: x * n, static_argnames="n")
    x = _arr(3)
    _same(f(x, n=2), x * 2)
    _same(f(x, n=3), x * 3)
    assert not f._fast


def test_python_int_out_of_range_is_still_an_error():
    f = tp.jit(lambda d: d["a"])
    f({"a": 1})
    with pytest.raises(OverflowError):
        f({"a": 2 ** 40})
