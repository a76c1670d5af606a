"""JAX's configuration context managers beyond ``config.py``'s: each sets one option of
``config``'s table inside a ``with`` block (and restores it after), as
``jax.<name>(value)`` does.

What each option does here: ``enable_checks`` type-checks traced jaxprs;
``explain_cache_misses``/``log_compiles`` are honoured by ``jit`` (JAX's wording, at
WARNING level); ``numpy_rank_promotion`` by ``jnp``'s broadcasting; ``no_tracing``
makes a ``jit`` trace raise JAX's RuntimeError; ``threefry_partitionable=False`` and a
``default_prng_impl`` other than threefry2x32 make key creation raise (their streams
are not implemented). ``default_matmul_precision`` (float32 dots here are computed in
float32 whatever it says), ``check_tracer_leaks``, ``legacy_prng_key``,
``enable_custom_prng``, ``debug_key_reuse`` and the ``transfer_guard`` family are
accepted and validated as JAX validates them: with one process and host-memory arrays
the transfers they guard do not happen.
"""
from __future__ import annotations

import contextlib

from .config import _override

__all__ = ["default_matmul_precision", "enable_checks", "check_tracer_leaks",
           "checking_leaks", "debug_key_reuse", "numpy_rank_promotion",
           "threefry_partitionable", "transfer_guard", "transfer_guard_host_to_device",
           "transfer_guard_device_to_device", "transfer_guard_device_to_host",
           "log_compiles", "explain_cache_misses", "default_prng_impl", "legacy_prng_key",
           "enable_custom_prng", "no_tracing"]

_PRNG_IMPLS = ("threefry2x32", "threefry4x32", "rbg", "unsafe_rbg", "philox2x32",
               "philox4x32")


def _flag(option: str, doc: str):
    def manager(new_val=True):
        return _override(option, new_val)
    manager.__name__ = option.removeprefix("jax_")
    manager.__doc__ = (f"Context manager: ``{option}`` set to ``new_val`` inside the "
                       f"block ({doc}).\n\nParameters\n----------\nnew_val\n    The "
                       f"option's value inside the block.\n")
    return manager


default_matmul_precision = _flag("jax_default_matmul_precision",
                                 "the precision of dots given none")
enable_checks = _flag("jax_enable_checks", "type-check every traced jaxpr")
check_tracer_leaks = _flag("jax_check_tracer_leaks", "report tracers leaked by a trace")
checking_leaks = check_tracer_leaks
debug_key_reuse = _flag("jax_debug_key_reuse", "accepted; keys are not tracked")
numpy_rank_promotion = _flag("jax_numpy_rank_promotion",
                             "'allow', 'warn' or 'raise' on implicit rank promotion")
threefry_partitionable = _flag("jax_threefry_partitionable",
                               "the bits of threefry draws over a sharded shape")
log_compiles = _flag("jax_log_compiles", "log each trace and compile at WARNING level")
explain_cache_misses = _flag("jax_explain_cache_misses", "log why jit traced again")
enable_custom_prng = _flag("jax_enable_custom_prng", "accepted")
no_tracing = _flag("jax_no_tracing", "a jit trace raises RuntimeError")
legacy_prng_key = _flag("jax_legacy_prng_key", "'allow', 'warn' or 'error'")
transfer_guard_host_to_device = _flag("jax_transfer_guard_host_to_device", "accepted")
transfer_guard_device_to_device = _flag("jax_transfer_guard_device_to_device", "accepted")
transfer_guard_device_to_host = _flag("jax_transfer_guard_device_to_host", "accepted")


@contextlib.contextmanager
def transfer_guard(new_val):
    """Context manager: every ``jax_transfer_guard*`` option set to ``new_val`` inside
    the block (``"allow"``, ``"log"``, ``"disallow"``, ``"log_explicit"``,
    ``"disallow_explicit"`` or None)."""
    with contextlib.ExitStack() as stack:
        for k in ("", "_host_to_device", "_device_to_device", "_device_to_host"):
            stack.enter_context(_override(f"jax_transfer_guard{k}", new_val))
        yield


def default_prng_impl(new_val):
    """Context manager: ``jax_default_prng_impl`` inside the block.

    Raises
    ------
    ValueError
        For a name that is not one of JAX's PRNG implementations.
    """
    if new_val not in _PRNG_IMPLS:
        raise ValueError(f"new enum value must be in {list(_PRNG_IMPLS)}, got {new_val} of "
                         f"type {type(new_val)}.")
    return _override("jax_default_prng_impl", new_val)
