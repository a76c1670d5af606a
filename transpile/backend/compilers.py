"""Stage 6, build: which compilers, with which flags (C and CUDA).

Input: the environment (``CC``, ``TRANSPILE_CFLAGS``, ``NVCC``, ``TRANSPILE_NVCCFLAGS``,
``TRANSPILE_CUDA_ARCH``, ``PATH``). Output: a :class:`CompilerInfo` (program, version,
flags) and the command lines that :mod:`transpile.backend.build` runs. A probe compile
tells which optional flags the C compiler takes; its answer is remembered in the disk
cache, so a fresh process that only loads cached libraries never starts the compiler.
"""
from __future__ import annotations

import errno
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from . import cache, cache_trust
from .cache import cache_dir
from .. import resources
from ..memory import cuda_runtime

__all__ = ["CompilerNotFoundError", "CompileError", "CompilerInfo", "compiler_info",
           "cuda_compiler_info", "cuda_arch", "compile_command", "DEFAULT_FLAGS",
           "CUDA_FLAGS", "reset_lock"]

#: Flags every library is built with, before probing drops what the compiler refuses.
#: No -ffast-math: NaN, infinities and signed zeros must behave as in NumPy. The two
#: -fno-* flags change no result: errno and floating-point traps are never observed, and
#: without them gcc will neither vectorise sqrt nor if-convert a select whose arms compute.
#: -pipe: the assembler reads the compiler's output as it comes, on another core, and no
#: temporary file is written (a small program's build: 71 ms -> 63 ms).
DEFAULT_FLAGS = ("-std=c99", "-O3", "-march=native", "-fno-math-errno",
                 "-fno-trapping-math", "-fopenmp", "-fPIC", "-shared", "-pipe",
                 "-Werror=implicit-function-declaration")
# Flags that some compilers refuse (clang without libomp, -march=native on some targets);
# they are dropped, in this order of preference, when a probe compile fails.
_OPTIONAL_FLAGS = (("-fopenmp",), ("-march=native",), ("-fopenmp", "-march=native"))
#: Flags kept where the compiler accepts them (gcc), which shorten builds without slowing
#: the code: no second, narrower vector copy of a loop for its last few iterations (gcc
#: compiled an inlined exp three times in every parallel loop; selu 512x512: 125 ms ->
#: 99 ms), the remainder of fewer than one vector's elements runs scalar.
_SPEED_FLAGS = ("--param=vect-epilogues-nomask=0",)
_PROBE_VERSION = 2  # 2: the record's "extra" (accepted _SPEED_FLAGS)
_PROBE_SOURCE = """\
#ifdef _OPENMP
#include <omp.h>
#endif
void transpile_probe(int n, float *x) {
#pragma omp parallel for
    for (int i = 0; i < n; i++) x[i] = 2.0f * x[i];
#ifdef _OPENMP
    (void)omp_get_max_threads();
#endif
}
"""


class CompilerNotFoundError(RuntimeError):
    """No C compiler could be run; the message says how to name one with ``CC``."""


class CompileError(RuntimeError):
    """The C compiler rejected a source, or its output could not be loaded.

    Attributes
    ----------
    stderr : str
        What the compiler (or the loader) printed.
    source_path : pathlib.Path or None
        Where the failing source was kept (``<cache>/failed/<key>.c``).
    command : str
        The compile command, shell-quoted.
    """

    def __init__(self, message: str, *, stderr: str = "", source_path: Path | None = None,
                 command: str = ""):
        super().__init__(message)
        self.stderr = stderr
        self.source_path = source_path
        self.command = command


@dataclass(frozen=True)
class CompilerInfo:
    """The compiler and the flags every library is built with.

    Attributes
    ----------
    path : str
        The compiler program, as found on ``PATH``.
    version : str
        The first line of ``<compiler> --version``.
    flags : tuple of str
        Extra arguments from ``CC``, the accepted default flags, ``-I<runtime dir>`` and
        then ``TRANSPILE_CFLAGS``.
    """
    path: str
    version: str
    flags: tuple[str, ...]


#: nvcc flags of every CUDA library. No contraction of a * b + c into one rounding
#: (--fmad=false): the optimiser already fused exactly the products XLA fuses (explicit
#: fma calls), so the GPU rounds as the C backend does; float32 subnormals flush to zero
#: as on the CPU backend. The library uses the shared CUDA runtime, the one Python
#: loads (memory/cuda_runtime.py), so both see the same allocations and streams.
CUDA_FLAGS = ("-std=c++17", "-O3", "--fmad=false", "-ftz=true", "-Xcompiler", "-fPIC",
              "--shared", "-cudart", "shared",
              # unused variables (a loop index a kernel does not read, the workspace of
              # an entry without temporaries) and `u < 0u` (the lt of unsigned
              # operands, faithfully), as the C build leaves them unreported
              "-diag-suppress=177,550,186")
