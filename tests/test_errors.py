"""The sharp edges of JAX_BEHAVIOUR.md section 3: exception class, hierarchy and message.

``tests/data/errors.json`` holds, per program in ``jaxpr_cases.error_cases``, the class
JAX 0.10.2 raised, its ``__mro__`` names and its message with file paths, line numbers
and addresses normalised. Our message must contain the recorded key lines: the first
line, the "depends on the value(s) of the argument(s) ..." line, and the lines each
case names.
"""
from __future__ import annotations

import builtins
import warnings

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
    from transpile import errors as terrors
    _IMPORT_ERROR = None
except Exception as _e:  # the API is still being written; every test reports this
    jax = jnp = lax = terrors = None
    _IMPORT_ERROR = _e

RECORDED = jaxpr_cases.load_data("errors.json")["cases"]
NAMES = sorted(RECORDED)

# JAX_BEHAVIOUR 3.1: the hierarchy of jax.errors, checked independently of the cases.
HIERARCHY = {
    "JAXTypeError": ("_JAXErrorMixin", "TypeError"),
    "ConcretizationTypeError": ("JAXTypeError",),
    "TracerBoolConversionError": ("ConcretizationTypeError", "TypeError"),
    "TracerIntegerConversionError": ("JAXTypeError",),
    "TracerArrayConversionError": ("JAXTypeError",),
    "UnexpectedTracerError": ("JAXTypeError",),
    "KeyReuseError": ("JAXTypeError",),
    "JAXIndexError": ("_JAXErrorMixin", "IndexError", "LookupError"),
    "NonConcreteBooleanIndexError": ("JAXIndexError",),
    "JaxRuntimeError": ("RuntimeError",),
}
NOT_SUBCLASS = {"TracerIntegerConversionError": "ConcretizationTypeError"}


def _api():
    if _IMPORT_ERROR is not None:
        pytest.fail(f"cannot import transpile: {type(_IMPORT_ERROR).__name__}: {_IMPORT_ERROR}")
    return jax, jnp, lax, np


def _raise(name) -> BaseException:
    by_name = {c.name: c for c in jaxpr_cases.error_cases(*_api())}
    if name not in by_name:
        pytest.fail(f"error case {name} is recorded but no longer in jaxpr_cases.py")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            by_name[name].trigger()
        except Exception as e:  # noqa: BLE001 - the exception is what we test
            return e
    pytest.fail(f"{name}: no exception raised (JAX raised {RECORDED[name]['error']})")


def _class(name):
    if hasattr(terrors, name):
        return getattr(terrors, name)
    return getattr(builtins, name, None)


@pytest.mark.parametrize("name", NAMES)
def test_error_class(name):
    e = _raise(name)
    assert type(e).__name__ == RECORDED[name]["error"], f"{type(e).__name__}: {e}"


@pytest.mark.parametrize("name", NAMES)
def test_error_hierarchy(name):
    e = _raise(name)
    mro = [c.__name__ for c in type(e).__mro__]
    assert mro == RECORDED[name]["mro"], f"raised {type(e).__name__}: {e}"
    cls = _class(RECORDED[name]["error"])
    assert cls is not None and isinstance(e, cls), "not the public class of that name"


@pytest.mark.parametrize("name", NAMES)
def test_error_message(name):
    e = _raise(name)
    ours = jaxpr_cases.normalise_message(str(e))
    for line in RECORDED[name]["key_lines"]:
        assert line in ours.split("\n"), \
            f"missing line {line!r} in {type(e).__name__}:\n{ours}"


@pytest.mark.parametrize("cls_name", sorted(HIERARCHY))
def test_errors_module_hierarchy(cls_name):
    _api()
    cls = getattr(terrors, cls_name)
    mro_names = [c.__name__ for c in cls.__mro__]
    for base in HIERARCHY[cls_name]:
        if base.startswith("_"):  # private mixin: not exported by jax.errors
            assert base in mro_names, f"{cls_name} should subclass {base}"
            continue
        base_cls = getattr(terrors, base, None) or getattr(builtins, base)
        assert issubclass(cls, base_cls), f"{cls_name} should subclass {base}"
    if cls_name in NOT_SUBCLASS:
        assert not issubclass(cls, getattr(terrors, NOT_SUBCLASS[cls_name]))


def test_errors_module_names():
    _api()
    for name in ("ConcretizationTypeError", "JAXIndexError", "JAXTypeError",
                 "JaxRuntimeError", "NonConcreteBooleanIndexError",
                 "TracerArrayConversionError", "TracerBoolConversionError",
                 "TracerIntegerConversionError", "UnexpectedTracerError"):
        assert getattr(jax.errors, name) is getattr(terrors, name)
