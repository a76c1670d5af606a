"""Several processes, one program: ``transpile.distributed`` (``jax.distributed``).

``initialize()`` in each process of an MPI launch (``mpirun -n 2 python train.py``,
``srun``) joins the run through mpi4py (``pip install 'transpile[mpi]'``, with an MPI
library such as Open MPI from the system's packages). From then on ``devices()`` lists
every process's CPU devices (process ``p``'s ids start at ``p * 2048``, JAX's numbering),
``process_index()``/``process_count()`` say where this process stands, and the process
collectives of ``lax.process_collectives`` exchange values over MPI, eagerly through
mpi4py and compiled through generated C that calls MPI (``runtime/tp_mpi.h``).

There is no coordinator service: MPI is the coordination. A launch that is not an MPI
one is detected by its environment (Open MPI's ``OMPI_COMM_WORLD_SIZE``, MPICH's and
Intel MPI's ``PMI_SIZE``, PMIx's ``PMIX_RANK``, Slurm's ``SLURM_NTASKS``).
"""
from __future__ import annotations

import os
from typing import Sequence

import numpy as np

# the device list and process record of devices.py (both mutated in place, never rebound)
from .devices import _cpu_devices, _process
from .lax import process_collectives

__all__ = ["initialize", "shutdown", "is_initialized", "MpiCommunicator",
           "mpi_launch_detected"]

#: Environment variables that say this process was started by an MPI launcher.
LAUNCH_VARIABLES = ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "SLURM_NTASKS")

#: dtypes whose sum over two processes is MPI_Allreduce's (MPI knows them; NumPy's sum of
#: two of them rounds once, as MPI's)
_PAIR_SUM_DTYPES = frozenset(np.dtype(t) for t in (
    np.float32, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
    np.uint32, np.uint64))

_INSTALL_HINT = ("transpile.distributed needs mpi4py to join an MPI run: "
                 "pip install 'transpile[mpi]' (and an MPI library, e.g. Open MPI: "
                 "apt-get install openmpi-bin libopenmpi-dev)")


class _State:
    initialized = False
    comm = None


_state = _State()


def mpi_launch_detected() -> bool:
    """Whether the environment says this process belongs to an MPI (or srun) launch."""
    return any(v in os.environ for v in LAUNCH_VARIABLES)


class MpiCommunicator:
    """The process collectives' communicator over an mpi4py communicator (the protocol
    of ``lax.process_collectives.SingleProcess``). Values travel as bytes: every dtype
    moves the same way."""

    def __init__(self, comm):
        self.comm = comm
        self.rank = comm.Get_rank()
        self.size = comm.Get_size()

    @staticmethod
    def _bytes(x: np.ndarray) -> np.ndarray:
        return np.asarray(x, order="C").reshape(-1).view(np.uint8)

    def allgather(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, order="C")
        out = np.empty((self.size,) + x.shape, x.dtype)
        self.comm.Allgather(self._bytes(x), self._bytes(out))
        return out

    def alltoall(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, order="C")
        out = np.empty_like(x)
        self.comm.Alltoall(self._bytes(x), self._bytes(out))
        return out

    def allreduce(self, x: np.ndarray, op: str) -> np.ndarray:
        x = np.asarray(x, order="C")
        if self.size == 2 and op == "sum" and x.dtype in _PAIR_SUM_DTYPES:
            # two operands add the same in either order: MPI's sum has the fold's bits
            out = np.empty_like(x)
            self.comm.Allreduce(x, out, op=_mpi().SUM)
            return out
        return process_collectives.combine(self.allgather(x), op)

    def sendrecv(self, x: np.ndarray, dest, source):
        mpi = _mpi()
        x = np.asarray(x, order="C")
        out = np.empty_like(x)
        self.comm.Sendrecv(self._bytes(x), dest=mpi.PROC_NULL if dest is None else dest,
                           recvbuf=self._bytes(out),
                           source=mpi.PROC_NULL if source is None else source)
        return None if source is None else out


def _mpi():
    try:
        from mpi4py import MPI
    except ImportError as e:
        raise ImportError(_INSTALL_HINT) from e
    return MPI


