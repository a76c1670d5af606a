"""From a traced jaxpr to a loaded executable, and the ahead-of-time API around it.

``lower_jaxpr`` runs the optimisation passes, plans kernels and renders C (stages 3-5);
``compile_lowering`` builds and loads it (stages 6-7). ``Lowered`` and ``Compiled`` are
what ``jit(f).lower(*args)`` and ``.compile()`` return, as in ``jax.stages``.
"""
from __future__ import annotations

import logging
import re
import sys
import time
from dataclasses import dataclass


from . import core, monitoring, tree_util
from .abi import EntryABI
from .backend import build, compiler_info, load_entry
from .backend.cache import CACHE_VERSION, index_get, index_put
from .backend.load import Executable, host_value
from .backend.load_cuda import CudaExecutable
from .codegen.cost import cost_analysis
from .codegen.plan import plan_program
from .codegen.render import entry_abi, render_module
from .config import config
from .ir import ClosedJaxpr
from .passes import optimize
from .placement import require_cuda_device
from .resources import runtime_dir, templates_dir
from .tree_util import argument_paths as _leaf_paths
from .version import __version__

__all__ = ["Lowering", "lower_jaxpr", "compile_lowering", "compile_many", "executable_for",
           "cached_executable", "build_executable", "Prepared", "Lowered", "Compiled",
           "c_identifier"]

logger = logging.getLogger("transpile")


def _no_export(lowering, out_dir, name):
    raise RuntimeError("transpile.export is not imported (import transpile sets "
                       "stages.export_lowering)")


#: ``export.export_lowering``: exporting renders through templates of its own and sits
#: above this module (``export_c`` jits), so ``transpile.export`` sets this at import.
export_lowering = _no_export


def c_identifier(name: str) -> str:
    """``jit_<name>`` made a valid C identifier (never a libm name or keyword)."""
    return "jit_" + (re.sub(r"\W", "_", name) or "fn")


def _debug(stage: str) -> bool:
    import os
    return stage in os.environ.get("TRANSPILE_DEBUG", "").split(",")


class _Clock:
    """Seconds per stage of one compile, printed with ``TRANSPILE_DEBUG=time``."""

    def __init__(self):
        self.laps: list = []
        self.notes: list = []
        self.t = time.perf_counter()

    def lap(self, stage: str) -> None:
        now = time.perf_counter()
        self.laps.append((stage, now - self.t))
        self.t = now

    def report(self, name: str) -> None:
        if _debug("time"):
            total = sum(s for _, s in self.laps)
            parts = ", ".join(f"{k} {s:.3f}" for k, s in self.laps)
            print(f"--- time {name}: {total:.3f} s ({parts}){''.join(self.notes)} ---",
                  file=sys.stderr)


@dataclass
class Lowering:
    """The rendered C (or CUDA) of one (function, signature)."""
    name: str
    closed: ClosedJaxpr      # as traced
    optimized: ClosedJaxpr   # after the passes
    program: object          # codegen.plan.Program
    source: str
    cdef: str
    signature: str
    target: str = "c"        # "c" or "cuda"
    abi: EntryABI | None = None  # the entry point's ABI


def _signature_text(avals) -> str:
    return ", ".join(a.str_short() for a in avals)


def lower_jaxpr(closed: ClosedJaxpr, name: str, optimized: ClosedJaxpr | None = None,
                target: str = "c", clock: _Clock | None = None,
                text: str | None = None) -> Lowering:
    """Optimise, plan and render ``closed`` as the C entry point ``c_identifier(name)``
    (``target="cuda"``: CUDA C++ for nvcc; no GPU needed). ``clock`` records the time of
    each stage; ``text``: ``str(optimized)`` when the caller has it already."""
    cname = c_identifier(name)
    clock = clock or _Clock()
    if optimized is None:
        optimized = optimize(closed)
        clock.lap("passes")
    if _debug("ir"):
        print(f"--- ir {cname} ---\n{optimized}", file=sys.stderr)
    program = plan_program(optimized, cname, fuse_rows=target == "c")
    clock.lap("plan")
    if _debug("plan"):
        for k in program.kernels:
            print(f"--- plan {k.name} ({k.template}) ---\n{k.comment}", file=sys.stderr)
    if text is None:
        text = str(optimized)
    source, cdef = render_module([(program, text)], target=target)
    clock.lap("render")
    if _debug("source"):
        print(f"--- source {cname} ---\n{source}", file=sys.stderr)
    return Lowering(cname, closed, optimized, program, source, cdef,
                    _signature_text(closed.in_avals), target, entry_abi(program, target))


