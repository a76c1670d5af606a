"""What a process forked after transpile ran (``os.fork``, multiprocessing's default start
method on Linux) needs to keep working.

The child has only the thread that forked. Two things the parent's other threads held
would then wait forever: a lock taken while another thread compiled (the child never
sees it released), and OpenMP's thread pool, whose workers did not survive the fork
(libgomp then blocks at the first parallel region). An ``os.register_at_fork`` handler
gives the child fresh locks and makes OpenMP run one thread in the forking thread, as
JAX's advice for forked children amounts to; threads the child starts later make their
own pools and run in parallel again. A warning says so, once per child.
"""
from __future__ import annotations

import ctypes
import os
import warnings

from .build import reset_locks

__all__ = ["after_fork_in_child", "FORK_WARNING"]

FORK_WARNING = ("transpile: this process was forked after compiled code was loaded; "
                "compiled functions run on one thread in its forking thread (OpenMP's "
                "worker threads do not survive os.fork). Use the 'spawn' or 'forkserver' "
                "start method of multiprocessing to keep them parallel.")
_OPENMP_LIBRARIES = ("libgomp.so.1", "libomp.so", "libomp.so.5", "libiomp5.so")
_warned = []


def _openmp_single_thread() -> bool:
    """One OpenMP thread in this thread, where an OpenMP runtime is loaded; whether one
    was."""
    found = False
    for name in _OPENMP_LIBRARIES:
        try:  # RTLD_NOLOAD: only a runtime the parent already loaded
            lib = ctypes.CDLL(name, mode=os.RTLD_NOLOAD | ctypes.RTLD_GLOBAL)
        except OSError:
            continue
        lib.omp_set_num_threads(1)
        found = True
    return found


def after_fork_in_child() -> None:
    """Reset what the child cannot inherit (see the module docstring)."""
    reset_locks()
    if _openmp_single_thread() and not _warned:
        _warned.append(True)
        warnings.warn(FORK_WARNING, RuntimeWarning, stacklevel=2)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=after_fork_in_child)
