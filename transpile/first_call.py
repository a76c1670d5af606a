"""A jitted function's first call without waiting for the C compiler.

A cold first call (nothing in the disk cache) spends most of its time in gcc: 60-80 ms
for the smallest program, where JAX's whole first call takes about as long. Where the
optimised jaxpr can be evaluated with exactly the bits its compiled code will produce,
the first call evaluates it on NumPy while the library is planned, rendered and
compiled on a worker thread; the second call waits for the library (if it is not
ready yet) and every later call runs it. Results, dtypes, weak types and errors are
those of the compiled code: only the time of the first call changes.

What "exactly the bits" takes, equation by equation (``_step``):

- primitives that only move data (reshape, transpose, slices, gathers, dynamic
  slices...), any dtype;
- elementwise primitives whose NumPy rules give the compiled kernels' bits
  (``lax.numpy_bits``), with a check that no two NaNs meet in one operation (which of
  them propagates can differ);
- the float transcendental functions, through the prebuilt library of
  ``eager_kernels``, written with the code generator's own C expressions, when that
  library is already on disk (it is built once per machine);
- float32 and float64 sums, which the compiled code accumulates in double in an order
  of its own: evaluated in float64 only when every partial sum in any order is exact
  (``_exact_sum``), so the order cannot matter;
- float32 and float64 ``dot_general``: the compiled kernel's own ``tp_gemm`` calls,
  made through the same prebuilt library (``_dot``);
- the PRNG's hashes (threefry: integer arithmetic on both sides).

Control flow: ``scan`` (its body's steps, iteration by iteration) and ``cond``/``switch``
(the branch the index names). Anything else (while loops, whose trip count is unknown,
sorts, scatters, callbacks...), or an evaluation expected to
cost more than the compile (``_worth_it``), takes the usual road: compile, then call.
A value the checks refuse at run time (``NotReproducible``) makes the first call wait
for the library too. ``config.transpile_interpret_first_call`` (environment variable
``TRANSPILE_INTERPRET_FIRST_CALL``) switches this off; ``jit(f).lower().compile()``
always compiles.
"""
from __future__ import annotations

import collections
import logging
import os
import sys
import threading
import time

import numpy as np

from . import core, dispatch, dtypes, eager_kernels, stages
from .array import Array
from .backend import compiler_info
from .backend.build import CompilerNotFoundError
from .backend.load import host_value
from .config import config
from .codegen import dot_plan
from .ir import ClosedJaxpr, Literal
from .lax import contraction, control_flow, numpy_bits, reduction

__all__ = ["executable_for", "FirstCall", "NotReproducible", "wait_for_compiles"]

_logger = logging.getLogger("transpile")
_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)

#: A cold compile's cost (seconds): a fixed part and a part per equation, as measured on
#: a 2-core Zen 3 (benchmarks/bench_compile.py); an evaluation dearer than it never pays.
COMPILE_BASE_S = 0.06
COMPILE_PER_EQN_S = 2.5e-4
#: An evaluation's cost (seconds): per equation, and per element by the road it takes.
EVAL_PER_EQN_S = 1.5e-5
_PER_ELEMENT_S = {"move": 1e-9, "free": 1e-9, "arith": 2e-9, "divide": 3e-9,
                  "transcendental": 3e-8, "hash": 1e-7, "library": 3e-9, "sum": 1e-8}
#: a matrix product's seconds per flop (about 30 GFLOP/s: small products, one thread)
_GEMM_S_PER_FLOP = 1 / 30e9


class NotReproducible(Exception):
    """The evaluation cannot promise the compiled code's bits for these values."""


# ---------------------------------------------------------------------------------------
# One step per equation

