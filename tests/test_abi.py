"""The entry ABI (``transpile/abi.py``): the C prototype and cffi declaration it gives,
its JSON round trip, and the executables built from it."""
from __future__ import annotations

import json

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import abi
from transpile.abi import EntryABI, Param
from transpile.codegen.plan import plan_program
from transpile.codegen.render import entry_abi
from transpile.passes import optimize
from transpile.stages import compile_lowering, lower_jaxpr


def _abi(fn, *args, target="c"):
    closed = optimize(jax.make_jaxpr(fn)(*args))
    return entry_abi(plan_program(closed, "jit_f"), target)


def test_prototype_and_cdef():
    x = np.zeros((2, 3), np.float32)
    a = _abi(lambda x, y: (x + y, jnp.sum(y)), x, x.astype(np.int32))
    assert [p.role for p in a.params] == ["input", "input", "output", "output", "workspace"]
    assert a.prototype() == (
        "int jit_f(const float *restrict A, const int32_t *restrict B, "
        "float *restrict D, int32_t *restrict E, void *restrict workspace);")
    assert a.cdef() == ("int jit_f(void *, void *, void *, void *, void *);\n"
                        "int64_t jit_f_workspace_size(void);")
    assert [p.shape for p in a.outputs] == [(2, 3), ()]
    assert [p.dtype for p in a.outputs] == ["float32", "int32"]


def test_cuda_entry_takes_a_stream_last():
    x = np.zeros(4, np.float32)
    a = _abi(lambda x: x * 2, x, target="cuda")
    assert a.params[-1].role == abi.STREAM
    assert a.prototype().endswith("void *restrict workspace, void *stream);")
    assert a.cdef().startswith("int jit_f(void *, void *, void *, void *);")


def test_host_callback_parameter():
    def f(x):
        jax.debug.print("x={}", x)
        return x + 1
    a = _abi(f, np.float32(1))
    assert a.host and a.params[-1].role == abi.HOST
    assert a.prototype().endswith("int (*tp_host)(int64_t, void **, void **));")
    assert "int (*)(int64_t, void **, void **)" in a.cdef()


def test_json_round_trip():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    a = _abi(lambda x: (x, 3.0, x * 2, x * 2), x)
    data = json.loads(json.dumps(a.to_json()))
    b = EntryABI.from_json(data)
    assert b == a and b.prototype() == a.prototype() and b.cdef() == a.cdef()
    assert [k for k, _ in b.out_sources] == ["input", "literal", "buffer", "buffer"]
    assert b.out_sources[1] == ("literal", (3.0, "float32"))


@pytest.mark.parametrize("bad", [{}, {"name": "f", "params": [{"name": "a"}],
                                      "out_sources": [], "target": "c"},
                                 {"name": "f", "params": [], "out_sources": [["x", 0]],
                                  "target": "c"}])
def test_malformed_json_raises_value_error(bad):
    with pytest.raises(ValueError):
        EntryABI.from_json(bad)


def test_unknown_role_is_refused():
    with pytest.raises(ValueError):
        Param("a", "scratch")


def test_executable_marshals_through_the_abi():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    closed = jax.make_jaxpr(lambda x: (x * 2, x, 1.5))(x)
    exe = compile_lowering(lower_jaxpr(closed, "abi_marshal"))
    got = exe([x])
    np.testing.assert_array_equal(np.asarray(got[0]), x * 2)
    np.testing.assert_array_equal(np.asarray(got[1]), x)
    assert float(got[2]) == 1.5
    assert exe.abi.name == "jit_abi_marshal"
