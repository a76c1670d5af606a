"""Configuration options as programs, shared by ``tests/test_config_options.py`` and
``tools/record_config_options.py`` (which runs them in JAX 0.10.2 and writes
``tests/data/config_options.json``).

``cases(M)`` takes the library (``jax`` or ``transpile``) and returns ``name ->
thunk``; ``run(thunk)`` runs one with every option it sets restored afterwards and
returns what it printed and its result or error. Nothing here imports jax or
transpile.
"""
from __future__ import annotations

import contextlib
import io

import numpy as np

#: Options whose default values are compared.
DEFAULTS = ["jax_platforms", "jax_debug_nans", "jax_debug_infs",
            "jax_default_matmul_precision", "jax_compilation_cache_dir",
            "jax_traceback_filtering", "jax_numpy_dtype_promotion", "jax_enable_checks",
            "jax_enable_x64", "jax_disable_jit", "jax_numpy_rank_promotion",
            "jax_default_prng_impl", "jax_log_compiles", "jax_check_tracer_leaks",
            "jax_explain_cache_misses", "jax_threefry_partitionable", "jax_default_device"]

#: Options each case may change (restored after it).
TOUCHED = ["jax_debug_nans", "jax_debug_infs", "jax_numpy_dtype_promotion",
           "jax_default_matmul_precision", "jax_traceback_filtering",
           "jax_numpy_rank_promotion", "jax_enable_checks", "jax_platforms"]


def _value(v):
    """An option's value or a result as JSON."""
    if hasattr(v, "dtype") and hasattr(v, "shape"):
        a = np.asarray(v)
        return {"value": a.tolist(), "dtype": a.dtype.name}
    if hasattr(v, "value") and type(v).__name__ == "NumpyDtypePromotion":
        return {"enum": v.value}
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return repr(v)


def run(M, thunk) -> dict:
    saved = {n: getattr(M.config, n) for n in TOUCHED}
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            got = {"result": _value(thunk())}
    except Exception as e:  # noqa: BLE001 - recorded
        got = {"error": f"{type(e).__name__}: {e}"}
    finally:
        for n, v in saved.items():
            M.config.update(n, getattr(v, "value", v))
    got["stdout"] = out.getvalue()
    return got


def cases(M):  # noqa: C901 - one flat table
    jnp, config = M.numpy, M.config
    out = {}

    for name in DEFAULTS:
        out[f"default_{name}"] = (lambda name=name: getattr(config, name))

    # -- unknown and refused values ----------------------------------------------------
    out["unknown_update"] = lambda: config.update("jax_no_such_option", 1)
    out["unknown_attribute"] = lambda: config.jax_no_such_option
    bad = {"promotion": ("jax_numpy_dtype_promotion", "bogus"),
           "matmul_precision": ("jax_default_matmul_precision", "bogus"),
           "traceback_filtering": ("jax_traceback_filtering", "bogus"),
           "rank_promotion": ("jax_numpy_rank_promotion", "bogus"),
           "platforms": ("jax_platforms", 3)}
    for label, (name, value) in bad.items():
        out[f"refused_{label}"] = (lambda name=name, value=value: config.update(name, value))

    def set_and_read(name, value):
        config.update(name, value)
        return getattr(config, name)
    for name, value in [("jax_numpy_dtype_promotion", "strict"),
                        ("jax_default_matmul_precision", "highest"),
                        ("jax_traceback_filtering", "off"), ("jax_platforms", "cpu"),
                        ("jax_enable_checks", True)]:
        out[f"set_{name}"] = (lambda name=name, value=value: set_and_read(name, value))

    # -- jax_debug_nans / jax_debug_infs -----------------------------------------------
    x = np.array([0., 1.], np.float32)

    def with_option(name, fn):
        def thunk():
            config.update(name, True)
            return fn()
        return thunk

    def f(x):
        y = jnp.sin(x)
        return jnp.log(y - 0.5) * 2

    nan_cases = {
        "eager_log": lambda: jnp.log(x - 1),
        "eager_div": lambda: jnp.zeros(2) / jnp.zeros(2),
        "eager_sqrt_scalar": lambda: jnp.sqrt(-1.),
        "eager_clean": lambda: jnp.sin(x),
        "eager_int": lambda: jnp.arange(3) // 1,
        "jit_finds_primitive": lambda: M.jit(f)(x),
        "jit_clean": lambda: M.jit(jnp.sin)(x),
        "grad_inf_is_not_nan": lambda: M.grad(lambda x: jnp.sum(jnp.sqrt(x)))(x),
        "jit_nan_input_passed_through": lambda: M.jit(lambda x: x)(
            np.array([np.nan], np.float32)),
    }
    for label, fn in nan_cases.items():
        out[f"nans_{label}"] = with_option("jax_debug_nans", fn)
    inf_cases = {
        "eager_log": lambda: jnp.log(x),
        "eager_nan_and_inf": lambda: jnp.log(x - 1),
        "eager_nan_only": lambda: jnp.sqrt(x - 1),
        "jit_numpy_body": lambda: M.jit(lambda x: 1 / x)(x),
        "jit_finds_primitive": lambda: M.jit(lambda x: jnp.log(x) + 1)(x),
    }
    for label, fn in inf_cases.items():
        out[f"infs_{label}"] = with_option("jax_debug_infs", fn)

    def context_manager():
        with M.debug_nans(True):
            return jnp.log(x - 1)
    out["nans_context_manager"] = context_manager
    out["nans_off"] = lambda: jnp.log(x - 1)

    # -- jax_numpy_dtype_promotion="strict" --------------------------------------------
    def strict(fn):
        def thunk():
            config.update("jax_numpy_dtype_promotion", "strict")
            return fn()
        return thunk
    i32, f32 = jnp.ones(2, jnp.int32), jnp.ones(2, jnp.float32)
    i8, u8, b = jnp.ones(2, jnp.int8), jnp.ones(2, jnp.uint8), jnp.ones(2, bool)
    promo = {
        "i32_f32": lambda: i32 + f32, "i32_weak_int": lambda: i32 + 1,
        "i32_weak_float": lambda: i32 + 1., "f32_weak_float": lambda: f32 + 1.,
        "f32_weak_int": lambda: f32 + 1, "i8_i32": lambda: i8 + i32, "b_i32": lambda: b + i32,
        "i8_u8": lambda: i8 + u8, "b_weak_int": lambda: b + 1,
        "weak_int_weak_float": lambda: jnp.add(1, 1.),
        "result_type": lambda: str(jnp.result_type(jnp.int32, jnp.float32)),
        "promote_types": lambda: str(jnp.promote_types(jnp.int32, jnp.float32)),
        "jit": lambda: M.jit(lambda a, c: a * c)(i32, f32),
        "same_dtype": lambda: f32 * f32,
    }
    for label, fn in promo.items():
        out[f"strict_{label}"] = strict(fn)
    out["standard_i32_f32"] = lambda: i32 + f32
    return out
