"""Helpers of the convolution tests: the recorded JAX answers and how to compare."""
from __future__ import annotations

import contextlib
import json
import pathlib

import numpy as np

from transpile.config import enable_x64

DATA = json.loads((pathlib.Path(__file__).parent / "data" / "convolution.json").read_text())
TOL = {"float16": 2e-3, "float32": 1e-5, "float64": 1e-12, "int32": 0}


def kwargs(kw: dict) -> dict:
    kw = dict(kw)
    if "preferred_element_type" in kw:
        kw["preferred_element_type"] = np.dtype(kw["preferred_element_type"])
    return kw


def x64_for(dtype: str):
    return enable_x64(True) if dtype == "float64" else contextlib.nullcontext()


def check(got, rec: dict, dtype: str | None = None) -> None:
    """``got`` has the recorded shape and dtype and values within the dtype's tolerance
    (relative to the largest recorded magnitude)."""
    got = np.asarray(got)
    assert list(got.shape) == rec["shape"]
    assert got.dtype.name == rec["dtype"]
    want = np.array(rec["values"], np.float64).reshape(rec["shape"])
    scale = max(1.0, float(np.max(np.abs(want), initial=0.0)))
    tol = TOL[dtype or rec["dtype"]]
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=0, atol=tol * scale)
