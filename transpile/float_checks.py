"""``jax_debug_nans`` and ``jax_debug_infs``: results checked for NaNs and infinities,
with JAX's ``FloatingPointError``\\ s.

* Eagerly, each primitive's floating-point results are checked after it runs; the
  first bad one raises ``invalid value (nan) encountered in <primitive>``.
* A jitted call's results are checked after the compiled code runs. On a bad one, as
  JAX does, the function is called again without ``jit`` (its primitives then run one
  by one, eagerly, and the first bad result names its primitive); if that finds none,
  the error says that only the compiled function produced the value.

NaNs are looked for before infinities, in each result in turn. While neither option is
set, eager dispatch runs unchecked: ``core.eager_apply`` is swapped when they change.
"""
from __future__ import annotations

import numpy as np

from . import core, dispatch
from .config import config
from .interpreters.eval import eval_jaxpr

__all__ = ["special_kind", "check_jit_call", "DEOPT_NOTICE"]

#: What JAX prints (to stdout) before it calls the function again without ``jit``.
DEOPT_NOTICE = ("Invalid nan value encountered in the output of a jax.jit function. "
                "Calling the de-optimized version.")


def special_kind(values) -> str | None:
    """``"nan"`` or ``"inf"`` for the first floating-point value holding one that the
    options look for; None when all are clean (or neither option is set)."""
    nans, infs = config.jax_debug_nans, config.jax_debug_infs
    for v in values:
        dt = getattr(v, "dtype", None)
        if dt is None or np.dtype(dt).kind not in "fc":
            continue
        a = np.asarray(v)
        if nans and np.isnan(a).any():
            return "nan"
        if infs and np.isinf(a).any():
            return "inf"
    return None


def _deoptimized_found_nothing(name: str, kind: str) -> FloatingPointError:
    return FloatingPointError(
        f"{(name, kind)}. Because jax_config.debug_nans.value and/or "
        "config.jax_debug_infs is set, the de-optimized function (i.e., the function as "
        "if the `jit` decorator were removed) was called in an attempt to get a more "
        "precise error message. However, the de-optimized function did not produce "
        "invalid values during its execution. This behavior can result from `jit` "
        "optimizations causing the invalid value to be produced. It may also arise from "
        "having nan/inf literals as inputs or outputs, like "
        "`jax.jit(lambda ...: jax.numpy.nan)(...)`. \n\nIt may be possible to avoid the "
        "invalid value by removing the `jit` decorator, at the cost of losing "
        "optimizations. \n\nIf you see this error, consider opening a bug report at "
        "https://github.com/jax-ml/jax.")


def _rerun(name: str, kind: str, run) -> None:
    """JAX's recovery: say so, run the de-optimized version (whose own check raises
    the precise error), else raise the error that it found nothing."""
    print(DEOPT_NOTICE)
    try:
        run()
    except (FloatingPointError, ZeroDivisionError) as e:
        raise e from None
    raise _deoptimized_found_nothing(name, kind)


def check_jit_call(name: str, fun, args, kwargs, outs) -> None:
    """After a jitted call of ``fun`` (shown as ``jit(name)``) outside any trace: raise
    JAX's FloatingPointError if ``outs`` (its flat results) hold a value looked for."""
    kind = special_kind(outs)
    if kind is not None:
        _rerun(f"jit({name})", kind, lambda: fun(*args, **kwargs))


def _checked_apply(primitive, args, params):
    out = dispatch.apply_primitive(primitive, args, params)
    kind = special_kind(out if primitive.multiple_results else [out])
    if kind is None:
        return out
    jaxpr = params.get("jaxpr") if primitive.name == "jit" else None
    if jaxpr is not None:  # a staged helper: its primitives one by one find the culprit
        _rerun(f"jit({params.get('name')})", kind,
               lambda: eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *args))
    print(DEOPT_NOTICE)
    raise FloatingPointError(f"invalid value ({kind}) encountered in {primitive.name}")


def _sync() -> None:
    core.eager_apply = _checked_apply if config._check_special else dispatch.apply_primitive


config._watchers.append(_sync)
_sync()
