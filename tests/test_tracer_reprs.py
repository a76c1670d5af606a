"""What tracers and arrays print, against JAX 0.10.2's recording.

``tests/data/tracer_reprs.json`` holds the text the programs in
``jaxpr_cases.tracer_repr_cases`` emitted at trace time (``str``/``repr``/``print``
of tracers and pytrees of tracers) and the ``repr``/``str`` of the arrays in
``jaxpr_cases.array_repr_cases``; addresses are normalised to ``0x...``.
"""
from __future__ import annotations

import numpy as np
import pytest

try:
    import jaxpr_cases
except ImportError:  # collected as a package
    from tests import jaxpr_cases

try:
    import transpile as jax
    import transpile.numpy as jnp
    from transpile import lax
    _IMPORT_ERROR = None
except Exception as _e:  # the API is still being written; every test reports this
    jax = jnp = lax = None
    _IMPORT_ERROR = _e

DATA = jaxpr_cases.load_data("tracer_reprs.json")
TRACERS = DATA["tracers"]
ARRAYS = DATA["arrays"]


def _api():
    if _IMPORT_ERROR is not None:
        pytest.fail(f"cannot import transpile: {type(_IMPORT_ERROR).__name__}: {_IMPORT_ERROR}")
    return jax, jnp, lax, np


def _lookup(table, name):
    found = dict(table)
    if name not in found:
        pytest.fail(f"{name} is recorded but no longer in jaxpr_cases.py; re-record")
    return found[name]


@pytest.mark.parametrize("name", sorted(TRACERS))
def test_tracer_text(name):
    run = _lookup(jaxpr_cases.tracer_repr_cases(*_api()), name)
    texts = []
    run(texts.append)
    assert [jaxpr_cases.normalise_message(t) for t in texts] == TRACERS[name]


@pytest.mark.parametrize("name", sorted(ARRAYS))
def test_array_repr(name):
    thunk = _lookup(jaxpr_cases.array_repr_cases(*_api()), name)
    assert jaxpr_cases.normalise_message(thunk()) == ARRAYS[name]