def compile_lowering(lowering: Lowering, device=None):
    """Build (or load from the disk cache) and wrap as an ``Executable`` (a
    ``CudaExecutable`` on ``device``, default GPU 0, for a CUDA lowering)."""
    if lowering.target == "cuda":
        return _compile_cuda(lowering, device)
    t0 = time.perf_counter()
    abi = lowering.abi
    lib = build(lowering.source, lowering.cdef, name=lowering.name,
                signature=lowering.signature, meta={"abi": abi.to_json()})
    _log_compile(lowering.name, lowering.signature, lib, t0)
    return Executable(lib, abi, [host_value(c) for c in lowering.optimized.consts],
                      lowering.closed.out_avals, lowering.program.host_callbacks)


def _compile_cuda(lowering: Lowering, device=None):
    device = require_cuda_device(device)  # a clear error without a GPU, before nvcc
    t0 = time.perf_counter()
    abi = lowering.abi
    lib = build(lowering.source, lowering.cdef, name=lowering.name,
                signature=lowering.signature, meta={"abi": abi.to_json()},
                target="cuda")
    _log_compile(lowering.name, lowering.signature, lib, t0)
    return CudaExecutable(lib, abi, [host_value(c) for c in lowering.optimized.consts],
                          lowering.closed.out_avals, device)


def _log_compile(name, signature, lib, t0) -> None:
    monitoring.record_event_duration_secs("/jax/core/compile/backend_compile_duration",
                                          time.perf_counter() - t0)
    if config.jax_log_compiles or _debug("compile"):
        how = "loaded from the disk cache" if lib.disk_hit else \
            f"compiled in {lib.seconds:.3f} s"
        logger.warning(f"Compiling {name} for signature ({signature}): {how} "
                       f"({time.perf_counter() - t0:.3f} s in all; disk cache hit: "
                       f"{lib.disk_hit})")


_CODE_DIGEST: list = []


def _code_digest() -> bytes:
    """A hash of everything that turns an optimised jaxpr into C: the code generator,
    its templates and the runtime headers."""
    if not _CODE_DIGEST:
        import hashlib
        from pathlib import Path

        h = hashlib.sha256()
        files = sorted(Path(__file__).parent.joinpath("codegen").glob("*.py"))
        files += sorted(templates_dir().rglob("*.j2")) + sorted(runtime_dir().glob("*.h"))
        for f in files:
            h.update(f.name.encode() + b"\0" + f.read_bytes())
        _CODE_DIGEST.append(h.digest())
    return _CODE_DIGEST[0]


def _fingerprint(optimized: ClosedJaxpr, cname: str, text: str | None = None) -> str:
    """What determines the generated C of ``optimized``: its text (types, literals,
    params; ``text`` when the caller printed it already), the entry name, the code
    generator and the compiler. Not the constants' values, which the C receives as
    arguments."""
    import hashlib

    info = compiler_info()
    h = hashlib.sha256()
    for part in (str(CACHE_VERSION), __version__, info.path, info.version,
                 "\0".join(info.flags), cname, str(optimized) if text is None else text):
        h.update(part.encode() + b"\0")
    h.update(_code_digest())
    return h.hexdigest()


@dataclass
class Prepared:
    """What ``cached_executable`` computed on the way to the disk cache, which
    ``build_executable`` goes on from."""
    optimized: ClosedJaxpr
    text: str
    fingerprint: str
    clock: _Clock
    t0: float


