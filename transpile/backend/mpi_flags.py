"""MPI's compile and link arguments for a library whose kernels call MPI (the process
collectives: ``runtime/tp_mpi.h``), asked once per process of the MPI compiler wrapper.

``mpicc`` (or ``$MPICC``) says them: Open MPI with ``--showme:compile`` and
``--showme:link``, MPICH with ``-compile_info``/``-link_info`` (whose first word, the
compiler, is dropped). They go on the command of the system compiler that builds the
library, and into its cache key: another MPI gives another library.
"""
from __future__ import annotations

import functools
import os
import shlex
import shutil
import subprocess

from .compilers import CompilerNotFoundError

__all__ = ["MPI_HEADER", "uses_mpi", "mpi_arguments", "mpicc"]

#: the runtime header a source that calls MPI includes
MPI_HEADER = '#include "tp_mpi.h"'


def uses_mpi(source: str) -> bool:
    """Whether ``source`` calls MPI (includes ``tp_mpi.h``)."""
    return MPI_HEADER in source


def mpicc() -> str | None:
    """The MPI C compiler wrapper: ``$MPICC``, else ``mpicc`` on the PATH."""
    return os.environ.get("MPICC") or shutil.which("mpicc")


def _ask(cc: str, *args) -> list | None:
    try:
        proc = subprocess.run([cc, *args], capture_output=True, text=True, timeout=60)
    except OSError:
        return None
    return shlex.split(proc.stdout) if proc.returncode == 0 and proc.stdout.strip() else None


@functools.lru_cache(maxsize=None)
def mpi_arguments() -> tuple[tuple, tuple]:
    """``(compile, link)`` arguments of the MPI library ``mpicc`` wraps.

    Raises
    ------
    CompilerNotFoundError
        When no MPI compiler wrapper is found or it answers neither way.
    """
    cc = mpicc()
    if cc is None:
        raise CompilerNotFoundError(
            "compiling a program with process collectives needs MPI's headers and "
            "library, found through the mpicc wrapper, which is not on the PATH (install "
            "Open MPI, e.g. apt-get install openmpi-bin libopenmpi-dev, or set $MPICC)")
    compile_, link = _ask(cc, "--showme:compile"), _ask(cc, "--showme:link")
    if compile_ is None or link is None:  # MPICH
        compile_, link = _ask(cc, "-compile_info"), _ask(cc, "-link_info")
        if compile_ is None or link is None:
            raise CompilerNotFoundError(f"{cc} does not tell its compile and link "
                                        "arguments (--showme:compile or -compile_info)")
        compile_, link = compile_[1:], link[1:]
        compile_ = [a for a in compile_ if a != "-c"]
    return tuple(compile_), tuple(link)
