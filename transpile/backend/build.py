"""Stage 6, build: C source text → a loaded shared library.

Input: the C source of one translation unit and the cffi ``cdef`` of the functions it
exports. Output: a :class:`Library` whose ``lib`` calls them.

The source is compiled by the system C compiler straight into a shared library (cffi's
ABI mode: no ``Python.h``, no setuptools, no generated wrapper) and opened with
``cffi.FFI().dlopen``. That compiles about ten times faster than cffi's API mode for the
small files we generate, for a few tens of nanoseconds more per call
(``benchmarks/bench_cffi_modes.py`` measures both). Libraries are kept in the on-disk
cache of :mod:`transpile.backend.cache`, and each is opened once per process.
"""
from __future__ import annotations

import atexit
import ctypes
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
import warnings
import weakref
from dataclasses import dataclass, field
from pathlib import Path

import cffi

from . import cache, cache_trust, ffi_module, runtime_lib, split
from .cache import cache_dir, cache_key, entry_dir, key_lock, lib_filename, lookup
from .. import resources
from ..memory import cuda_runtime

__all__ = ["CompilerNotFoundError", "CompileError", "CompilerInfo", "compiler_info",
           "cuda_compiler_info", "compile_command", "Library", "build", "DEFAULT_FLAGS",
           "CUDA_FLAGS"]

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


@dataclass(eq=False)
class Library:
    """A loaded shared library.

    Attributes
    ----------
    ffi : cffi.FFI
        The FFI holding the cdef; use it for ``ffi.from_buffer``, ``ffi.cast``.
    lib : object
        The dlopen'ed library; its attributes are the cdef'd functions.
    path : str
        The library file in the cache.
    key : str
        The cache key.
    disk_hit : bool
        True when the library came from the disk cache without compiling.
    seconds : float
        Time spent compiling (0.0 on a disk hit).
    command : str
        The shell-quoted compile command (paths of the cache entry).
    meta : dict
        The metadata passed to ``build`` (recorded in the entry, returned on disk hits).
    """
    ffi: cffi.FFI
    lib: object
    path: str
    key: str
    disk_hit: bool
    seconds: float
    command: str
    meta: dict = field(default_factory=dict)


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
_BUILD_LOCK = threading.RLock()
# (cache dir, key) -> Library, while some Executable holds it
_LOADED: "weakref.WeakValueDictionary[tuple[str, str], Library]" = weakref.WeakValueDictionary()


def reset_locks() -> None:
    """Fresh locks, for a forked child: a lock another thread of the parent held at the
    fork would never be released there (see ``forking``)."""
    global _INFO_LOCK, _BUILD_LOCK
    _INFO_LOCK = threading.Lock()
    _BUILD_LOCK = threading.RLock()


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


_CDEF = "cdef.h"  # the cffi declarations, stored as text: nothing in the cache is Python


def _ffi_for(cdef: str):
    """An ABI-mode FFI declaring ``cdef``: its type table built directly for the usual
    entry shape (``ffi_module``: no C parsing on a first call), by cffi otherwise."""
    ffi = ffi_module.ffi_for_cdef(cdef)
    if ffi is None:
        ffi = cffi.FFI()
        ffi.cdef(cdef)
    return ffi


def load_entry(key: str) -> Library | None:
    """The library of the cache entry ``key`` when it is valid and loadable, else None;
    no source or cdef needed (the entry carries both, verified against ``key``)."""
    slot = (str(cache_dir()), key)
    found = _LOADED.get(slot)
    if found is None:
        found = _from_disk(key, compiler_info())
        if found is not None:
            _remember(slot, found)
    return found


def _from_disk(key: str, info: CompilerInfo) -> Library | None:
    """The library of a valid cache entry, or None (a corrupt entry is removed).

    Every file was checked by ``cache.lookup`` against the sha256 in ``meta.json``; here
    the source and cdef are checked against ``key`` itself (rehashed with ``info``), so
    an entry holding another function's files is rebuilt, never called.
    """
    path = lookup(key)
    if path is None:
        return None
    entry = path.parent
    try:
        cdef = (entry / _CDEF).read_text("utf-8")
        source = next((entry / f"source{s}").read_text("utf-8") for s in (".c", ".cu")
                      if (entry / f"source{s}").exists())
        if cache_key(source, info, extra=cdef) != key:
            raise ValueError("its source and cdef do not hash to its key")
        ffi = _ffi_for(cdef)
        record = json.loads((entry / "meta.json").read_text("utf-8"))
    except Exception as e:  # noqa: BLE001 - any damage: rebuild like any corrupt entry
        cache.remove_entry(key, f"it cannot be loaded: {e}")
        return None
    try:
        lib = ffi.dlopen(str(path))
        _pin_openmp_runtime()
    except OSError as e:
        cache.remove_entry(key, f"dlopen failed: {e}")
        return None
    return Library(ffi, lib, str(path), key, True, 0.0, record.get("command", ""),
                   record.get("meta", {}))