def executable_for(closed: ClosedJaxpr, name: str, device=None):
    """The ``Executable`` of ``closed``: from the disk cache through the lowering index
    when a previous process built it (no planning, no rendering, no compiler), else
    lowered, compiled and indexed. With a ``CudaDevice``, a ``CudaExecutable`` for it
    (planned and rendered each time; nvcc's output comes from the disk cache).
    """
    if device is not None and device.platform != "cpu":
        return compile_lowering(lower_jaxpr(closed, name, target="cuda"), device)
    exe, prepared = cached_executable(closed, name)
    return exe if exe is not None else build_executable(closed, name, prepared)


def cached_executable(closed: ClosedJaxpr, name: str):
    """``(executable, prepared)``: the C ``Executable`` of ``closed`` when the disk
    cache's lowering index has it (else None), and what ``build_executable`` needs."""
    t0 = time.perf_counter()
    clock = _Clock()
    optimized = optimize(closed)
    clock.lap("passes")
    text = str(optimized)
    fp = _fingerprint(optimized, c_identifier(name), text)
    key = index_get(fp)
    clock.lap("print+index")
    prepared = Prepared(optimized, text, fp, clock, t0)
    if key is not None:
        lib = load_entry(key)
        # (a program that calls back into Python needs its callbacks: it is planned)
        abi = _stored_abi(lib)
        if abi is not None and not abi.host:
            _log_compile(c_identifier(name), _signature_text(closed.in_avals), lib, t0)
            exe = Executable(lib, abi,
                             [host_value(c) for c in optimized.consts], closed.out_avals)
            clock.lap("load")
            clock.report(c_identifier(name))
            return exe, prepared
    return None, prepared


def build_executable(closed: ClosedJaxpr, name: str, prepared: Prepared):
    """Plan, render, compile, load and index ``closed`` (the disk cache's lowering
    index had no entry for it: ``cached_executable``)."""
    clock = prepared.clock
    exe = compile_lowering(lower_jaxpr(closed, name, prepared.optimized, clock=clock,
                                       text=prepared.text))
    index_put(prepared.fingerprint, exe.library.key)
    clock.lap("build+load")
    if not exe.library.disk_hit:
        clock.notes.append(f"; the C compiler {exe.library.seconds:.3f} s of build+load")
    clock.report(c_identifier(name))
    return exe


def _stored_abi(lib):
    """The entry ABI stored with a cached library, or None (none stored, or unreadable:
    the caller then plans and builds again)."""
    if lib is None or "abi" not in lib.meta:
        return None
    try:
        return EntryABI.from_json(lib.meta["abi"])
    except ValueError:
        return None


# ---------------------------------------------------------------------------------------
# Ahead-of-time API

def _check_args(fun, in_tree, in_avals, args, kwargs):
    leaves, tree = tree_util.tree_flatten((tuple(args), dict(kwargs)))
    if tree != in_tree:
        expected, _ = tree_util.tree_unflatten(in_tree, [None] * in_tree.num_leaves)
        detail = ""
        if len(expected) != len(args):
            detail = (f"\n    * at args, seen tuple of length {len(expected)} but now given "
                      f"tuple of length {len(args)}, so the lengths do not match")
        raise TypeError("Function compiled with input pytree does not match the input "
                        "pytree it was called with. There are 1 mismatches, including:"
                        + (detail or f"\n    * expected {in_tree}, got {tree}"))
    mismatches = []
    paths = None
    for i, (x, aval) in enumerate(zip(leaves, in_avals, strict=True)):
        got = core.get_aval(x)
        if got.shape != aval.shape or got.dtype != aval.dtype:
            if paths is None:
                paths = _leaf_paths(fun, args, kwargs)
            mismatches.append(f"Argument '{paths[i]}' compiled with {aval.str_long()} and "
                              f"called with {got.str_long()}")
    if mismatches:
        raise TypeError(
            "Argument types differ from the types for which this computation was compiled. "
            "Perhaps you are calling the compiled executable with a different enable_x64 "
            "mode than when it was AOT compiled? The mismatches are:\n"
            + "\n".join(mismatches))
    return leaves


