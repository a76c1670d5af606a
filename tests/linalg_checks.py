"""What ``test_lax_top_k.py``, ``test_lax_linalg.py`` and ``test_linalg_*.py`` share:
building a recorded case of ``linalg_cases.py`` and comparing with what JAX 0.10.2
recorded."""
from __future__ import annotations

import contextlib
import json
import pathlib
import re

import numpy as np
import pytest

import transpile
import transpile.numpy as jnp
from transpile import lax
from transpile.config import enable_x64

NS = {"lax": lax, "jnp": jnp, "np": np, "jax": transpile}
EXC = {"ValueError": ValueError, "TypeError": TypeError,
       "NotImplementedError": NotImplementedError}


def build(table: dict, name: str):
    """``(program, arguments, x64)`` of case ``name``, evaluated with transpile."""
    prog, args, x64 = table[name]
    return eval(prog, NS), eval(args, NS), x64


def x64_mode(flag: bool):
    return enable_x64(True) if flag else contextlib.nullcontext()


def check_error(fn, rec) -> None:
    """``fn()`` raises the recorded exception class with the recorded message."""
    with pytest.raises(EXC[rec["error"]], match="^" + re.escape(rec["message"]) + "$"):
        fn()


def expected(want):
    """A recorded output as an array; NaNs get their recorded signs back."""
    out = np.array(want["values"], dtype=want["dtype"]).reshape(want["shape"])
    if "signbit" in want:
        out = np.copysign(out, np.where(np.reshape(want["signbit"], out.shape), -1, 1)
                          .astype(out.dtype))
    return out


def same_bits(got, want) -> None:
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes(), (got, want)


def leaves(x) -> list:
    """A result's arrays: a tuple's items, or the one array."""
    return list(x) if isinstance(x, (list, tuple)) else [x]


def signed(v) -> np.ndarray:
    """Columns scaled so that each one's largest-magnitude entry is positive (vectors
    compared up to sign)."""
    v = np.asarray(v, np.float64)
    idx = np.argmax(np.abs(v), axis=-2)[..., None, :]
    return v * np.sign(np.take_along_axis(v, idx, axis=-2))


class Recorded:
    """One family's cases (a table of ``linalg_cases.py``) with what JAX recorded for
    them (``tests/data/<file>``), and the checks every family makes of them."""

    def __init__(self, table: dict, data_file: str):
        self.table = table
        path = pathlib.Path(__file__).parent / "data" / data_file
        self.data = json.loads(path.read_text())

    def names(self, key: str, errors: bool = False) -> list:
        """Cases recorded under ``key`` ("eager", "trace"), with or without an error."""
        return [n for n, rec in self.data.items()
                if key in rec and ("error" in rec[key] if errors else "error" not in rec[key])]

    def check_all_recorded(self) -> None:
        assert set(self.data) == set(self.table)

    def outputs(self, name: str) -> tuple:
        """``(eager, compiled, recorded)``: the case's output leaves run eagerly and under
        ``jit``, and JAX's recorded eager outputs (as many of each)."""
        fn, args, x64 = build(self.table, name)
        with x64_mode(x64):
            got = leaves(fn(*args))
            compiled = leaves(transpile.jit(fn)(*args))
        want = [expected(w) for w in self.data[name]["eager"]]
        assert len(got) == len(compiled) == len(want)
        return got, compiled, want

    def check_jaxpr(self, name: str) -> None:
        fn, args, x64 = build(self.table, name)
        with x64_mode(x64):
            closed = transpile.make_jaxpr(fn)(*args)
        assert str(closed) == self.data[name]["jaxpr"]
        assert [v.aval.weak_type for v in closed.jaxpr.outvars] == \
            self.data[name]["weak_types"]

    def check_trace_error(self, name: str) -> None:
        fn, args, x64 = build(self.table, name)
        with x64_mode(x64):
            check_error(lambda: transpile.make_jaxpr(fn)(*args), self.data[name]["trace"])

    def check_eager_error(self, name: str) -> None:
        fn, args, x64 = build(self.table, name)
        with x64_mode(x64):
            check_error(lambda: fn(*args), self.data[name]["eager"])
