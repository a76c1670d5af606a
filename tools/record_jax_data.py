"""Record JAX's observable behaviour on the shared test programs into ``tests/data/``.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_jax_data.py             # record
    <jax-venv>/bin/python tools/record_jax_data.py --selfcheck # tests vs JAX itself

It imports ``tests/jaxpr_cases.py`` and writes:

``tests/data/jaxpr_text.json``
    case name -> ``str(jax.make_jaxpr(fn)(*args))``, the closed jaxpr's in/out avals,
    and the outputs (pytree structure, per-leaf kind/shape/dtype/weak type/values)
    of eager and ``jax.jit`` execution.
``tests/data/promotion.json``
    ``jnp.add(a, b)`` result dtype/weak type/values and ``jnp.result_type`` for all
    ordered operand pairs, with x64 off and (in a subprocess with
    ``JAX_ENABLE_X64=1``) on.
``tests/data/tracer_reprs.json``
    text that tracers show at trace time, and array/function reprs.
``tests/data/errors.json``
    exception class, MRO and message (paths, lines and addresses normalised) of the
    programs in ``error_cases``.
"""
from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
sys.path.insert(0, str(ROOT / "tests"))

import numpy as np  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402

import jaxpr_cases  # noqa: E402

MAX_VALUES = 1000  # record output values only for leaves up to this size


def meta() -> dict:
    return {
        "jax": jax.__version__,
        "numpy": np.__version__,
        "python": platform.python_version(),
        "x64": bool(jax.config.jax_enable_x64),
        "recorded_by": "tools/record_jax_data.py",
    }


def _json_scalar(x):
    if isinstance(x, (bool, int, float, str)) or x is None:
        return x
    return repr(x)


def leaf_info(x) -> dict:
    if isinstance(x, jax.Array):
        a = np.asarray(x)
        d = {"kind": "Array", "shape": list(a.shape), "dtype": str(a.dtype),
             "weak_type": bool(x.weak_type)}
        if a.size <= MAX_VALUES:
            d["values"] = a.tolist()
        else:
            d["sum"] = float(a.astype(np.float64).sum())
        return d
    return {"kind": type(x).__name__, "value": _json_scalar(x)}


def outputs_info(out) -> dict:
    leaves, tree = jax.tree_util.tree_flatten(out)
    return {"tree": str(tree), "leaves": [leaf_info(x) for x in leaves]}


def aval_info(a) -> dict:
    return {"shape": list(a.shape), "dtype": str(a.dtype), "weak_type": bool(a.weak_type)}


def error_info(e: BaseException) -> dict:
    return {"error": type(e).__name__,
            "message": jaxpr_cases.normalise_message(str(e))}


# ---------------------------------------------------------------------------------------

def record_jaxprs() -> dict:
    out = {}
    for case in jaxpr_cases.cases(jax, jnp, lax, np):
        assert case.name not in out, f"duplicate case name {case.name}"
        rec = {"static_argnums": list(case.static_argnums)}
        fn, args = case.build()
        closed = jax.make_jaxpr(fn, static_argnums=case.static_argnums)(*args)
        rec["jaxpr"] = str(closed)
        rec["in_avals"] = [aval_info(a) for a in closed.in_avals]
        rec["out_avals"] = [aval_info(a) for a in closed.out_avals]
        rec["n_consts"] = len(closed.consts)
        for mode in ("eager", "jit"):
            fn, args = case.build()
            try:
                if mode == "jit":
                    fn = jax.jit(fn, static_argnums=case.static_argnums)
                res = outputs_info(fn(*args))
                if not case.values:
                    for leaf in res["leaves"]:
                        leaf.pop("values", None)
                rec[mode] = res
            except Exception as e:  # recorded, so a test can expect the same failure
                print(f"  {case.name} ({mode}) raised {type(e).__name__}: {e}",
                      file=sys.stderr)
                rec[mode] = error_info(e)
        out[case.name] = rec
    return out


def record_promotion_table() -> list:
    ops = jaxpr_cases.promotion_operands(jnp, np)
    order = jaxpr_cases.PROMOTION_ORDER
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for a_name in order:
            for b_name in order:
                a, b = ops[a_name](), ops[b_name]()
                row = {"a": a_name, "b": b_name}
                try:
                    r = jnp.add(a, b)
                    row["dtype"] = str(r.dtype)
                    row["weak_type"] = bool(r.weak_type)
                    row["shape"] = list(r.shape)
                    v = np.asarray(r)
                    # complex values as [re, im] pairs (JSON has no complex numbers)
                    row["values"] = (np.stack([v.real, v.imag], -1) if v.dtype.kind == "c"
                                     else v).tolist()
                except Exception as e:
                    row.update(error_info(e))
                try:
                    row["result_type"] = str(jnp.result_type(a, b))
                    dt, weak = jax.dtypes.result_type(a, b, return_weak_type_flag=True)
                    row["dtypes_result_type"] = [str(dt), bool(weak)]
                except Exception as e:
                    row["result_type_error"] = error_info(e)
                rows.append(row)
    return rows


