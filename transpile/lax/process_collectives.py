"""Collectives between the processes of a distributed run (``transpile.distributed``),
as primitives with all their rules.

* ``process_allreduce`` (``op``: ``"sum"``, ``"max"``, ``"min"``): every process gets
  the combination of every process's operand, combined in process order (process 0
  first, then 1, ...), so a sum is bit-identical to a single-process left fold of the
  same blocks in that order;
* ``process_allgather``: every process's operand stacked on a new leading axis, in
  process order;
* ``process_ppermute`` (``perm``: ``(source, destination)`` process pairs): each
  destination gets its source's operand, zeros where nothing arrives;
* ``process_alltoall`` (``axis``, ``axis_size``): ``axis`` is cut into ``axis_size``
  equal chunks, chunk ``j`` goes to process ``j``, and the chunks received are joined
  along ``axis`` in source order.

Each takes ``axis_size``, the number of processes it was traced for: a jaxpr says what it
was made for (a compiled program is keyed by its text), and running it in a run of
another size is an error.

The values travel through ``communicator``, a slot holding a ``SingleProcess`` (the
trivial case: one process) until ``distributed.initialize`` puts an MPI communicator
there. Compiled, they call MPI from C (``codegen/mpi_kernels.py``, ``runtime/tp_mpi.h``).

The equations are ``effectful``: every process must run the same collectives in the
same order, so no pass may fold, merge or drop one on one process only.

Differentiation treats a collective as the linear map over all processes' values: the
transpose of a sum-allreduce is a sum-allreduce of the cotangents, of a ppermute the
inverse ppermute, of an alltoall itself, of an allgather the sum over processes of
each process's slice (an alltoall and a sum). ``max``/``min`` spread the tangent over
the processes holding the extremum (their mean tangent).
"""
from __future__ import annotations

import numpy as np

from .. import core, dtypes
from ..core import ShapedArray
from ..interpreters import ad
from ..interpreters.batching import defvectorized, not_mapped, primitive_batchers
from .elementwise import convert_element_type, div_p, eq_p, select
from .reduction import reduce_sum_p

__all__ = ["process_allreduce_p", "process_allgather_p", "process_ppermute_p",
           "process_alltoall_p", "process_index_p", "process_allreduce", "process_allgather",
           "process_rank",
           "process_ppermute", "process_alltoall", "SingleProcess", "communicator",
           "set_communicator", "PRIMITIVES", "REDUCE_OPS"]

REDUCE_OPS = ("sum", "max", "min")


