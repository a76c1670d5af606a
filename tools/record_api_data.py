"""Record JAX 0.10.2's answers for the programs of ``tests/api_cases.py`` into
``tests/data/api.json``.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_api_data.py

Sections: ``tree`` (``repr`` of each expression's value, or its exception's type and
message), ``nn``/``nn_grad``/``attention`` (values, dtype, shape, weak type),
``initializers`` (values for ``PRNGKey(42)``), ``ops``, ``ravel``, ``training`` (MLP
loss per step), ``optimizer_paths`` (parameters per step of every optimizer), ``stax``
(layer outputs) and ``errors`` (type, message).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import numpy as np  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import ops  # noqa: E402
from jax.example_libraries import optimizers, stax  # noqa: E402
from jax.flatten_util import ravel_pytree  # noqa: E402

import api_cases  # noqa: E402


def encode(x) -> dict:
    """An array's value (real and imaginary parts for complex; non-finite as strings),
    dtype, shape and weak type."""
    a = np.asarray(x)
    out = {"dtype": str(a.dtype), "shape": list(a.shape),
           "weak_type": bool(getattr(x, "weak_type", False))}
    if a.dtype.kind == "c":
        out["real"] = _floats(a.real)
        out["imag"] = _floats(a.imag)
    else:
        out["value"] = _floats(a)
    return out


def _floats(a):
    return [float(v) if np.isfinite(v) else repr(float(v))
            for v in a.astype(np.float64).ravel()]


def attempt(fn) -> dict:
    """``{"repr": ...}`` of ``fn()``, or ``{"error": type, "message": ...}``."""
    try:
        return {"repr": repr(fn())}
    except Exception as e:  # noqa: BLE001  (recording whatever JAX raises)
        return {"error": type(e).__name__, "message": str(e)}


def attempt_value(fn) -> dict:
    try:
        return fn()
    except Exception as e:  # noqa: BLE001
        return {"error": type(e).__name__, "message": str(e)}


def main() -> None:
    out: dict = {"_meta": {"jax": jax.__version__}}
    ns = api_cases.tree_namespace(jax)
    out["tree"] = {e: attempt(lambda e=e: eval(e, dict(ns))) for e in api_cases.TREE_EXPRS}

    nn, x = jax.nn, api_cases.NN_X
    out["nn"] = {name: encode(eval(e, {"nn": nn, "x": jnp.asarray(x), "np": np}))
                 for name, e in api_cases.NN_EXPRS.items()}
    out["nn_grad"] = {}
    for name in api_cases.NN_GRAD:
        g = jax.grad(lambda x, e=api_cases.NN_EXPRS[name]: jnp.sum(
            eval(e, {"nn": nn, "x": x, "np": np})))
        out["nn_grad"][name] = encode(g(jnp.asarray(x)))
    att = api_cases.attention_inputs()
    out["attention"] = {}
    for name, e in api_cases.ATTENTION_EXPRS.items():
        r = eval(e, {"nn": nn, **att})
        out["attention"][name] = [encode(v) for v in r] if isinstance(r, tuple) \
            else encode(r)
    out["errors"] = {e: attempt(lambda e=e: eval(e, {"nn": nn, "np": np, **att}))
                     for e in api_cases.NN_ERRORS}

    init = jax.nn.initializers
    out["initializers"] = {}
    for expr, shape, dtype in api_cases.INIT_CASES:
        with jax.enable_x64(dtype in ("float64", "complex128")):
            fn = eval(expr, {"I": init})
            args = (jax.random.PRNGKey(42), shape) + ((dtype,) if dtype else ())
            out["initializers"][f"{expr} {shape} {dtype}"] = encode(fn(*args))
    for expr, shape in api_cases.INIT_ERRORS:
        out["errors"][f"{expr} {shape}"] = attempt(
            lambda expr=expr, shape=shape: eval(expr, {"I": init})(jax.random.PRNGKey(0),
                                                                 shape))

    env = {"ops": ops, "np": np, **api_cases.ops_inputs()}
    out["ops"] = {e: encode(eval(e, env)) for e in api_cases.OPS_EXPRS}
    for e in api_cases.OPS_ERRORS:
        out["errors"][e] = attempt(lambda e=e: eval(e, env))

    out["ravel"] = {}
    for e in api_cases.RAVEL_EXPRS:
        flat, unravel = ravel_pytree(eval(e, {"np": np}))
        back = jax.tree.leaves(unravel(flat))
        out["ravel"][e] = {"flat": encode(flat), "leaves": [encode(b) for b in back]}
    out["errors"]["unravel dtype"] = attempt(lambda: ravel_pytree(
        [np.float32(1), np.int32(2)])[1](jnp.ones(2, jnp.int32)))

    out["training"] = api_cases.training_losses(jax, jnp, optimizers, stax)
    out["optimizer_paths"] = api_cases.optimizer_paths(jax, jnp, optimizers)
    out["stax"] = api_cases.stax_outputs(jax, jnp, stax)
    out["errors"]["dropout without rng"] = attempt(
        lambda: stax.Dropout(0.5)[1]((), jnp.ones(2)))
    out["errors"]["piecewise_constant lengths"] = attempt(
        lambda: optimizers.piecewise_constant([1, 2], [0.1, 0.2]))
    out["errors"]["sgd mismatched grads"] = attempt(
        lambda: optimizers.sgd(0.1)[1](0, [1.0, 2.0], optimizers.sgd(0.1)[0]((1.0, 2.0))))

    lt = jax.linear_transpose(lambda x, y: (2 * x + y, x), 1., 2.)
    out["linear_transpose"] = [encode(v) for v in lt((1., 3.))]
    lt2 = jax.linear_transpose(lambda x: jnp.sum(x, 0) * 2.0,
                               jax.ShapeDtypeStruct((2, 3), jnp.float32))
    out["linear_transpose_sum"] = [encode(v) for v in lt2(jnp.arange(3.0))]
    out["errors"]["linear_transpose tree"] = attempt(lambda: lt(1.))
    out["errors"]["linear_transpose type"] = attempt(lambda: lt((jnp.ones(2), 1.)))
    out["errors"]["linear_transpose dtypes"] = attempt(
        lambda: jax.linear_transpose(lambda x: x.astype(int), 1.))
    out["errors"]["named_scope"] = attempt(lambda: jax.named_scope(3).__enter__())

    path = ROOT / "tests" / "data" / "api.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
