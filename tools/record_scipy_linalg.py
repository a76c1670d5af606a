"""Record JAX 0.10.2 on ``tests/scipy_cases.py`` into ``tests/data/scipy_linalg.json``
(``jax.scipy.linalg``, ``jax.scipy.integrate``, ``jax.scipy.optimize`` and
``lax.custom_linear_solve``/``custom_root``).

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_scipy_linalg.py

For each case, as ``record_linalg_data.py`` records: the jaxpr text (kept only for the
cases the tests compare as text) and the outputs' weak types (or the tracing error),
and the eager outputs (or the error); the tables are keyed ``linalg``, ``integrate``,
``optimize`` and ``linear_solve``.
"""
from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import jax
import jax.scipy.integrate  # noqa: F401
import jax.scipy.linalg  # noqa: F401
import jax.scipy.optimize  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tools"))
import scipy_cases  # noqa: E402
from record_linalg_data import record  # noqa: E402


def main():
    warnings.simplefilter("ignore")
    assert jax.__version__ == "0.10.2", jax.__version__
    data = {}
    for key, table, texts in (
            ("linalg", scipy_cases.LINALG, scipy_cases.LINALG_JAXPRS),
            ("integrate", scipy_cases.INTEGRATE, scipy_cases.INTEGRATE_JAXPRS),
            ("optimize", scipy_cases.OPTIMIZE, ()),
            ("linear_solve", scipy_cases.LINEAR_SOLVE, scipy_cases.LINEAR_SOLVE_JAXPRS)):
        data[key] = record(table)
        for name, rec in data[key].items():
            if name not in texts:  # only the texts the tests compare (the file stays small)
                rec.pop("jaxpr", None)
    out = ROOT / "tests" / "data" / "scipy_linalg.json"
    out.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {sum(map(len, data.values()))} cases to {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