class Lowered:
    """``jit(f).lower(*args)``: the generated C, ready to compile."""

    def __init__(self, lowering: Lowering, in_tree, out_tree, statics, fun):
        self._lowering = lowering
        self._fun = fun
        self.in_tree = in_tree
        self.out_tree = out_tree
        self._statics = statics

    def as_text(self, dialect: str | None = None) -> str:
        """The generated C source (CUDA C++ for ``jit(f, backend="cuda")``)."""
        return self._lowering.source

    @property
    def in_avals(self):
        return self._lowering.closed.in_avals

    @property
    def out_avals(self):
        return self._lowering.closed.out_avals

    def compile(self) -> "Compiled":
        """Build the shared library (or load it from the disk cache)."""
        return Compiled(self, compile_lowering(self._lowering))

    def export_c(self, out_dir=None, name: str = "f", force: bool = False):
        """Write this lowering as standalone C (``NAME.c``, ``NAME.h``, runtime headers,
        a Makefile, a CMakeLists.txt and an example) into ``out_dir`` (default: a new
        folder ``NAME``); ``force`` lets it replace files no export wrote.

        Returns
        -------
        export.ExportedC
        """
        return export_lowering(self._lowering, out_dir, name, force)

    def cost_analysis(self) -> dict:
        """Estimated ``flops`` and ``bytes accessed`` (see ``codegen.cost``)."""
        return cost_analysis(self._lowering.optimized)


class Compiled:
    """``jit(f).lower(*args).compile()``: a callable for exactly the lowered types."""

    def __init__(self, lowered: Lowered, executable):
        self._lowered = lowered
        self._executable = executable

    def as_text(self) -> str:
        """The C source, followed by the command that compiled it."""
        lib = self._executable.library
        return f"{self._lowered.as_text()}\n/* compiled with:\n   {lib.command}\n*/\n"

    def cost_analysis(self) -> dict:
        return self._lowered.cost_analysis()

    @property
    def in_tree(self):
        return self._lowered.in_tree

    @property
    def out_tree(self):
        return self._lowered.out_tree

    def __call__(self, *args, **kwargs):
        low = self._lowered
        if low._statics:
            nums = {k for k, _ in low._statics if isinstance(k, int)}
            names = {k for k, _ in low._statics if isinstance(k, str)}
            args = tuple(a for i, a in enumerate(args) if i not in nums)
            kwargs = {k: v for k, v in kwargs.items() if k not in names}
        leaves = _check_args(low._fun, low.in_tree, low.in_avals, args, kwargs)
        outs = self._executable(leaves)
        return tree_util.tree_unflatten(low.out_tree, outs)


def compile_many(named: list, device=None) -> list:
    """Compile several ``(name, ClosedJaxpr)`` into one library (one compiler call).

    Parameters
    ----------
    device : CudaDevice, optional
        Build CUDA for it (nvcc) instead of C.

    Returns
    -------
    list of Executable (CudaExecutable with a device)
        One per entry of ``named``, in order.
    """
    target = "c"
    if device is not None and device.platform != "cpu":
        device, target = require_cuda_device(device), "cuda"
    items = []
    for name, closed in named:
        opt = optimize(closed)
        items.append((closed, opt, plan_program(opt, c_identifier(name),
                                                fuse_rows=target == "c")))
    source, cdef = render_module([(p, str(opt)) for _, opt, p in items], target=target)
    lib = build(source, cdef, name="+".join(n for n, _ in named)[:60],
                signature=f"{len(named)} programs", target=target)
    if target == "cuda":
        return [CudaExecutable(lib, entry_abi(p, target),
                               [host_value(c) for c in opt.consts], closed.out_avals, device)
                for closed, opt, p in items]
    return [Executable(lib, entry_abi(p, target), [host_value(c) for c in opt.consts],
                       closed.out_avals, p.host_callbacks) for closed, opt, p in items]
