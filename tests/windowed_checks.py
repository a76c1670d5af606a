"""Checks shared by ``test_lax_windowed.py`` and ``test_image.py``: a case of
``windowed_cases`` run eagerly and under ``jit`` against the answers JAX 0.10.2 gave
(``tests/data/windowed.json``)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import lax
from transpile.example_libraries import stax
from windowed_cases import make_input

DATA = json.loads((Path(__file__).parent / "data" / "windowed.json").read_text())
ENV = {"jax": jax, "jnp": jnp, "lax": lax, "np": np, "stax": stax}
TOL = {"float16": 2e-3, "float32": 2e-5, "float64": 1e-12}


def _values(leaf) -> np.ndarray:
    vals = np.array(leaf["values"], dtype=object)
    return np.array([float(v) if isinstance(v, str) else v for v in vals.ravel()],
                    dtype=np.float64).reshape(leaf["shape"])


def check_leaves(out, recorded, name: str, tol_scale: float = 1.0) -> None:
    """``out``'s leaves have the recorded shapes, dtypes, weak types and values."""
    leaves = jax.tree_util.tree_leaves(out)
    assert len(leaves) == len(recorded), name
    for got, want in zip(leaves, recorded):
        assert list(got.shape) == want["shape"], name
        assert str(got.dtype) == want["dtype"], name
        assert bool(got.weak_type) == want["weak_type"], name
        tol = TOL.get(want["dtype"], 0) * tol_scale
        np.testing.assert_allclose(np.asarray(got, np.float64), _values(want),
                                   rtol=tol, atol=tol, err_msg=name)


def check_case(name, src, inputs, want_jaxpr, tol_scale: float = 1.0,
               jit: bool = True) -> None:
    """A case eagerly, under ``jit`` (unless ``jit`` is False) and (where recorded) as
    jaxpr text."""
    fn = eval(src, ENV)  # noqa: S307 - sources from the case table
    args = [jnp.asarray(make_input(i)) for i in inputs]
    rec = DATA["cases"][name]
    check_leaves(fn(*args), rec["value"], name, tol_scale)
    if jit:
        check_leaves(jax.jit(fn)(*args), rec["value"], name + " (jit)", tol_scale)
    if want_jaxpr:
        assert str(jax.make_jaxpr(fn)(*args)) == rec["jaxpr"]


def check_error(name, src, inputs) -> None:
    """A bad input raises JAX's exception type with JAX's message."""
    want = DATA["errors"][name]
    fn = eval(src, ENV)  # noqa: S307
    with pytest.raises(Exception) as e:
        fn(*[jnp.asarray(make_input(i)) for i in inputs])
    assert type(e.value).__name__ == want["error"]
    assert str(e.value) == want["message"]
