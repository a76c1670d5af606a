"""``custom_jvp``/``custom_vjp`` (``transpile/custom_derivatives.py``) on the idioms of
JAX's "Custom derivative rules" tutorial, against JAX 0.10.2's answers recorded by
``tools/record_custom_derivatives.py`` in ``tests/data/custom_derivatives.json``:
values, dtypes, weak types, which outputs stay Python scalars, the order and count of
the side effects of the user's functions, and the errors.
"""
import json
import pathlib

import numpy as np
import pytest

import transpile as jax
import transpile.numpy  # noqa: F401

import custom_derivative_cases

DATA = json.loads((pathlib.Path(__file__).parent / "data" / "custom_derivatives.json")
                  .read_text())["cases"]
CASES = custom_derivative_cases.cases(jax)

# JAX 0.10's ``jax.jvp`` hands Python-scalar primals and tangents to the function as
# typed literals (``jax.jvp(lambda x: x, (2.,), (1.,))`` is ``(2.0, 1.0)``), so what a
# rule passes through stays a Python float. transpile's ``jvp`` (``autodiff.py``, for
# every function, not only custom ones) takes them as weakly typed float32 Arrays: these
# leaves are held to that, with JAX's value.
JVP_SCALAR_LEAVES = {"jvp_nondiff_function_arg": {3, 4}, "jvp_python_control_flow": {4},
                     "passthrough_types": {6, 7}, "weak_type_through_jvp_rule": {5, 6}}
WEAK_SCALAR = {"kind": "Array", "dtype": "float32", "shape": [], "weak_type": True}


def test_every_case_is_recorded():
    assert sorted(CASES) == sorted(DATA)


@pytest.mark.parametrize("name", sorted(DATA))
def test_idiom_matches_jax(name):
    want = DATA[name]
    if "error" in want:
        with pytest.raises(Exception) as info:
            CASES[name]()
        assert f"{type(info.value).__name__}: {info.value}" == want["error"]
        return
    out, log = CASES[name]()
    assert log == want["log"]
    got = custom_derivative_cases.encode(jax.tree_util, out)
    assert got["tree"] == want["out"]["tree"]
    assert len(got["leaves"]) == len(want["out"]["leaves"])
    for i, (g, w) in enumerate(zip(got["leaves"], want["out"]["leaves"])):
        g_type = {k: v for k, v in g.items() if k != "value"}
        if i in JVP_SCALAR_LEAVES.get(name, ()):
            assert w["kind"] == "float" and g_type == WEAK_SCALAR, i
        else:
            assert g_type == {k: v for k, v in w.items() if k != "value"}, i
        np.testing.assert_allclose(np.asarray(g["value"], np.float64),
                                   np.asarray(w["value"], np.float64), rtol=2e-6, atol=1e-7,
                                   err_msg=str(i))
