"""Stage 6, build: C source text → a loaded shared library.

Input: the C source of one translation unit and the cffi ``cdef`` of the functions it
exports. Output: a :class:`Library` whose ``lib`` calls them.

The source is compiled by the system C compiler straight into a shared library (cffi's
ABI mode: no ``Python.h``, no setuptools, no generated wrapper) and opened with
``cffi.FFI().dlopen``. That compiles about ten times faster than cffi's API mode for the
small files we generate, for a few tens of nanoseconds more per call
(``benchmarks/bench_cffi_modes.py`` measures both). Libraries are kept in the on-disk
cache of :mod:`transpile.backend.cache`, and each is opened once per process. Which
compiler, with which flags, is :mod:`transpile.backend.compilers`'s question.
"""
from __future__ import annotations

import atexit
import ctypes
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

from . import cache, compilers, ffi_module, mpi_flags, par_state, runtime_lib, split
from .cache import cache_dir, cache_key, entry_dir, key_lock, lib_filename, lookup
# what compilers.py defines, re-exported: callers name them from here
from .compilers import (CUDA_FLAGS, DEFAULT_FLAGS, CompileError, CompilerInfo,  # noqa: F401
                        CompilerNotFoundError, _SPEED_FLAGS, _nvcc, _run, compile_command,
                        compiler_info, cuda_arch, cuda_compiler_info)

__all__ = ["CompilerNotFoundError", "CompileError", "CompilerInfo", "compiler_info",
           "cuda_compiler_info", "compile_command", "Library", "build", "DEFAULT_FLAGS",
           "CUDA_FLAGS"]

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




_BUILD_LOCK = threading.RLock()
# (cache dir, key) -> Library, while some Executable holds it
_LOADED: "weakref.WeakValueDictionary[tuple[str, str], Library]" = weakref.WeakValueDictionary()


def reset_locks() -> None:
    """Fresh locks, for a forked child: a lock another thread of the parent held at the
    fork would never be released there (see ``forking``)."""
    global _BUILD_LOCK
    compilers.reset_lock()
    _BUILD_LOCK = threading.RLock()


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
        if _key(source, info, cdef) != key:
            raise ValueError("its source and cdef do not hash to its key")
        ffi = _ffi_for(cdef)
        record = json.loads((entry / "meta.json").read_text("utf-8"))
    except Exception as e:  # noqa: BLE001 - any damage: rebuild like any corrupt entry
        cache.remove_entry(key, f"it cannot be loaded: {e}")
        return None
    try:
        lib = ffi.dlopen(str(path))
        _pin_openmp_runtime()
        par_state.attach(str(path))
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
    if mpi_flags.uses_mpi(source):
        mpi_compile, mpi_link = mpi_flags.mpi_arguments()
        before, after = [*before, *mpi_compile], [*after, *mpi_link]
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
        par_state.attach(str(path))
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
          meta: dict | None = None, target: str = "c",
          compile_missing: bool = True) -> Library | None:
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
    compile_missing : bool
        False: return None rather than run the compiler when the library is in neither
        this process nor the disk cache.

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
    key = _key(source, info, cdef)
    slot = (str(cache_dir()), key)
    found = _LOADED.get(slot)
    if found is not None:
        return found
    if not compile_missing:
        # Without the lock, which a compile on another thread holds for seconds:
        # readers need none, published entries are complete by construction.
        found = _from_disk(key, info)
        if found is not None:
            _remember(slot, found, target)
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


def _key(source: str, info: CompilerInfo, cdef: str) -> str:
    """The cache key of ``source``: with MPI's arguments when it calls MPI."""
    extra = cdef
    if mpi_flags.uses_mpi(source):
        extra += "\0" + "\0".join(a for args in mpi_flags.mpi_arguments() for a in args)
    return cache_key(source, info, extra=extra)


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