class SingleProcess:
    """The communicator of a run of one process: every collective is trivial.

    A communicator has ``rank`` and ``size`` and moves NumPy arrays:
    ``allgather(x)`` returns every process's ``x`` stacked on a new leading axis (process
    order), ``alltoall(x)`` takes ``x`` of leading axis ``size`` and returns the blocks
    received, stacked likewise, ``sendrecv(x, dest, source)`` sends ``x`` to ``dest``
    (None: nowhere) and returns what ``source`` sent (None: nothing expected).
    ``allreduce(x, op)`` combines every process's ``x`` in process order (``combine``
    of the allgather, or anything bit-identical to it). ``distributed`` provides the MPI
    one.
    """

    rank = 0
    size = 1

    def allgather(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(x)[None]

    def alltoall(self, x: np.ndarray) -> np.ndarray:
        return np.array(x, copy=True)

    def sendrecv(self, x: np.ndarray, dest, source):
        return np.array(x, copy=True) if source is not None else None

    def allreduce(self, x: np.ndarray, op: str) -> np.ndarray:
        return np.array(x, copy=True)


class _Slot:
    """Where the current communicator lives (``distributed`` fills it)."""

    comm = SingleProcess()


communicator = _Slot()


def set_communicator(comm) -> None:
    """Make ``comm`` (see ``SingleProcess``) the one every collective uses; None
    restores the single process."""
    communicator.comm = SingleProcess() if comm is None else comm


def _comm():
    return communicator.comm


# ---------------------------------------------------------------------------------------
# process_allreduce

process_allreduce_p = core.new_primitive("process_allreduce")
process_allreduce_p.effectful = True


@process_allreduce_p.def_abstract_eval
def _allreduce_abstract(x, *, op, axis_size):
    if op not in REDUCE_OPS:
        raise ValueError(f"process_allreduce: op must be one of {REDUCE_OPS}, got {op!r}")
    if op == "sum" and (x.dtype == np.bool_ or dtypes.is_key(x.dtype)):
        raise TypeError(f"process_allreduce: op 'sum' does not accept dtype {x.dtype.name}")
    return ShapedArray(x.shape, x.dtype, x.weak_type)


def combine(blocks, op: str) -> np.ndarray:
    """``blocks`` (leading axis: processes) combined by ``op`` in process order."""
    out = np.array(blocks[0], copy=True)
    fn = {"sum": np.add, "max": np.maximum, "min": np.minimum}[op]
    with np.errstate(over="ignore", invalid="ignore"):
        for b in blocks[1:]:
            out = fn(out, b).astype(out.dtype, copy=False)
    return out


@process_allreduce_p.def_impl
def _allreduce_impl(x, *, op, axis_size):
    _check_size("process_allreduce", axis_size, _comm())
    x = np.asarray(x)
    return _comm().allreduce(np.asarray(x, order="C"), op).reshape(x.shape)


def _allreduce_jvp(primals, tangents, *, op, axis_size):
    x, = primals
    t, = tangents
    out = process_allreduce_p.bind(x, op=op, axis_size=axis_size)
    if isinstance(t, ad.Zero):
        return out, ad.Zero(ad.tangent_aval(core.get_aval(out)))
    if op == "sum":
        return out, process_allreduce_p.bind(t, op="sum", axis_size=axis_size)
    # the mean tangent of the processes holding the extremum
    hit = eq_p.bind(x, out)
    t = ad.instantiate(t)
    picked = select(hit, t, ad.zeros_like_aval(core.get_aval(t)))
    count = process_allreduce_p.bind(convert_element_type(hit, core.get_aval(t).dtype),
                                     op="sum", axis_size=axis_size)
    return out, div_p.bind(process_allreduce_p.bind(picked, op="sum", axis_size=axis_size),
                           count)


def _allreduce_transpose(cts, x, *, op, axis_size):
    ct, = cts
    if op != "sum":
        raise NotImplementedError(f"process_allreduce with op {op!r} is not linear")
    if isinstance(ct, ad.Zero):
        return [None]
    return [process_allreduce_p.bind(ad.instantiate(ct), op="sum", axis_size=axis_size)]


ad.jvp_rules[process_allreduce_p] = _allreduce_jvp
ad.transpose_rules[process_allreduce_p] = _allreduce_transpose
defvectorized(process_allreduce_p)


# ---------------------------------------------------------------------------------------
# process_allgather

process_allgather_p = core.new_primitive("process_allgather")
process_allgather_p.cost = core.Cost.FREE
process_allgather_p.effectful = True


@process_allgather_p.def_abstract_eval
def _allgather_abstract(x, *, axis_size):
    return ShapedArray((axis_size,) + tuple(x.shape), x.dtype, x.weak_type)


@process_allgather_p.def_impl
def _allgather_impl(x, *, axis_size):
    comm = _comm()
    _check_size("process_allgather", axis_size, comm)
    return comm.allgather(np.asarray(x, order="C"))


def _allgather_transpose(ct, *, axis_size):
    # process p's cotangent: the sum over processes q of q's slice p
    mine = process_alltoall_p.bind(ct, axis=0, axis_size=axis_size)
    return [reduce_sum_p.bind(mine, axes=(0,), out_sharding=None)]


def _allgather_batch(vals, dims, *, axis_size):
    return process_allgather_p.bind(vals[0], axis_size=axis_size), dims[0] + 1


ad.deflinear(process_allgather_p, _allgather_transpose)
primitive_batchers[process_allgather_p] = _allgather_batch


# ---------------------------------------------------------------------------------------
# process_ppermute

process_ppermute_p = core.new_primitive("process_ppermute")
process_ppermute_p.cost = core.Cost.FREE
process_ppermute_p.effectful = True


def _check_perm(perm, size: int) -> None:
    srcs = [s for s, _ in perm]
    dsts = [d for _, d in perm]
    if len(set(srcs)) != len(srcs) or len(set(dsts)) != len(dsts):
        raise ValueError("process_ppermute sources and destinations must be unique, got "
                         f"{perm}.")
    for s, d in perm:
        if not (0 <= s < size and 0 <= d < size):
            raise ValueError(f"process_ppermute permutation {perm} names a process outside "
                             f"[0, {size}): there are {size} processes.")


@process_ppermute_p.def_abstract_eval
def _ppermute_abstract(x, *, perm, axis_size):
    _check_perm(perm, axis_size)
    return ShapedArray(x.shape, x.dtype, x.weak_type)


@process_ppermute_p.def_impl
def _ppermute_impl(x, *, perm, axis_size):
    comm = _comm()
    _check_size("process_ppermute", axis_size, comm)
    x = np.asarray(x, order="C")
    dest = next((d for s, d in perm if s == comm.rank), None)
    source = next((s for s, d in perm if d == comm.rank), None)
    got = comm.sendrecv(x, dest, source)
    return np.zeros_like(x) if got is None else np.asarray(got).reshape(x.shape)


def _ppermute_transpose(ct, *, perm, axis_size):
    return [process_ppermute_p.bind(ct, perm=tuple((d, s) for s, d in perm),
                                    axis_size=axis_size)]


ad.deflinear(process_ppermute_p, _ppermute_transpose)
defvectorized(process_ppermute_p)


# ---------------------------------------------------------------------------------------
# process_alltoall

process_alltoall_p = core.new_primitive("process_alltoall")
process_alltoall_p.cost = core.Cost.FREE
process_alltoall_p.effectful = True


@process_alltoall_p.def_abstract_eval
def _alltoall_abstract(x, *, axis, axis_size):
    if not 0 <= axis < len(x.shape):
        raise ValueError(f"process_alltoall: axis {axis} is out of bounds for an operand "
                         f"of rank {len(x.shape)}")
    if x.shape[axis] % axis_size:
        raise ValueError(f"process_alltoall: axis {axis} of size {x.shape[axis]} does not "
                         f"split into {axis_size} equal chunks (one per process)")
    return ShapedArray(x.shape, x.dtype, x.weak_type)


@process_alltoall_p.def_impl
def _alltoall_impl(x, *, axis, axis_size):
    comm = _comm()
    _check_size("process_alltoall", axis_size, comm)
    x = np.asarray(x)
    shape = x.shape
    # chunks on a leading axis, one per destination
    lead = np.moveaxis(x, axis, 0).reshape((axis_size, shape[axis] // axis_size)
                                           + shape[:axis] + shape[axis + 1:])
    got = comm.alltoall(np.asarray(lead, order="C"))
    got = got.reshape((shape[axis],) + shape[:axis] + shape[axis + 1:])
    return np.ascontiguousarray(np.moveaxis(got, 0, axis))


def _alltoall_batch(vals, dims, *, axis, axis_size):
    d = dims[0]
    axis = axis + 1 if d <= axis else axis
    return process_alltoall_p.bind(vals[0], axis=axis, axis_size=axis_size), d


ad.deflinear(process_alltoall_p, lambda ct, **params: [process_alltoall_p.bind(ct, **params)])
primitive_batchers[process_alltoall_p] = _alltoall_batch

# ---------------------------------------------------------------------------------------
# process_index: this process's index, read when the program runs (so that one compiled
# program, or one exported one, serves every process)

process_index_p = core.new_primitive("process_index")
process_index_p.effectful = True  # never folded into the index of the tracing process


@process_index_p.def_abstract_eval
def _index_abstract(*, axis_size):
    return ShapedArray((), np.dtype(np.int32))


@process_index_p.def_impl
def _index_impl(*, axis_size):
    comm = _comm()
    _check_size("process_index", axis_size, comm)
    return np.int32(comm.rank)


ad.defjvp_zero(process_index_p)
# no operand to batch: the same index for every member
primitive_batchers[process_index_p] = \
    lambda vals, dims, **params: (process_index_p.bind(**params), not_mapped)

#: every process collective, for codegen and the tests
PRIMITIVES = (process_allreduce_p, process_allgather_p, process_ppermute_p,
              process_alltoall_p, process_index_p)


def _check_size(name: str, axis_size: int, comm) -> None:
    if axis_size != comm.size:
        raise ValueError(f"{name}: traced for {axis_size} processes but the run has "
                         f"{comm.size}")


# ---------------------------------------------------------------------------------------
# The API

def process_allreduce(x, op: str = "sum"):
    """Combine ``x`` over every process of the run, in process order.

    Parameters
    ----------
    x : array_like
    op : {"sum", "max", "min"}

    Returns
    -------
    Array
        The same shape and dtype as ``x``, the same on every process.
    """
    return process_allreduce_p.bind(x, op=op, axis_size=_comm().size)


def process_rank():
    """This process's index in the run, as an int32 scalar read when the program runs
    (under ``jit``, a value of the compiled program, not a constant)."""
    return process_index_p.bind(axis_size=_comm().size)


def process_allgather(x):
    """Every process's ``x`` stacked on a new leading axis, in process order."""
    return process_allgather_p.bind(x, axis_size=_comm().size)


def process_ppermute(x, perm):
    """Send ``x`` along ``perm``, pairs ``(source, destination)`` of process indices;
    a process no pair sends to gets zeros."""
    perm = tuple((int(s), int(d)) for s, d in perm)
    return process_ppermute_p.bind(x, perm=perm, axis_size=_comm().size)


def process_alltoall(x, axis: int = 0):
    """Cut ``axis`` of ``x`` into one chunk per process, send chunk ``j`` to process
    ``j``, and join the chunks received along ``axis`` in source order."""
    nd = len(core.get_aval(x).shape)
    axis = int(axis)
    if -nd <= axis < 0:
        axis += nd
    return process_alltoall_p.bind(x, axis=axis, axis_size=_comm().size)

