"""Global configuration, spelled like ``jax.config``.

Options are read from the environment once at import (``TRANSPILE_ENABLE_X64=1``,
``JAX_ENABLE_X64=1`` is accepted too) and changed with ``config.update(name, value)``.
Options that change what a trace produces (x64) are part of every jit cache key.
"""
from __future__ import annotations

import contextlib
import os

__all__ = ["config", "Config", "disable_jit", "enable_x64", "default_device"]


def _env_flag(*names: str) -> bool:
    for name in names:
        value = os.environ.get(name)
        if value is not None:
            return value.strip().lower() in ("1", "true", "yes", "on")
    return False


class Config:
    """The table of options; attribute access reads, ``update`` writes.

    Examples
    --------
    >>> from transpile import config
    >>> config.update("jax_enable_x64", True)   # doctest: +SKIP
    """

    # Options whose value changes the jaxpr a trace produces: part of jit keys.
    # ... and the options that choose where jit runs (the CPU or a GPU), so that a call
    # under another default device never reuses the other backend's executable.
    _TRACE_KEYS = ("jax_enable_x64", "jax_disable_jit", "jax_default_device",
                   "jax_platform_name")

    def __init__(self) -> None:
        object.__setattr__(self, "_values", {
            "jax_enable_x64": _env_flag("TRANSPILE_ENABLE_X64", "JAX_ENABLE_X64"),
            "jax_disable_jit": _env_flag("TRANSPILE_DISABLE_JIT", "JAX_DISABLE_JIT"),
            "jax_log_compiles": _env_flag("TRANSPILE_LOG_COMPILES", "JAX_LOG_COMPILES"),
            "jax_explain_cache_misses": _env_flag("TRANSPILE_EXPLAIN_CACHE_MISSES",
                                                  "JAX_EXPLAIN_CACHE_MISSES"),
            "jax_check_tracer_leaks": _env_flag("TRANSPILE_CHECK_TRACER_LEAKS",
                                                "JAX_CHECK_TRACER_LEAKS"),
            "jax_platform_name": os.environ.get("TRANSPILE_PLATFORM", ""),
            # A CpuDevice, a CudaDevice, a platform name or None (see devices.py).
            "jax_default_device": None,
            "jax_default_prng_impl": "threefry2x32",
            "jax_threefry_partitionable": True,
            "jax_numpy_rank_promotion": "allow",
            "jax_pprint_use_color": False,
        })
        self._refresh()

    def _refresh(self) -> None:
        # Cached: jit's fast path reads it on every call.
        object.__setattr__(self, "_trace_key",
                           tuple(self._values[k] for k in self._TRACE_KEYS))

    def update(self, name: str, value) -> None:
        """Set option ``name`` to ``value``.

        Parameters
        ----------
        name : str
            The option, as JAX names it (``"jax_enable_x64"``, ...).
        value : object
            Its new value.

        Raises
        ------
        AttributeError
            If ``name`` is not a known option.
        """
        if name not in self._values:
            raise AttributeError(f"Unrecognized config option: {name}")
        self._values[name] = value
        self._refresh()

    def read(self, name: str):
        """Return the value of option ``name``."""
        return self._values[name]

    def __getattr__(self, name: str):
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"Unrecognized config option: {name}") from None

    def __setattr__(self, name, value):
        raise AttributeError("use config.update(name, value)")

    def trace_context(self) -> tuple:
        """The option values that change traces, for use in cache keys."""
        return self._trace_key

    @property
    def x64_enabled(self) -> bool:
        return bool(self._values["jax_enable_x64"])


config = Config()


@contextlib.contextmanager
def _override(name, value):
    old = config.read(name)
    config.update(name, value)
    try:
        yield
    finally:
        config.update(name, old)


def disable_jit(disable: bool = True):
    """Context manager that makes jitted functions run eagerly, op by op.

    Parameters
    ----------
    disable : bool, default True
        Whether to disable jit inside the block.
    """
    return _override("jax_disable_jit", disable)


def enable_x64(new_val: bool = True):
    """Context manager that switches 64-bit mode on (or off) inside the block."""
    return _override("jax_enable_x64", new_val)


def default_device(device):
    """Context manager that makes ``device`` the default device inside the block
    (``jax.default_device``): where ``device_put`` without a device puts arrays, and
    where jitted calls whose arguments live on the host run.

    Parameters
    ----------
    device : CpuDevice, CudaDevice, str or None
        A device, a platform name (``"cpu"``, ``"cuda"``), or None for the usual rule
        (``jax_platform_name``, else the CPU). The same as
        ``config.update("jax_default_device", device)`` for the block.
    """
    return _override("jax_default_device", device)
