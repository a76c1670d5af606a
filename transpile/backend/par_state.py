"""One adaptive-parallelism state for every library of the process (``runtime/tp_parallel.h``).

Each library's parallel regions judge whether a thread keeps waiting for a descheduled
peer and drop to one thread while the machine is busy. That is a fact about the machine,
so the judgement is kept once per process: right after a library is loaded, its exported
``tp_par_attach`` is pointed at the state below. A library loaded later then starts at
the width the others learnt, instead of paying for two stalled regions of its own first.
A library without OpenMP regions (or not built from our headers) has no such symbol and
keeps nothing.
"""
from __future__ import annotations

import ctypes

import _ctypes

#: Bytes of the shared state: ``sizeof(tp_par_state)`` is under 100; the library refuses a
#: state smaller than its own.
STATE_BYTES = 256
_STATE = ctypes.create_string_buffer(STATE_BYTES)  # zeroed: "not yet initialised"


def attach(path: str) -> bool:
    """Point the library at ``path`` (loaded already) at the process's state; whether it
    took it."""
    try:
        handle = ctypes.CDLL(path)  # the loaded library again: a reference, not a reload
    except OSError:
        return False
    try:
        fn = handle.tp_par_attach
    except AttributeError:
        taken = False
    else:
        fn.restype = ctypes.c_int
        fn.argtypes = (ctypes.c_void_p, ctypes.c_int64)
        taken = bool(fn(ctypes.addressof(_STATE), STATE_BYTES))
    # drop the reference taken above, so that closing the library unloads it
    dlclose = getattr(_ctypes, "dlclose", None)
    if dlclose is not None:
        dlclose(handle._handle)
    return taken