#: The architecture compiled for when no GPU says which (an H100's).
DEFAULT_CUDA_ARCH = "sm_90"


_INFO_LOCK = threading.Lock()
_INFOS: dict[tuple[str, ...], CompilerInfo] = {}


def reset_lock() -> None:
    """A fresh lock, for a forked child (``build.reset_locks``)."""
    global _INFO_LOCK
    _INFO_LOCK = threading.Lock()


def _not_found(detail: str) -> CompilerNotFoundError:
    return CompilerNotFoundError(
        f"no C compiler found: {detail}; install a C compiler (gcc or clang) or set the CC "
        "environment variable to one, e.g. CC=gcc or CC=/usr/bin/clang")


def _resolve() -> tuple[str, list[str]]:
    """The compiler program and the extra arguments given with it in ``CC``."""
    cc = os.environ.get("CC", "").strip()
    if cc:
        argv = shlex.split(cc)
        prog = shutil.which(argv[0])
        if prog is None:
            raise _not_found(f"CC={cc!r} names {argv[0]!r}, which is not an executable "
                             "program")
        return prog, argv[1:]
    for name in ("cc", "gcc", "clang"):
        prog = shutil.which(name)
        if prog is not None:
            return prog, []
    raise _not_found("none of cc, gcc, clang is on PATH and CC is not set")


def _identity(prog: str, cc_args: list[str]) -> str:
    """A digest that changes when the compiler binary (or a wrapped one) changes."""
    h = hashlib.sha256()
    h.update(f"{_PROBE_VERSION}\0{prog}\0{shlex.join(cc_args)}\0{DEFAULT_FLAGS}".encode())
    # `ccache gcc`: the wrapped compiler is an argument, so stat every one that is a program.
    for tool in [prog] + [a for a in cc_args if not a.startswith("-")]:
        found = shutil.which(tool)
        if found is None:
            continue
        real = os.path.realpath(found)
        st = os.stat(real)
        h.update(f"\0{real}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}".encode())
    h.update(cache.host_target(DEFAULT_FLAGS).encode())
    return h.hexdigest()


#: Errors of starting a process that say nothing about the compiler: tried again. (A
#: spawn from a background thread was seen failing once with EFAULT in a test run.)
_TRANSIENT_SPAWN = (errno.EFAULT, errno.EAGAIN, errno.ENOMEM, errno.EINTR)


def _run(argv: list[str]) -> subprocess.CompletedProcess:
    for attempt in range(3):
        try:
            return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  stdin=subprocess.DEVNULL, encoding="utf-8",
                                  errors="replace", check=False)
        except (FileNotFoundError, PermissionError, NotADirectoryError) as e:
            raise _not_found(f"running {argv[0]!r} failed ({e})") from None
        except OSError as e:
            if e.errno not in _TRANSIENT_SPAWN or attempt == 2:
                raise
            time.sleep(0.05 * (attempt + 1))
    raise AssertionError("unreachable")


def _probe(prog: str, cc_args: list[str]) -> dict:
    """Ask the compiler its version and which optional flags it accepts."""
    out = _run([prog, *cc_args, "--version"])
    lines = (out.stdout or out.stderr).strip().splitlines()
    version = lines[0].strip() if lines else "unknown"
    with tempfile.TemporaryDirectory(prefix="transpile-probe-") as d:
        src = Path(d) / "probe.c"
        src.write_text(_PROBE_SOURCE, encoding="utf-8")
        for dropped in ((),) + _OPTIONAL_FLAGS:
            flags = [f for f in DEFAULT_FLAGS if f not in dropped]
            argv = [prog, *cc_args, *flags, str(src), "-o", str(Path(d) / "probe.so")]
            if _run(argv).returncode == 0:
                extra = [f for f in _SPEED_FLAGS if _run([*argv, f]).returncode == 0]
                return {"version": version, "dropped": list(dropped), "extra": extra}
    # Nothing compiled: keep every flag, so the real compile reports the real problem.
    return {"version": version, "dropped": [], "extra": []}


