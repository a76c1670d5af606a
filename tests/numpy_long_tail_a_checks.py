"""Checks shared by the ``tests/test_numpy_<topic>.py`` files of the ``jax.numpy`` long
tail, part A: transpile against JAX 0.10.2's answers recorded by
``tools/record_numpy_long_tail_a.py`` (see ``numpy_long_tail_a_cases.py``).

Per program: eager results (or the error: class and message), and as its flags ask, the
results under ``jit``, the ``grad`` of a weighted sum, the ``vmap`` over a batch of two,
and the jaxpr text (else its SHA-256, see ``KNOWN_JAXPR_DIFFERENCES``). Values are compared as recorded: shape, dtype, weak type, and values
(exactly for integers and booleans, to float32 rounding for floats).
"""
from __future__ import annotations

import hashlib
import warnings

import numpy as np
import pytest

try:
    import indexing_cases
    import jaxpr_cases
    import numpy_long_tail_a_cases as cases
except ImportError:  # collected as a package
    from tests import indexing_cases, jaxpr_cases
    from tests import numpy_long_tail_a_cases as cases

import transpile as jax
import transpile.numpy as jnp

RECORDED = jaxpr_cases.load_data("numpy_long_tail_a.json")
PROGRAMS = cases.programs(jnp, np)

__all__ = ["params", "check"]


def params(topic: str) -> list:
    """``(name, kind)`` pairs of ``topic``'s recorded checks, for ``parametrize``."""
    return [pytest.param(name, kind, id=f"{name}-{kind}")
            for name, entry in sorted(RECORDED[topic].items()) for kind in sorted(entry)]


def _run(thunk):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return thunk()


def _compare(out, want) -> None:
    got = cases.leaves(out, np)
    assert len(got) == len(want), (got, want)
    for g, w in zip(got, want, strict=True):
        if "py" in w:
            assert g == w
            continue
        assert (g["shape"], g["dtype"], g["weak_type"]) == (
            w["shape"], w["dtype"], w["weak_type"]), (g, w)
        expected = np.array(w["values"], dtype=object)
        if expected.size:
            expected = np.where(expected == "nan", np.nan, expected)
        expected = expected.astype(w["dtype"]).reshape(w["shape"])
        actual = np.asarray(out if len(got) == 1 and not isinstance(out, (tuple, list))
                            else np.array(g["values"], dtype=object).astype(w["dtype"]))
        actual = actual.reshape(w["shape"])
        if expected.dtype.kind == "f":
            np.testing.assert_allclose(actual, expected, rtol=2e-6, atol=1e-6)
        else:
            np.testing.assert_array_equal(actual, expected)


def _program(topic: str, name: str, kind: str):
    fn, args, _ = PROGRAMS[topic][name]
    if kind == "eager":
        return lambda: fn(*args)
    if kind == "jit":
        return lambda: jax.jit(fn)(*args)
    if kind == "grad":
        def loss(a0, *rest):
            return cases.weighted_sum(fn(a0, *rest), jnp, np)
        return lambda: jax.grad(loss)(*args)
    if kind == "vmap":
        in_axes = (0,) + (None,) * (len(args) - 1)
        return lambda: jax.vmap(fn, in_axes)(cases.batch_arg(args[0], np), *args[1:])
    return lambda: str(jax.make_jaxpr(fn)(*args))  # "jaxpr", "jaxpr_sha256"


def check(topic: str, name: str, kind: str) -> None:
    """One recorded check of program ``name`` of ``topic``."""
    with jax.enable_x64(topic in cases.X64_TOPICS):
        _check(topic, name, kind)


def _check(topic: str, name: str, kind: str) -> None:
    want = RECORDED[topic][name][kind]
    thunk = _program(topic, name, kind)
    if kind == "jaxpr":
        assert _run(thunk) == want
        return
    if kind == "jaxpr_sha256":
        text = _run(thunk)
        assert hashlib.sha256(text.encode()).hexdigest() == want, text
        return
    if isinstance(want, dict):
        with pytest.raises(Exception) as info:
            _run(thunk)
        got = indexing_cases.normalise_error(info.value)
        assert got == want
        return
    _compare(_run(thunk), want)
