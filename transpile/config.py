"""Global configuration, spelled like ``jax.config``.

Options are read from the environment once at import, as JAX reads them: option
``jax_debug_nans`` from ``TRANSPILE_DEBUG_NANS`` or else ``JAX_DEBUG_NANS`` (booleans
accept JAX's spellings, 1/0, true/false, yes/no, on/off, t/f, y/n, and refuse others
with its ValueError). ``config.update(name, value)`` changes one, checking its value as
JAX does; an unknown name raises AttributeError. Options that change what a trace
produces (x64, dtype promotion, ...) are part of every jit cache key.
"""
from __future__ import annotations

import contextlib
import enum
import os

__all__ = ["config", "Config", "NumpyDtypePromotion", "disable_jit", "enable_x64",
           "default_device", "debug_nans", "debug_infs", "numpy_dtype_promotion"]


class NumpyDtypePromotion(enum.Enum):
    """The values of ``jax_numpy_dtype_promotion``: JAX's promotion lattice
    (``standard``) or only promotions of weakly typed values (``strict``)."""
    STANDARD = "standard"
    STRICT = "strict"


_TRUE = ("y", "yes", "t", "true", "on", "1")
_FALSE = ("n", "no", "f", "false", "off", "0")

#: JAX's ``jax_default_matmul_precision`` values (transpile computes every float32
#: product in float32 whatever the value).
_MATMUL_PRECISIONS = (
    "default", "high", "highest", "bfloat16", "tensorfloat32", "float32",
    "ANY_F8_ANY_F8_F32", "ANY_F8_ANY_F8_F32_FAST_ACCUM", "ANY_F8_ANY_F8_ANY",
    "ANY_F8_ANY_F8_ANY_FAST_ACCUM", "F16_F16_F16", "F16_F16_F32", "BF16_BF16_BF16",
    "BF16_BF16_F32", "BF16_BF16_F32_X3", "BF16_BF16_F32_X6", "BF16_BF16_F32_X9",
    "TF32_TF32_F32", "TF32_TF32_F32_X3", "F32_F32_F32", "F64_F64_F64")


class _Option:
    """One option: its default, how a value is checked, and the environment variables
    read at import (``TRANSPILE_<NAME>`` first, then ``JAX_<NAME>`` as JAX reads it)."""

    def __init__(self, kind: str, default, choices=(), env: tuple | None = None):
        self.kind, self.default, self.choices, self.env = kind, default, choices, env

    def from_env(self, name: str):
        names = ("TRANSPILE_" + name[4:].upper(), name.upper()) if self.env is None \
            else self.env
        for var in names:
            raw = os.environ.get(var)
            if raw is None:
                continue
            if self.kind == "bool":
                low = raw.strip().lower()
                if low in _TRUE:
                    return True
                if low in _FALSE:
                    return False
                raise ValueError(f"invalid truth value {raw!r} for environment {var!r}")
            return self.check(raw)
        return self.default

    def check(self, value):
        """``value`` as stored, or JAX's ValueError for a value the option refuses."""
        kind = self.kind
        if kind == "promotion":
            return NumpyDtypePromotion(value)
        if kind in ("enum", "enum_or_none"):
            if value is None and kind == "enum_or_none":
                return None
            if value not in self.choices:
                none = "None or " if kind == "enum_or_none" else ""
                raise ValueError(f"new enum value must be {none}in {list(self.choices)}, "
                                 f"got {value} of type {type(value)}.")
        elif kind == "int":
            if isinstance(value, str):  # from the environment
                try:
                    return int(value)
                except ValueError:
                    pass
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise ValueError("new int config value must be None or of type int, got "
                                 f"{value} of type {type(value)}.")
        elif kind == "str_or_none" and value is not None and not isinstance(value, str):
            raise ValueError("new string config value must be None or of type str, got "
                             f"{value} of type {type(value)}.")
        return value


_TRANSFER_GUARDS = ("allow", "log", "disallow", "log_explicit", "disallow_explicit")