def _exact_sum(x, *, axes, **_):
    """``reduce_sum`` of float32/float64 as the compiled code computes it: a double
    accumulator, operands read under DAZ, the result stored under FTZ. Any order of the
    additions gives the same double when every partial sum is exact: the operands are
    all multiples of 2**q (q: the lowest set bit among them), so they are when the sum
    of their magnitudes stays below 2**(q + 53) (output by output) and no partial sum
    can be subnormal (q >= -1022)."""
    dt = x.dtype
    if not np.isfinite(x).all():
        raise NotReproducible("a non-finite operand of a sum")
    tiny = np.finfo(dt).tiny
    wide = x.astype(np.float64)
    mag = np.abs(wide)
    wide[mag < tiny] = 0.0          # DAZ: subnormal operands read as zero
    mag[mag < tiny] = 0.0
    rows = mag.sum(axis=axes)    # each output's bound on its partial sums
    if np.any(rows > 0):
        # each operand is an odd integer times 2**k: k from its lowest set bit
        frac, e = np.frexp(mag)
        ints = (frac * 2.0 ** 53).astype(np.int64)
        k = e.astype(np.int64) - 54 + np.frexp((ints & -ints).astype(np.float64))[1]
        q = np.where(mag > 0, k, 1 << 20).min(axis=axes)
        if np.any((rows > 0) & ((q < -1022) |
                                (rows * (1 + 2.0 ** -30) >= np.ldexp(1.0, q + 53)))):
            raise NotReproducible("a sum whose order would matter")
    total = wide.sum(axis=axes) + 0.0   # the accumulator starts at +0.0: no -0.0 sum
    out = total.astype(dt)
    return np.where(np.abs(out) < tiny, np.copysign(np.zeros((), dt), out), out)


def _nan_checked(impl):
    """``impl`` of an operation of several operands, refusing values where two NaNs
    meet (the compiled code and NumPy may propagate different ones)."""
    def run(*args, **params):
        out = impl(*args, **params)
        r = np.asarray(out)
        if r.dtype.kind == "f" and np.isnan(r).any():
            floats = [np.isnan(a) for a in args if np.asarray(a).dtype.kind == "f"]
            if len(floats) > 1 and (sum(m.astype(np.int8) for m in floats) > 1).any():
                raise NotReproducible("two NaNs meet in one operation")
        return out
    return run


def _library(kernel):
    def run(x, **_):
        return kernel(_contiguous(x))
    return run