def _compile(source: str, cdef: str, key: str, info: CompilerInfo, name: str,
             signature: str, meta: dict | None, suffix: str = ".c") -> Library:
    """Compile into a staging directory, publish it as the entry for ``key``, load it.

    When the cache cannot take the entry (a full disk, a folder not safe to publish
    into), the library is built in a private temporary directory instead, with a
    warning, as when the cache directory itself cannot be written.
    """
    final = entry_dir(key)
    before, after = ([], []) if suffix != ".c" else \
        runtime_lib.link_arguments(info, source)
    command = shlex.join(compile_command(info, final / f"source{suffix}",
                                         final / lib_filename(), before, after))
    staged = None
    try:
        staged = cache.staging_dir()
        seconds, stderr = _compile_into(staged, source, cdef, key, info, name, signature,
                                        suffix, before, after)
        record = {"name": name, "signature": signature, "created": time.time(),
                  "compiler": {"path": info.path, "version": info.version},
                  "flags": list(info.flags), "command": command, "seconds": seconds,
                  "warnings": stderr, "meta": dict(meta or {})}
        path = cache.publish(key, staged, record)
    except OSError as e:
        private = Path(tempfile.mkdtemp(prefix="transpile-private-"))
        atexit.register(shutil.rmtree, private, True)
        warnings.warn(f"transpile: the library of {name!r} cannot be stored in the cache "
                      f"{str(cache_dir())!r} ({e}); it runs from a private temporary build "
                      f"in {str(private)!r}, which is not kept", RuntimeWarning, stacklevel=4)
        seconds, _ = _compile_into(private, source, cdef, key, info, name, signature,
                                   suffix, before, after)
        path = private / lib_filename()
    finally:
        if staged is not None:
            shutil.rmtree(staged, ignore_errors=True)  # gone already when published
    ffi = _ffi_for(cdef)
    try:
        lib = ffi.dlopen(str(path))
        _pin_openmp_runtime()
    except OSError as e:
        # Freshly built and still unloadable (a missing runtime library): rebuilding
        # would fail the same way, so report it instead of looping.
        cache.remove_entry(key)
        kept = _keep_failed(key, source, suffix)
        raise CompileError(f"the library built for {name!r} ({signature}) cannot be "
                           f"loaded: {e}\nsource kept at: {kept}\ncommand: {command}",
                           stderr=str(e), source_path=kept, command=command) from None
    return Library(ffi, lib, str(path), key, False, seconds, command, dict(meta or {}))


def _compile_into(folder: Path, source: str, cdef: str, key: str, info: CompilerInfo,
                  name: str, signature: str, suffix: str, before=(), after=()
                  ) -> tuple[float, str]:
    """Write the source and cdef into ``folder`` and compile the library there (a big
    C source as several translation units in parallel); returns the compile time and
    the compiler's warnings. ``before``/``after``: the precompiled runtime's arguments."""
    src = folder / f"source{suffix}"
    src.write_text(source, encoding="utf-8")
    (folder / _CDEF).write_text(cdef, encoding="utf-8")
    t0 = time.perf_counter()
    proc = _split_build(info, source, folder, before, after) if suffix == ".c" else None
    if proc is None or proc.returncode != 0:  # whole (a failed split: whole again)
        proc = _run(compile_command(info, src, folder / lib_filename(), before, after))
    seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        kept = _keep_failed(key, source, suffix)
        again = shlex.join(compile_command(info, kept, lib_filename(), before, after))
        # Point the diagnostics at the kept file: the staging one is about to go.
        stderr = (proc.stderr or proc.stdout).replace(str(src), str(kept)).strip()
        raise CompileError(
            f"{'CUDA' if suffix == '.cu' else 'C'} compilation of {name!r} ({signature}) "
            f"failed with exit status {proc.returncode}.\nsource kept at: {kept}\n"
            f"command: {again}\ncompiler output:\n{stderr}",
            stderr=stderr, source_path=kept, command=again)
    return seconds, proc.stderr.strip()