_OPTIONS = {
    "jax_enable_x64": _Option("bool", False),
    "jax_disable_jit": _Option("bool", False),
    "jax_log_compiles": _Option("bool", False),
    "jax_explain_cache_misses": _Option("bool", False),
    "jax_check_tracer_leaks": _Option("bool", False),
    # Check every result for NaNs / infinities: FloatingPointError (float_checks.py).
    "jax_debug_nans": _Option("bool", False),
    "jax_debug_infs": _Option("bool", False),
    # Type-check every jaxpr a trace makes (jit and make_jaxpr).
    "jax_enable_checks": _Option("bool", False),
    # transpile's own name of the default platform; JAX 0.10 reads jax_platforms.
    "jax_platform_name": _Option("any", "", env=("TRANSPILE_PLATFORM",)),
    # Platforms in order of preference ("cuda,cpu"): the first is the default.
    "jax_platforms": _Option("str_or_none", None),
    # A CpuDevice, a CudaDevice, a platform name or None (see devices.py).
    "jax_default_device": _Option("any", None, env=()),
    "jax_default_prng_impl": _Option("any", "threefry2x32"),
    "jax_threefry_partitionable": _Option("bool", True),
    "jax_numpy_rank_promotion": _Option("enum", "allow", ("allow", "warn", "raise")),
    "jax_numpy_dtype_promotion": _Option("promotion", NumpyDtypePromotion.STANDARD),
    "jax_default_matmul_precision": _Option("enum_or_none", None, _MATMUL_PRECISIONS),
    # The disk cache of compiled libraries (backend/cache.py); None: TRANSPILE_CACHE_DIR
    # or ~/.cache/transpile.
    "jax_compilation_cache_dir": _Option("str_or_none", None),
    # transpile raises from the user's frames already; the value is kept for JAX's sake.
    "jax_traceback_filtering": _Option("enum", "auto", ("off", "tracebackhide",
                                                         "remove_frames",
                                                         "quiet_remove_frames", "auto")),
    "jax_pprint_use_color": _Option("bool", False, env=()),
    # Accepted for JAX's sake (config_flags.py): single-process, host-memory arrays make
    # transfers and key reuse unobservable; no_tracing is honoured by jit.
    "jax_debug_key_reuse": _Option("bool", False),
    "jax_legacy_prng_key": _Option("enum", "allow", ("allow", "warn", "error")),
    "jax_enable_custom_prng": _Option("bool", False),
    "jax_no_tracing": _Option("bool", False),
    # How many CpuDevices ``devices("cpu")`` lists (-1: one); fixed once devices exist.
    "jax_num_cpu_devices": _Option("int", -1),
    # transpile's own: a jitted function's first call may run on NumPy while its C is
    # compiled, where that gives the compiled code's bits (first_call.py).
    "transpile_interpret_first_call": _Option("bool", True,
                                              env=("TRANSPILE_INTERPRET_FIRST_CALL",)),
    **{f"jax_transfer_guard{k}": _Option("enum_or_none", None, _TRANSFER_GUARDS)
       for k in ("", "_host_to_device", "_device_to_device", "_device_to_host")},
}


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
                   "jax_platform_name", "jax_platforms", "jax_numpy_dtype_promotion",
                   "jax_debug_nans", "jax_debug_infs")

    def __init__(self) -> None:
        object.__setattr__(self, "_values", {name: opt.from_env(name)
                                             for name, opt in _OPTIONS.items()})
        # The options set by ``update`` (an explicit choice outranks the environment).
        object.__setattr__(self, "_updated", set())
        # Called with no arguments after every update (e.g. to switch eager checks).
        object.__setattr__(self, "_watchers", [])
        # Called with (name, new value) before an update is stored; may refuse it by
        # raising (devices.py refuses a new device count once devices exist).
        object.__setattr__(self, "_guards", {})
        self._refresh()

    def _refresh(self) -> None:
        # Cached: jit's fast path reads them on every call.
        v = self._values
        object.__setattr__(self, "_trace_key", tuple(v[k] for k in self._TRACE_KEYS))
        object.__setattr__(self, "_check_special",
                           bool(v["jax_debug_nans"]) or bool(v["jax_debug_infs"]))
        object.__setattr__(self, "_strict_promotion",
                           v["jax_numpy_dtype_promotion"] is NumpyDtypePromotion.STRICT)

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
        ValueError
            If the option does not take ``value`` (JAX's message).
        """
        if name not in self._values:
            raise AttributeError(f"Unrecognized config option: {name}")
        value = _OPTIONS[name].check(value)
        guard = self._guards.get(name)
        if guard is not None:
            guard(value)
        self._values[name] = value
        self._updated.add(name)
        self._refresh()
        for fn in self._watchers:
            fn()

    def read(self, name: str):
        """Return the value of option ``name``."""
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"Unrecognized config option: {name}") from None

    def __getattr__(self, name: str):
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"'Config' object has no attribute '{name}'") from None

    def __setattr__(self, name, value):
        raise AttributeError("use config.update(name, value)")

    def trace_context(self) -> tuple:
        """The option values that change traces, for use in cache keys."""
        return self._trace_key

    def was_updated(self, name: str) -> bool:
        """Whether ``update`` set ``name`` (rather than the environment or the default)."""
        return name in self._updated

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


def debug_nans(new_val: bool = True):
    """Context manager: ``jax_debug_nans`` inside the block."""
    return _override("jax_debug_nans", new_val)


def debug_infs(new_val: bool = True):
    """Context manager: ``jax_debug_infs`` inside the block."""
    return _override("jax_debug_infs", new_val)


def numpy_dtype_promotion(new_val: str):
    """Context manager: ``jax_numpy_dtype_promotion`` (``"standard"`` or ``"strict"``)
    inside the block."""
    return _override("jax_numpy_dtype_promotion", new_val)
