"""``jax.debug.breakpoint``: stop in ``pdb`` with the caller's array values.

The caller's local arrays (and tracers) go through ``debug.callback``, so under
``jit``, ``vmap`` or ``grad`` the debugger opens when the compiled program reaches that
point, with their runtime values (one stop per call, per batch element under ``vmap``);
the caller's other locals are visible as they were when the function was traced.
Leave it with ``c`` (continue); the program then goes on.
"""
from __future__ import annotations

import pdb
import sys

from . import core
from .array import Array
from .callbacks import debug_callback

__all__ = ["breakpoint"]


def _enter(frame_globals, static_locals, names, stdin, stdout, *values):
    env = dict(static_locals)
    env.update(zip(names, values))
    debugger = pdb.Pdb(stdin=stdin, stdout=stdout)
    if stdin is not None:
        debugger.use_rawinput = False
    debugger.prompt = "(transpile-pdb) "
    # Start at an empty statement whose locals are the caller's (values in place of
    # tracers); ``c`` finishes it.
    debugger.run(compile("pass", "<transpile.debug.breakpoint>", "exec"),
                 dict(frame_globals), env)


def breakpoint(*, backend=None, filter_frames: bool = True, num_frames=None,  # noqa: A001
               ordered: bool = False, token=None, stdin=None, stdout=None, **kwargs):
    """Enter ``pdb`` at this point of the calling function, with its array locals'
    values (at run time under ``jit``).

    Parameters
    ----------
    backend, filter_frames, num_frames, token
        Accepted for compatibility (the debugger is always ``pdb``, on the calling
        frame only).
    ordered : bool
        Order with the other ordered effects.
    stdin, stdout : file objects, optional
        Where the debugger reads commands and writes (default: the terminal).

    Returns
    -------
    None, or ``token`` when one is given.
    """
    frame = sys._getframe(1)
    names, values, static = [], [], {}
    for k, v in frame.f_locals.items():
        if isinstance(v, (Array, core.Tracer)):
            names.append(k)
            values.append(v)
        else:
            static[k] = v
    debug_callback(lambda *vals: _enter(frame.f_globals, static, names, stdin, stdout,
                                        *vals), *values, ordered=ordered)
    return token
