"""What ``test_scipy_*.py`` and ``test_lax_linear_solve.py`` share: replaying a case of
``scipy_cases.py`` against what JAX 0.10.2 recorded in ``tests/data/scipy_linalg.json``
(jaxpr text, weak types, errors word for word, values within rounding)."""
from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import transpile
from linalg_checks import build, check_error, expected, leaves, x64_mode

DATA = json.loads((pathlib.Path(__file__).parent / "data" / "scipy_linalg.json").read_text())


def _tolerances(dtype) -> dict:
    """Rounding allowed against JAX: a few hundred ulps relative (the factorisations
    of LAPACK and of transpile's kernels round differently), absolute near zero."""
    if np.dtype(dtype) == np.float64:
        return dict(rtol=1e-9, atol=1e-12)
    return dict(rtol=2e-4, atol=2e-5)


class Replay:
    """The recorded cases of one table of ``scipy_cases``."""

    def __init__(self, table: dict, key: str):
        self.table, self.data = table, DATA[key]

    def names(self, kind: str) -> list:
        """Cases whose ``kind`` (``"trace"`` or ``"eager"``) raised, or for ``"values"``,
        those that ran."""
        if kind == "values":
            return [n for n, r in self.data.items() if isinstance(r["eager"], list)]
        return [n for n, r in self.data.items()
                if isinstance(r.get(kind), dict) and "error" in r[kind]]

    def check_recorded(self) -> None:
        assert sorted(self.table) == sorted(self.data), "rerun tools/record_scipy_linalg.py"

    def check_jaxpr(self, name: str) -> None:
        fn, args, x64 = build(self.table, name)
        with x64_mode(x64):
            closed = transpile.make_jaxpr(fn)(*args)
        rec = self.data[name]
        assert str(closed) == rec["jaxpr"]
        assert [v.aval.weak_type for v in closed.jaxpr.outvars] == rec["weak_types"]

    def check_error(self, name: str, kind: str) -> None:
        fn, args, x64 = build(self.table, name)
        run = (lambda: transpile.make_jaxpr(fn)(*args)) if kind == "trace" else \
            (lambda: fn(*args))
        with x64_mode(x64):
            check_error(run, self.data[name][kind])

    def check_values(self, name: str, compiled: bool = True) -> None:
        """Eager (and, with ``compiled``, jitted) outputs against JAX's, and the weak
        types of the traced outputs."""
        fn, args, x64 = build(self.table, name)
        rec = self.data[name]
        with x64_mode(x64):
            runs = [leaves(fn(*args))]
            if compiled:
                runs.append(leaves(transpile.jit(fn)(*args)))
            weak = [v.aval.weak_type for v in transpile.make_jaxpr(fn)(*args).jaxpr.outvars]
        assert weak == rec["weak_types"]
        for got in runs:
            assert len(got) == len(rec["eager"])
            for g, w in zip(got, rec["eager"]):
                g, want = np.asarray(g), expected(w)
                assert g.dtype == want.dtype and g.shape == want.shape, (g, want)
                if g.dtype.kind == "f":
                    np.testing.assert_allclose(g, want, **_tolerances(g.dtype))
                else:
                    np.testing.assert_array_equal(g, want)


def central_differences(f, x, h: float = 1e-6):
    """The gradient of the scalar ``f`` at ``x`` by central differences."""
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = h
        g[i] = (f(x + d) - f(x - d)) / (2 * h)
    return g


def replay_tests(rec: Replay, jaxpr_names, compiled=()):
    """The four tests every replayed table gets: all cases recorded, jaxpr texts
    (``jaxpr_names``), values (jitted too for ``compiled``), errors at trace and eager
    time. A test module binds them to module-level ``test_*`` names."""
    def test_cases_were_recorded():
        rec.check_recorded()

    @pytest.mark.parametrize("name", list(jaxpr_names))
    def test_jaxpr_text(name):
        rec.check_jaxpr(name)

    @pytest.mark.parametrize("name", rec.names("values"))
    def test_values(name):
        rec.check_values(name, compiled=name in compiled)

    @pytest.mark.parametrize("kind", ["trace", "eager"])
    @pytest.mark.parametrize("name", rec.names("trace"))
    def test_errors(name, kind):
        rec.check_error(name, kind)
    # nothing to compare: no test rather than a skipped one
    texts = test_jaxpr_text if jaxpr_names else None
    return test_cases_were_recorded, texts, test_values, test_errors