def record_promotion() -> dict:
    env = dict(os.environ, JAX_ENABLE_X64="1")
    proc = subprocess.run([sys.executable, __file__, "--promotion-table"], env=env,
                          capture_output=True, text=True, check=True)
    x64 = json.loads(proc.stdout)
    assert x64["meta"]["x64"] is True
    return {"_meta": meta(), "operands": list(jaxpr_cases.PROMOTION_ORDER),
            "x64_off": record_promotion_table(), "x64_on": x64["rows"]}


def record_tracer_reprs() -> dict:
    tracers = {}
    for name, run in jaxpr_cases.tracer_repr_cases(jax, jnp, lax, np):
        texts = []
        try:
            run(texts.append)
            tracers[name] = [jaxpr_cases.normalise_message(t) for t in texts]
        except Exception as e:
            print(f"  tracer case {name} raised {type(e).__name__}: {e}", file=sys.stderr)
            tracers[name] = error_info(e)
    arrays = {}
    for name, thunk in jaxpr_cases.array_repr_cases(jax, jnp, lax, np):
        arrays[name] = jaxpr_cases.normalise_message(thunk())
    return {"_meta": meta(), "tracers": tracers, "arrays": arrays}


def record_errors() -> dict:
    out = {}
    for case in jaxpr_cases.error_cases(jax, jnp, lax, np):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                case.trigger()
        except Exception as e:
            msg = jaxpr_cases.normalise_message(str(e))
            out[case.name] = {
                "error": type(e).__name__,
                "module": type(e).__module__,
                "mro": [c.__name__ for c in type(e).__mro__],
                "message": msg,
                "key_lines": jaxpr_cases.key_lines(msg, case.keys),
                "notes": [jaxpr_cases.normalise_message(n)
                          for n in getattr(e, "__notes__", [])
                          if "JAX_TRACEBACK_FILTERING" not in n],
            }
        else:
            raise AssertionError(f"error case {case.name} did not raise under JAX")
    return {"_meta": meta(), "cases": out}


def write(name: str, data) -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    path = DATA / name
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {path.relative_to(ROOT)}")


_SHIM = {
    "__init__.py": "from jax import *  # noqa\n"
                   "from jax import config, errors, tree_util, Array, jit, make_jaxpr  # noqa\n",
    "numpy.py": "from jax.numpy import *  # noqa\nfrom jax.numpy import result_type  # noqa\n",
    "lax.py": "from jax.lax import *  # noqa\n",
    "dtypes.py": "from jax.dtypes import *  # noqa\nfrom jax.dtypes import result_type  # noqa\n",
    "errors.py": "from jax.errors import *  # noqa\n",
}
TEST_FILES = ["test_jaxpr_text.py", "test_dtypes.py", "test_tracer_reprs.py", "test_errors.py"]


def selfcheck() -> int:
    """Run the comparison tests with JAX itself standing in for transpile.

    A throwaway package named ``transpile`` re-exports jax, so every test must pass;
    a failure means the test (not transpile) is wrong. Needs pytest in this env.
    """
    import shutil
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        pkg = Path(tmp, "shim", "transpile")
        pkg.mkdir(parents=True)
        for name, text in _SHIM.items():
            (pkg / name).write_text(text)
        tests = Path(tmp, "tests")
        shutil.copytree(ROOT / "tests", tests, ignore=shutil.ignore_patterns("__pycache__"))
        env = dict(os.environ, PYTHONPATH=str(pkg.parent))
        env.pop("JAX_ENABLE_X64", None)
        return subprocess.call([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                *[str(tests / f) for f in TEST_FILES]], cwd=tmp, env=env)


def main(argv) -> None:
    if "--selfcheck" in argv:
        sys.exit(selfcheck())
    if "--promotion-table" in argv:  # the x64 subprocess
        json.dump({"meta": meta(), "rows": record_promotion_table()}, sys.stdout)
        return
    assert jax.__version__ == "0.10.2", jax.__version__
    assert not jax.config.jax_enable_x64, "run with x64 off (unset JAX_ENABLE_X64)"
    if "--only-promotion" in argv:
        write("promotion.json", record_promotion())
        return
    write("jaxpr_text.json", {"_meta": meta(), "cases": record_jaxprs()})
    write("promotion.json", record_promotion())
    write("tracer_reprs.json", record_tracer_reprs())
    write("errors.json", record_errors())


if __name__ == "__main__":
    main(sys.argv[1:])
