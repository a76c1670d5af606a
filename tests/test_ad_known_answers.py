"""Automatic differentiation against JAX 0.10.2's recorded answers.

``tests/data/ad.json`` (recorded by ``tools/record_ad_data.py`` from the programs of
``ad_cases.py``) holds, per program, the outputs JAX computed (or the error it raised,
or the text of a tracer seen inside the transformation) and, for ``grad/``, ``jvp/``,
``vjp/`` and some other programs, the ``make_jaxpr`` text. Each is replayed against
transpile in the case's x64 mode: outputs with the same shapes, dtypes and weak types
and values within a few ulps (float results of differentiated float code can round
differently by a unit in the last place between XLA and transpile's kernels), errors
with the same class and normalised message, jaxpr text identical.

``KNOWN_DIFFERENCES`` lists, with the reason, the cases transpile does not reproduce
yet; they are strict xfails, so a case that starts to pass must leave the list.
"""
from __future__ import annotations

import functools

import numpy as np
import pytest

try:
    import ad_cases
    import jaxpr_cases
except ImportError:  # collected as a package
    from tests import ad_cases, jaxpr_cases

import transpile
import transpile as jax
import transpile.numpy as jnp
from transpile import lax
from transpile.interpreters.ad import float0

RECORDED = jaxpr_cases.load_data("ad.json")["cases"]
NAMES = list(RECORDED)
JAXPR_NAMES = [n for n in NAMES if "jaxpr" in RECORDED[n]]

_REMEDY = "If the branch should depend on the argument's Python value"

#: name -> why transpile differs (strict xfails: a case that starts passing must go).
KNOWN_DIFFERENCES: dict = {
    "tracer/custom_jvp rule primal":
        "JAX shows its internal TypedFloat wrapper for a custom_jvp rule's primal",
    "error/grad has_aux non-tuple":
        "the message names the tracer class by its module: transpile.interpreters.ad "
        "rather than jax._src.interpreters.ad",
}
KNOWN_JAXPR_DIFFERENCES: dict = {
    "grad/cond": "a branch's unused residual slots hold 0.0 literals where JAX stages "
                 "empty2 equations",
    "grad/cond two operands": "as grad/cond: 0.0 literals for JAX's empty2 residuals",
    "grad/fori_loop static": "the transposed scan body has JAX's equations in another "
                             "order",
    "grad/scan cumsum": "an extra convert_element_type[weak_type=True] in the transposed "
                        "scan body",
    "custom/checkpoint grad": "checkpoint is differentiated in place: no remat2 equation "
                              "with the recomputation, as JAX's partial evaluation gives",
}


class _Missing:
    """A JAX name transpile lacks (``jax.vmap``, ``jax.nn.sigmoid``): building a case
    still works; calling it raises, so only the cases that use it fail."""

    def __init__(self, name):
        self.name = name

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _Missing(f"{self.name}.{attr}")

    def __call__(self, *args, **kwargs):
        if any(callable(a) for a in args):  # a transformation being built: fail later
            return _Missing(f"{self.name}(...)")
        raise NotImplementedError(f"transpile has no {self.name}")


class _Namespace:
    def __init__(self, mod, prefix):
        self.mod, self.prefix = mod, prefix

    def __getattr__(self, name):
        if hasattr(self.mod, name):
            return getattr(self.mod, name)
        return _Missing(f"{self.prefix}.{name}")


@functools.cache
def _programs():
    return ad_cases.programs(_Namespace(jax, "jax"), _Namespace(jnp, "jax.numpy"),
                             _Namespace(lax, "jax.lax"), np)


def _marks(name, table):
    return pytest.param(name, marks=pytest.mark.xfail(reason=table[name], strict=True)) \
        if name in table else name


def _compare(out, want: list, tol, where: str) -> None:
    if isinstance(out, str):
        assert len(want) == 1 and want[0].get("str") == out, (where, out, want)
        return
    leaves = jax.tree_util.tree_leaves(out)
    assert len(leaves) == len(want), f"{where}: {len(leaves)} outputs, JAX gave {len(want)}"
    for i, (got, w) in enumerate(zip(leaves, want, strict=True)):
        at = f"{where} output {i}"
        if "str" in w:
            assert got == w["str"], at
            continue
        if w.get("python_type"):  # JAX handed back a Python number: compare the value
            np.testing.assert_allclose(float(np.asarray(got)), w["values"], rtol=1e-6,
                                       err_msg=at)
            continue
        arr = np.asarray(got)
        assert list(arr.shape) == w["shape"], f"{at}: shape {arr.shape}, JAX {w['shape']}"
        if w["dtype"] == "float0":
            assert arr.dtype == float0, f"{at}: dtype {arr.dtype}, JAX float0"
            continue
        assert str(arr.dtype) == w["dtype"], f"{at}: dtype {arr.dtype}, JAX {w['dtype']}"
        assert bool(getattr(got, "weak_type", False)) == w["weak_type"], \
            f"{at}: weak_type {getattr(got, 'weak_type', False)}, JAX {w['weak_type']}"
        want_arr = np.array(w["values"], dtype=object)
        if arr.dtype.kind == "c":  # recorded as [re, im] pairs
            want_arr = np.asarray(w["values"], np.float64)
            want_arr = want_arr[..., 0] + 1j * want_arr[..., 1]
        want_arr = np.array([float(v) if isinstance(v, str) else v
                             for v in want_arr.ravel()], dtype=arr.dtype).reshape(arr.shape)
        if arr.dtype.kind == "f":
            eps = np.finfo(arr.dtype).eps
            rtol = tol if tol is not None else 8 * eps
            np.testing.assert_allclose(arr, want_arr, rtol=rtol, atol=rtol, err_msg=at)
        else:
            np.testing.assert_array_equal(arr, want_arr, err_msg=at)


def _run(name):
    case = _programs()[name]
    rec = RECORDED[name]
    with transpile.enable_x64(case.x64):
        args = case.args()
        if "error" in rec:
            with pytest.raises(Exception) as info:
                case.fn(*args)
            got = ad_cases.normalise_error(info.value)
            # transpile adds one line of remedies to a traced-bool error
            got["message"] = "\n".join(line for line in got["message"].split("\n")
                                       if not line.startswith(_REMEDY))
            assert got["error"] == rec["error"]["error"], (got, rec["error"])
            assert got["message"] == rec["error"]["message"]
            return
        out = case.fn(*args)
        _compare(out, rec["value"], case.tol, name)


@pytest.mark.parametrize("name", [_marks(n, KNOWN_DIFFERENCES) for n in NAMES])
def test_outputs_and_errors(name):
    _run(name)


@pytest.mark.parametrize("name", [_marks(n, KNOWN_JAXPR_DIFFERENCES) for n in JAXPR_NAMES])
def test_jaxpr_text(name):
    case = _programs()[name]
    with transpile.enable_x64(case.x64):
        text = str(jax.make_jaxpr(case.fn)(*case.args()))
    assert text == RECORDED[name]["jaxpr"]


def test_at_least_fifteen_grad_jaxprs_match():
    """The issue's bar: make_jaxpr(grad(f)) as JAX prints it for 15 functions or more."""
    grads = [n for n in JAXPR_NAMES if n.startswith("grad/")
             and n not in KNOWN_JAXPR_DIFFERENCES]
    assert len(grads) >= 15, grads