def _probe_remembered(prog: str, cc_args: list[str]) -> dict:
    # The probe costs a few compiler runs; remembering it on disk lets a fresh process
    # load cached libraries without starting the compiler at all.
    record_path = cache_dir() / "compilers" / f"{_identity(prog, cc_args)}.json"
    try:
        # (a record someone else could have written is ignored: it chooses the flags)
        if cache_trust.problem(os.lstat(record_path)) is None:
            record = json.loads(record_path.read_text(encoding="utf-8"))
            if isinstance(record, dict) and {"version", "dropped"} <= record.keys():
                return record
    except (OSError, ValueError):
        pass
    record = _probe(prog, cc_args)
    try:
        record_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = record_path.with_name(f"{record_path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(record), encoding="utf-8")
        cache_trust.seal(tmp)
        os.replace(tmp, record_path)
    except OSError:
        pass  # not remembering only costs a probe next time
    return record


def compiler_info() -> CompilerInfo:
    """The C compiler and flags to build with (probed once per process and remembered).

    ``CC`` (which may carry arguments, split as by a shell) chooses the compiler, else the
    first of ``cc``, ``gcc``, ``clang`` on ``PATH``. The flags are :data:`DEFAULT_FLAGS`,
    less ``-fopenmp`` and/or ``-march=native`` when a probe compile shows the compiler
    refuses them, then those of ``_SPEED_FLAGS`` it accepts, then ``-I<runtime dir>``,
    then ``TRANSPILE_CFLAGS`` (shell-split).

    Returns
    -------
    CompilerInfo

    Raises
    ------
    CompilerNotFoundError
        When no compiler can be found or run.
    """
    env = tuple(os.environ.get(v, "") for v in ("CC", "TRANSPILE_CFLAGS", "PATH"))
    with _INFO_LOCK:
        info = _INFOS.get(env)
        if info is not None:
            return info
        prog, cc_args = _resolve()
        record = _probe_remembered(prog, cc_args)
        flags = [*cc_args, *(f for f in DEFAULT_FLAGS if f not in record["dropped"]),
                 *(f for f in record.get("extra", ()) if f in _SPEED_FLAGS),
                 f"-I{resources.runtime_dir()}", *shlex.split(env[1])]
        info = _INFOS[env] = CompilerInfo(prog, record["version"], tuple(flags))
        return info


def _nvcc() -> str:
    """The nvcc program: ``NVCC``, else on ``PATH``, else under ``CUDA_HOME``/``CUDA_PATH``
    or ``/usr/local/cuda``."""
    named = os.environ.get("NVCC", "").strip()
    if named:
        found = shutil.which(named)
        if found is None:
            raise CompilerNotFoundError(f"NVCC={named!r} is not an executable program")
        return found
    found = shutil.which("nvcc")
    if found is not None:
        return found
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root and os.access(os.path.join(root, "bin", "nvcc"), os.X_OK):
            return os.path.join(root, "bin", "nvcc")
    raise CompilerNotFoundError(
        "no CUDA compiler found: nvcc is not on PATH (nor under CUDA_HOME, CUDA_PATH or "
        "/usr/local/cuda); install the CUDA toolkit or set NVCC to the nvcc program")


def cuda_arch() -> str:
    """The GPU architecture CUDA libraries are built for: ``TRANSPILE_CUDA_ARCH``, else
    that of GPU 0 when one is present, else ``sm_90``."""
    named = os.environ.get("TRANSPILE_CUDA_ARCH", "").strip()
    if named:
        return named
    if cuda_runtime.available():
        major, minor = cuda_runtime.compute_capability(0)
        return f"sm_{major}{minor}"
    return DEFAULT_CUDA_ARCH


def cuda_compiler_info(arch: str | None = None) -> CompilerInfo:
    """nvcc and the flags CUDA libraries are built with (:data:`CUDA_FLAGS`,
    ``-arch=<arch>``, an rpath to the CUDA runtime Python loads, ``-I<runtime dir>``,
    then ``TRANSPILE_NVCCFLAGS``).

    Parameters
    ----------
    arch : str, optional
        Such as ``"sm_90"``; default :func:`cuda_arch`.

    Raises
    ------
    CompilerNotFoundError
        When nvcc cannot be found or run.
    """
    arch = arch or cuda_arch()
    env = ("cuda", arch, os.environ.get("NVCC", ""),
           os.environ.get("TRANSPILE_NVCCFLAGS", ""), os.environ.get("PATH", ""))
    with _INFO_LOCK:
        info = _INFOS.get(env)
        if info is not None:
            return info
        prog = _nvcc()
        out = _run([prog, "--version"])
        lines = [ln.strip() for ln in (out.stdout or out.stderr).splitlines() if ln.strip()]
        version = " / ".join(lines[-2:]) if lines else "unknown"
        flags = [*CUDA_FLAGS, f"-arch={arch}"]
        cudart = cuda_runtime.cudart_path()
        if cudart:
            flags += ["-Xlinker", f"-rpath,{os.path.dirname(os.path.realpath(cudart))}"]
        flags += [f"-I{resources.runtime_dir()}", *shlex.split(env[3])]
        info = _INFOS[env] = CompilerInfo(prog, version, tuple(flags))
        return info


def compile_command(info: CompilerInfo, source: os.PathLike | str,
                    output: os.PathLike | str, before=(), after=()) -> list[str]:
    """The argument list that compiles ``source`` into the shared library ``output``
    (``before``/``after``: more arguments before and after the source, such as
    :func:`runtime_lib.link_arguments`)."""
    if str(source).endswith(".cu"):
        return [info.path, *info.flags, str(source), "-o", str(output)]
    # -lm after the source: libraries must follow the objects that need them.
    return [info.path, *info.flags, *before, str(source), *after, "-o", str(output), "-lm"]