def initialize(coordinator_address: str | None = None, num_processes: int | None = None,
               process_id: int | None = None,
               local_device_ids: int | Sequence[int] | None = None,
               cluster_detection_method: str | None = None,
               initialization_timeout: int = 300, heartbeat_timeout_seconds: int = 100,
               shutdown_timeout_seconds: int = 300,
               coordinator_bind_address: str | None = None,
               slice_index: int | None = None, partition_index: int | None = None) -> None:
    """Join the processes of a distributed run (``jax.distributed.initialize``).

    Call it once per process, before anything creates devices or arrays. Under an MPI
    launch (``mpirun``/``mpiexec``/``srun``) every argument may be left out: MPI's
    ``COMM_WORLD`` gives the process count and this process's index.

    Parameters
    ----------
    coordinator_address : str, optional
        JAX's coordinator ``host:port``; accepted for compatibility and unused (MPI
        coordinates the processes).
    num_processes, process_id : int, optional
        When given, checked against MPI's size and rank. ``num_processes=1`` without an
        MPI launch makes a run of one process.
    local_device_ids : int or sequence of int, optional
        Accepted for compatibility; each process has ``jax_num_cpu_devices`` CPU devices.
    cluster_detection_method : str, optional
        ``None`` or ``"mpi4py"`` (JAX's name for this method); ``"deactivate"`` turns
        detection off, so only ``num_processes=1`` is accepted.
    initialization_timeout, heartbeat_timeout_seconds, shutdown_timeout_seconds, \
coordinator_bind_address, slice_index, partition_index
        JAX's, accepted and unused.

    Raises
    ------
    RuntimeError
        When called twice, or after devices were created.
    ValueError
        Without an MPI launch and without ``coordinator_address`` (JAX's error), or when
        ``num_processes``/``process_id`` disagree with MPI.
    ImportError
        Under an MPI launch without mpi4py (``pip install 'transpile[mpi]'``).
    NotImplementedError
        For a run of several processes that is not an MPI launch (no coordinator service).
    """
    if _state.initialized:
        raise RuntimeError("distributed.initialize should only be called once.")
    if _cpu_devices:
        raise RuntimeError(
            "jax.distributed.initialize() must be called before any JAX calls that might "
            "initialise the XLA backend. This includes any computation, but also calls to "
            "jax.devices, jax.device_put, and others.")
    if cluster_detection_method not in (None, "mpi4py", "deactivate"):
        raise ValueError(f"unknown cluster_detection_method {cluster_detection_method!r}: "
                         "transpile detects MPI launches only ('mpi4py')")
    detect = cluster_detection_method != "deactivate"
    if detect and (mpi_launch_detected() or cluster_detection_method == "mpi4py"):
        comm = MpiCommunicator(_mpi().COMM_WORLD)
        if num_processes is not None and num_processes != comm.size:
            raise ValueError(f"num_processes={num_processes} but the MPI run has "
                             f"{comm.size} processes")
        if process_id is not None and process_id != comm.rank:
            raise ValueError(f"process_id={process_id} but this is MPI rank {comm.rank}")
        _join(comm, comm.rank, comm.size)
        return
    if coordinator_address is None:
        raise ValueError("coordinator_address should be defined.")
    if num_processes == 1 and process_id in (None, 0):
        _join(None, 0, 1)
        return
    raise NotImplementedError(
        "transpile.distributed joins MPI launches only (mpirun, mpiexec, srun): start "
        "the processes with mpirun -n N python ...; a coordinator service at "
        f"{coordinator_address!r} is not implemented")


def _join(comm, index: int, count: int) -> None:
    _process.index = index
    _process.count = count
    process_collectives.set_communicator(comm)
    _state.comm = comm
    _state.initialized = True


def shutdown() -> None:
    """Leave the distributed run (``jax.distributed.shutdown``): the process collectives
    no longer communicate. MPI itself is finalised by mpi4py when the process exits.
    Devices stay as they are, as in JAX."""
    if _state.comm is not None:
        _state.comm.comm.Barrier()  # nobody leaves while another still sends to it
    process_collectives.set_communicator(None)
    _state.comm = None
    _state.initialized = False


def is_initialized() -> bool:
    """Whether ``initialize`` has been called (and ``shutdown`` not since)."""
    return _state.initialized
