"""Type promotion of ``jnp.add`` and ``result_type``, against JAX 0.10.2's recording.

``tests/data/promotion.json`` holds, for every ordered pair of the operands in
``jaxpr_cases.promotion_operands`` (strong bool/int8/.../float32 arrays, weak Python
int and float, raw numpy int64/uint64/float64 arrays), the dtype, weak type and
values of ``jnp.add(a, b)`` and the dtype of ``jnp.result_type(a, b)``, with x64 off
and with x64 on.
"""
from __future__ import annotations

import contextlib

import numpy as np
import pytest

try:
    import jaxpr_cases
except ImportError:  # collected as a package
    from tests import jaxpr_cases

try:
    import transpile as jax
    import transpile.numpy as jnp
    from transpile import dtypes as tdtypes
    _IMPORT_ERROR = None
except Exception as _e:  # the API is still being written; every test reports this
    jax = jnp = tdtypes = None
    _IMPORT_ERROR = _e

DATA = jaxpr_cases.load_data("promotion.json")
TABLES = {"x64_off": DATA["x64_off"], "x64_on": DATA["x64_on"]}
PARAMS = [pytest.param(mode, row, id=f"{mode}-{row['a']}+{row['b']}")
          for mode, rows in TABLES.items() for row in rows]


def _require_api():
    if _IMPORT_ERROR is not None:
        pytest.fail(f"cannot import transpile: {type(_IMPORT_ERROR).__name__}: {_IMPORT_ERROR}")


@contextlib.contextmanager
def _x64(mode):
    """Run the block with transpile's x64 flag as the table was recorded."""
    _require_api()
    want = mode == "x64_on"
    old = bool(jax.config.jax_enable_x64)
    jax.config.update("jax_enable_x64", want)
    try:
        yield
    finally:
        jax.config.update("jax_enable_x64", old)


def _operands(row):
    ops = jaxpr_cases.promotion_operands(jnp, np)
    return ops[row["a"]](), ops[row["b"]]()


def test_tables_are_complete():
    n = len(DATA["operands"])
    for rows in TABLES.values():
        assert len(rows) == n * n >= 100
        assert all("error" not in r for r in rows)


@pytest.mark.parametrize("mode,row", PARAMS)
def test_add_promotion(mode, row):
    with _x64(mode):
        a, b = _operands(row)
        r = jnp.add(a, b)
        assert str(r.dtype) == row["dtype"]
        assert bool(r.weak_type) == row["weak_type"], "weak_type"
        assert list(r.shape) == row["shape"]
        got = np.asarray(r)
        want = np.asarray(row["values"])
        if np.dtype(row["dtype"]).kind == "c":  # recorded as [re, im] pairs
            want = want[..., 0] + 1j * want[..., 1]
        want = want.astype(row["dtype"])
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("mode,row", PARAMS)
def test_dtypes_result_type(mode, row):
    with _x64(mode):
        a, b = _operands(row)
        dt, weak = tdtypes.result_type(a, b, return_weak_type_flag=True)
        assert [str(np.dtype(dt)), bool(weak)] == row["dtypes_result_type"]


@pytest.mark.parametrize("mode,row", PARAMS)
def test_jnp_result_type(mode, row):
    with _x64(mode):
        a, b = _operands(row)
        assert str(np.dtype(jnp.result_type(a, b))) == row["result_type"]
