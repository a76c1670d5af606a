"""What ``test_lax_top_k.py`` and ``test_lax_linalg.py`` share: building a recorded case
of ``linalg_cases.py`` and comparing with what JAX 0.10.2 recorded."""
from __future__ import annotations

import contextlib
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