def _dot(eqn):
    """``dot_general`` of float32/float64 as its compiled kernel computes it: the same
    ``tp_gemm`` calls (``codegen.dot_plan.gemm_layout``: sizes, strides, batch offsets,
    operands copied first where the kernel copies them) through the prebuilt library,
    whose products have the same bits whatever the number of threads."""
    lhs, rhs = (a.aval for a in eqn.invars)
    out = eqn.outvars[0].aval
    lay = dot_plan.gemm_layout(eqn.params, lhs, rhs, out)
    if not lay["gemm"]:
        return None
    gemm = eager_kernels.gemm_for(out.dtype)
    if gemm is None:
        _library_state["wanted"] = True
        return None
    M, N, K = lay["M"], lay["N"], lay["K"]

    def operand(x, view):
        x = _contiguous(x)
        plan = view["copy_plan"]
        if plan is not None:   # the kernel's copy, in [batch, rows, cols] order
            x = np.transpose(x, plan["order"])
        return np.ascontiguousarray(x).reshape(-1)

    def run(a, b, **_):
        a, b = operand(a, lay["a"]), operand(b, lay["b"])
        c = np.empty(max(lay["B"] * M * N, 1), out.dtype)
        for bi in range(lay["B"]):
            offs = []
            for side, view in (("a", lay["a"]), ("b", lay["b"])):
                if view["copy_plan"] is not None:
                    offs.append(bi * view["batch_block"])
                else:
                    offs.append(sum(((bi // div) % n) * st
                                    for div, st, n in lay["batch_terms"][side]))
            gemm(M, N, K, a, offs[0], lay["a"]["rs"], lay["a"]["cs"], b, offs[1],
                 lay["b"]["rs"], lay["b"]["cs"], c, bi * M * N)
        return c[:lay["B"] * M * N].reshape(out.shape)
    return run, 2.0 * M * N * K * lay["B"] * _GEMM_S_PER_FLOP


def _steps(jaxpr):
    """``(steps, seconds)`` for the equations of ``jaxpr`` (an inner jaxpr of control
    flow), or None when one has no step."""
    steps, costs = [], []
    for eqn in jaxpr.eqns:
        step = _step(eqn)
        if step is None:
            return None
        steps.append(step[0])
        costs.append(step[1])
    return steps, _seconds(jaxpr, costs)


def _scan(eqn):
    """``scan`` as its compiled loop runs it: the body's equations, each with its
    compiled bits, once per iteration in order (reversed when ``reverse``)."""
    p = eqn.params
    body = p["jaxpr"]
    inner = _steps(body.jaxpr)
    if inner is None:
        return None
    steps, seconds = inner
    length, reverse = p["length"], p["reverse"]
    n_consts, n_carry = p["num_consts"], p["num_carry"]
    y_avals = [v.aval for v in eqn.outvars[n_carry:]]

    def run(*args, **_):
        consts, carry = list(args[:n_consts]), list(args[n_consts:n_consts + n_carry])
        xs = args[n_consts + n_carry:]
        ys = [np.empty(a.shape, a.dtype) for a in y_avals]
        for i in (range(length - 1, -1, -1) if reverse else range(length)):
            outs = _run(body.jaxpr, body.consts, steps, [*consts, *carry, *[x[i] for x in xs]])
            carry = outs[:n_carry]
            for y, o in zip(ys, outs[n_carry:], strict=True):
                y[i] = o
        return [*carry, *ys]
    return run, float(length) * seconds


def _cond(eqn):
    """``cond``/``switch``: the branch its (clamped) index names, each branch's
    equations with their compiled bits."""
    branches = eqn.params["branches"]
    planned = [_steps(b.jaxpr) for b in branches]
    if any(p is None for p in planned):
        return None

    def run(index, *args, **_):
        i = min(max(int(index), 0), len(branches) - 1)
        return _run(branches[i].jaxpr, branches[i].consts, planned[i][0], list(args))
    return run, max(p[1] for p in planned)


def _plain_dtype(dt) -> bool:
    dt = np.dtype(dt)
    if dtypes.is_small_float(dt) or dtypes.is_narrow_int(dt):   # float8, int4: no
        return dtypes.half_name(dt) in ("f16", "bf16")
    return dt.kind in "biuf" or dtypes.half_name(dt) == "bf16"


#: the primitives whose operands or results may be PRNG keys here
_KEYED = numpy_bits.PRNG | numpy_bits.MOVES


def _step(eqn):
    """``(fn, cost class)`` computing the equation's compiled bits from NumPy operands,
    or None."""
    prim, params = eqn.primitive, eqn.params
    avals = [a.aval for a in eqn.invars]
    if prim is control_flow.scan_p:
        return _scan(eqn)
    if prim is control_flow.cond_p:
        return _cond(eqn)
    if prim.multiple_results or prim.effectful or not all(
            _plain_dtype(a.dtype) or (dtypes.is_key(a.dtype) and prim in _KEYED)
            for a in (*avals, *(v.aval for v in eqn.outvars))):
        return None
    if numpy_bits.moves_data(prim):
        return prim.impl, "move"
    if prim in numpy_bits.PRNG:
        return prim.impl, "hash"
    if prim is contraction.dot_general_p:
        return _dot(eqn)
    if len(avals) == 1 and not params and \
            (prim, np.dtype(avals[0].dtype)) in eager_kernels.KERNELS:
        kernel = eager_kernels.kernel_for(prim, avals[0].dtype)
        if kernel is not None:
            return _library(kernel), "library"
        _library_state["wanted"] = True
    if prim is reduction.reduce_sum_p and avals[0].dtype in (_F32, _F64):
        return _exact_sum, "sum"
    dts = numpy_bits.ELEMENTWISE.get(prim)
    if dts is None or not avals or np.dtype(avals[-1].dtype) not in dts:
        return None
    if len(avals) > 1 and prim not in numpy_bits.REDUCTIONS:
        return _nan_checked(prim.impl), prim.cost
    return prim.impl, prim.cost


def _seconds(jaxpr, costs) -> float:
    """The expected seconds of evaluating ``jaxpr`` (a cost is a class of
    ``_PER_ELEMENT_S`` or the equation's seconds)."""
    return EVAL_PER_EQN_S * len(jaxpr.eqns) + sum(
        c if isinstance(c, float) else
        _PER_ELEMENT_S.get(c, 3e-8) * sum(v.aval.size for v in e.outvars)
        for e, c in zip(jaxpr.eqns, costs, strict=True))


def _worth_it(jaxpr, costs) -> bool:
    """Whether the evaluation is expected to cost less than the compile."""
    return _seconds(jaxpr, costs) < COMPILE_BASE_S + COMPILE_PER_EQN_S * len(jaxpr.eqns)


def plan(optimized: ClosedJaxpr):
    """Per equation of ``optimized`` the function computing its compiled bits, or None
    when some equation has none or the evaluation would not pay."""
    jaxpr = optimized.jaxpr
    if any(dtypes.is_key(a.dtype) for a in optimized.out_avals):
        return None   # (a key result is wrapped by the compiled entry's own rules)
    if not eager_kernels.loaded() and not _library_state.get("looked"):
        eager_kernels.load(compile_missing=False)   # from disk, or not at all
        _library_state["looked"] = True
    steps = []
    for eqn in jaxpr.eqns:
        step = _step(eqn)
        if step is None:
            return None
        steps.append(step)
    if not _worth_it(jaxpr, [c for _, c in steps]):
        return None
    return [fn for fn, _ in steps]


def evaluate(optimized: ClosedJaxpr, steps, leaves) -> list:
    """The outputs of ``optimized`` on ``leaves`` as ``Array``s (``NotReproducible``
    when the checks refuse the values)."""
    jaxpr = optimized.jaxpr
    # An Array's value never changes; anything else is the caller's buffer, which a
    # result (a reshape's view) must not share
    args = [x._value if isinstance(x, Array) else np.array(core.to_numpy(x, v.aval),
                                                            copy=True)
            for v, x in zip(jaxpr.invars, leaves, strict=True)]
    with np.errstate(all="ignore"):
        outs = _run(jaxpr, optimized.consts, steps, args)
    return [Array._new(_contiguous(o), aval.weak_type)
            for o, aval in zip(outs, optimized.out_avals, strict=True)]


def _run(jaxpr, consts, steps, args) -> list:
    """``jaxpr``'s outputs (NumPy arrays) from its equations' ``steps``."""
    env: dict = {}

    def read(a):
        return np.asarray(a.val, a.aval.dtype) if isinstance(a, Literal) else env[a]

    for v, c in zip(jaxpr.constvars, consts, strict=True):
        env[v] = core.to_numpy(host_value(c), v.aval)
    for v, x in zip(jaxpr.invars, args, strict=True):
        env[v] = x
    for eqn, fn in zip(jaxpr.eqns, steps, strict=True):
        out = fn(*[read(a) for a in eqn.invars], **eqn.params)
        outs = out if len(eqn.outvars) > 1 or eqn.primitive.multiple_results else [out]
        for v, o in zip(eqn.outvars, outs, strict=True):
            aval = v.aval
            if type(o) is not np.ndarray or o.dtype != aval.dtype or o.shape != aval.shape:
                o = np.asarray(o, aval.dtype).reshape(aval.shape)
            env[v] = o
    return [read(a) for a in jaxpr.outvars]


def _contiguous(x: np.ndarray) -> np.ndarray:
    # (np.ascontiguousarray would make a 0-d array 1-d)
    return x if x.flags.c_contiguous else np.array(x, order="C")


# ---------------------------------------------------------------------------------------
# The executable that answers the first call, and the worker that compiles

class FirstCall:
    """Stands in for the ``Executable`` of ``closed`` while it is compiled: the first
    call is evaluated (``evaluate``), later ones wait for the library."""

    def __init__(self, closed: ClosedJaxpr, name: str, prepared, steps):
        self._closed, self._name, self._prepared, self._steps = closed, name, prepared, steps
        self._done = threading.Event()
        self._exe = self._error = None
        self._pid = os.getpid()
        #: whether the call that evaluates is still to come
        self.fresh = True
        self._submitted = False

    def _compile(self) -> None:
        try:
            self._exe = stages.build_executable(self._closed, self._name, self._prepared)
        except BaseException as e:  # noqa: BLE001 - raised again by the call that waits
            self._error = e
        finally:
            self._done.set()

    def _submit(self) -> None:
        if not self._submitted:
            self._submitted = True
            _submit(self)

    def ready(self) -> bool:
        """Whether the library is built (or failed to build)."""
        return self._done.is_set()

    def finished(self):
        """The compiled ``Executable``, once built (waits), or the compile's error."""
        self._submit()
        if not self._done.is_set() and os.getpid() != self._pid:
            self._compile()   # a forked child: the parent's worker is not here
        self._done.wait()
        if self._error is not None:
            raise self._error
        return self._exe

    def __call__(self, leaves) -> list:
        if self.fresh:
            self.fresh = False
            t0 = time.perf_counter()
            try:
                outs = evaluate(self._prepared.optimized, self._steps, leaves)
            except NotReproducible as e:
                _logger.debug("first call of %s waits for its library: %s", self._name, e)
            else:
                # The compile starts after the evaluation: its planning and rendering
                # would take the interpreter lock from it, and it is short by design
                self._submit()
                if stages._debug("time"):
                    print(f"--- first call of {stages.c_identifier(self._name)} on NumPy: "
                          f"{time.perf_counter() - t0:.3f} s ---", file=sys.stderr)
                return outs
        return self.finished()(leaves)


_queue: "collections.deque[FirstCall]" = collections.deque()
_lock = threading.Lock()
_worker: list = []


def _submit(first: FirstCall) -> None:
    with _lock:
        _queue.append(first)
        if not _worker:
            # Not a daemon: the interpreter's exit waits for the compile, which leaves a
            # complete disk-cache entry for the next process rather than gcc's pieces.
            t = threading.Thread(target=_work, name="transpile-first-call-builds")
            _worker.append(t)
            t.start()


#: "looked": the library was looked for on disk; "wanted": a first call needed it
_library_state: dict = {}


def _work() -> None:
    while True:
        with _lock:
            if not _queue:
                _worker.clear()
                break
            first = _queue.popleft()
        first._compile()
    if _library_state.pop("wanted", False) and not eager_kernels.loaded():
        # Built once per machine, after the programs (builds take turns): on dispatch's
        # daemon worker, which an exit does not wait for
        dispatch.request_prebuilt()


def wait_for_compiles() -> None:
    """Return once every compile started for a first call has finished."""
    with _lock:
        pending = list(_queue)
        worker = _worker[0] if _worker else None
    if worker is not None:
        worker.join()
    for first in pending:
        first._done.wait()


def _forget_worker() -> None:
    # A forked child has no worker thread: the next submit starts one there
    global _lock
    _lock = threading.Lock()
    _worker.clear()
    _queue.clear()


os.register_at_fork(after_in_child=_forget_worker)


def executable_for(closed: ClosedJaxpr, name: str):
    """The ``Executable`` of ``closed`` from the disk cache, else a ``FirstCall`` when
    the first call can be evaluated with the compiled bits, else a compiled one."""
    exe, prepared = stages.cached_executable(closed, name)
    if exe is not None:
        return exe
    if config.transpile_interpret_first_call and not config.jax_disable_jit and \
            _have_compiler():
        steps = plan(prepared.optimized)
        if steps is not None:
            return FirstCall(closed, name, prepared, steps)
    return stages.build_executable(closed, name, prepared)


def _have_compiler() -> bool:
    # Without one the first call raises CompilerNotFoundError as before, not the second
    try:
        compiler_info()
    except CompilerNotFoundError:
        return False
    return True