def _split_build(info: CompilerInfo, source: str, staged: Path, before, after):
    """Build a big source as several translation units in parallel (``split``); None
    when it is not worth it or not possible, else the outcome (a failure is rebuilt
    whole by the caller, whose diagnostics are then the ones reported)."""
    units = split.split_source(source, split.parts_for(source))
    if units is None:
        return None
    flags = [f for f in info.flags if f != "-shared"]
    code, stderr = split.compile_parts(
        lambda src, obj: [info.path, *flags, *before, "-c", str(src), "-o", str(obj)],
        units, staged,
        staged / lib_filename(),
        lambda objs, out: [info.path, *info.flags, *before, *map(str, objs), *after,
                           "-o", str(out), "-lm"])
    for part in staged.glob("part*"):
        part.unlink()
    return subprocess.CompletedProcess([], code, "", stderr)


def _keep_failed(key: str, source: str, suffix: str = ".c") -> Path:
    kept = cache_dir() / "failed" / f"{key}{suffix}"
    try:
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_text(source, encoding="utf-8")
    except OSError:  # a full disk: keep it where the temporary files go
        fd, name = tempfile.mkstemp(prefix="transpile-failed-", suffix=suffix)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(source)
        kept = Path(name)
    return kept


def build(source: str, cdef: str, *, name: str, signature: str,
          meta: dict | None = None, target: str = "c") -> Library:
    """Compile ``source`` (or find it in the cache) and load it.

    Parameters
    ----------
    source : str
        One C translation unit; it may ``#include`` the runtime headers.
    cdef : str
        The cffi declarations of the functions to call (part of the key).
    name : str
        The function's name, recorded for ``python -m transpile cache info``.
    signature : str
        A readable signature such as ``"f32[3,4], i32[]"``, recorded likewise.
    meta : dict, optional
        More JSON-able metadata to record with the entry.
    target : {"c", "cuda"}
        ``"cuda"``: ``source`` is CUDA C++, built by nvcc (:func:`cuda_compiler_info`).

    Returns
    -------
    Library
        The same object for the same key while anything uses it (opened once; a C
        library nothing uses any more is closed). A valid disk entry is loaded without
        running the compiler (``disk_hit=True``); otherwise the source is compiled under
        a per-key lock, so concurrent processes compile it once. When the entry cannot
        be published (a full disk), it is built privately, with a warning.

    Raises
    ------
    CompilerNotFoundError
        When no C compiler can be run.
    CompileError
        When the compiler fails; the message holds its output and the kept source's path.
    """
    info = cuda_compiler_info() if target == "cuda" else compiler_info()
    suffix = ".cu" if target == "cuda" else ".c"
    key = cache_key(source, info, extra=cdef)
    slot = (str(cache_dir()), key)
    found = _LOADED.get(slot)
    if found is not None:
        return found
    with _BUILD_LOCK:
        found = _LOADED.get(slot)
        if found is None:
            # Readers need no lock: published entries are complete by construction.
            found = _from_disk(key, info)
            if found is None:
                with key_lock(key):
                    # Another process may have published it while we waited.
                    found = _from_disk(key, info) or _compile(source, cdef, key, info, name,
                                                              signature, meta, suffix)
            _remember(slot, found, target)
        return found


def _remember(slot: tuple[str, str], library: Library, target: str = "c") -> None:
    """Share ``library`` while something uses it; a C library is closed (dlclose) once
    nothing does, so a cleared jit does not keep its code mapped. A CUDA library stays
    open: kernels may still be running asynchronously when its last user goes."""
    _LOADED[slot] = library
    if target == "c":
        # Not at exit: libraries stay mapped while the interpreter tears down, as objects
        # that point into them may still be finalised then.
        weakref.finalize(library, _dlclose, library.ffi, library.lib).atexit = False


#: The OpenMP runtimes a library built with -fopenmp may load (gcc's, clang's, Intel's).
_OPENMP_RUNTIMES = ("libgomp.so.1", "libomp.so", "libomp.so.5", "libiomp5.so")
_PINNED: list = []


def _pin_openmp_runtime() -> None:
    """Keep the OpenMP runtime our libraries loaded mapped for the life of the process.

    Its worker threads outlive every parallel region; when the last library that needs
    the runtime is closed (a cleared jit), the dynamic loader would unmap the runtime
    under those threads, which then crash. Reopening it with RTLD_NODELETE (and only if
    it is loaded already: RTLD_NOLOAD) pins it, once per process.
    """
    if _PINNED or not hasattr(os, "RTLD_NODELETE"):
        return
    for name in _OPENMP_RUNTIMES:
        try:
            _PINNED.append(ctypes.CDLL(name, mode=os.RTLD_NOLOAD | os.RTLD_NODELETE))
            return
        except OSError:   # not loaded (a library built without OpenMP, another runtime)
            continue


def _dlclose(ffi, lib) -> None:
    try:
        ffi.dlclose(lib)
    except Exception:  # noqa: BLE001 - closing at exit or twice must not raise
        pass
