"""The precompiled part of the C runtime: ``runtime/tp_math_lib.h`` built once per cache.

Input: the compiler and flags of :func:`transpile.backend.build.compiler_info`. Output:
an object file under ``<cache>/runtime/<key>/`` that libraries link against, so that the
transcendental functions (a few hundred instructions each) are compiled and vectorised
once per machine instead of once per call site in every library. The key hashes the
compiler, its flags and every runtime header, so a change to any of them builds a new
object; publishing is atomic (``os.replace``) under a lock, as for libraries.

Building it costs a few seconds, about what inlining a hundred such calls costs: a
library whose source makes fewer calls than :data:`LIB_WORTH_CALLS` keeps the inline
definitions until some library has built the object.

Beside it, with gcc, a precompiled header of ``runtime/tp_prelude.h`` (what every
library includes first): one per value of the only build macro the prelude reads
(``TP_RUNTIME_LIB_PAR``), made the first time a library needs it (~90 ms), then found by
gcc through ``-iquote`` before the header itself. gcc checks that it fits the build's
flags and macros and reads the header instead where it does not, so it changes no
result, only the ~20 ms a small library spent parsing the runtime's inline functions.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

from ..resources import runtime_dir
from . import cache_trust
from .cache import _headers_digest, cache_dir, key_lock, staging_dir

__all__ = ["runtime_object", "prelude_header", "math_calls", "link_arguments",
           "LIB_WORTH_CALLS", "RUNTIME_VERSION"]

#: Bump when the way the object is built changes.
RUNTIME_VERSION = 2  # 2: tp_par_team and tp_par_arrive (TP_RUNTIME_PAR_DEFINE)
#: Sources longer than this (characters) build at -O2: gcc's -O3 takes about twice as
#: long on them, and the kernels' `omp simd` loops are vectorised at -O2 all the same
#: (run times of the benchmarks within noise); small programs keep -O3.
O2_ABOVE_CHARS = 200_000
#: Heavy-call equivalents (a cheap call counts a quarter) above which building the
#: object pays for itself in one compile: inlining a sin costs about 20 ms of compile
#: time, building the object a few seconds.
LIB_WORTH_CALLS = 64
#: Cheap-tier calls above which they go out of line too: compile time then outweighs
#: the 15-30% a call costs them at run time.
CHEAP_OUT_OF_LINE = 32

_SOURCE = ('#define TP_RUNTIME_PAR_DEFINE\n#include "tp_codegen.h"\n#define TP_RUNTIME_LIB_DEFINE\n'
           '#include "tp_math_lib.h"\n#include "tp_matmul.h"\n')
#: A parallel region's entry and exit calls (tp_parallel.h), from the object when there
#: is one: compiled inline they cost ~19 ms of gcc in every file that has a region.
_PAR_CALL = "tp_par_team("
#: A matrix product's threaded paths weigh this many heavy calls (about 0.4 s of compile
#: time per dtype in a file).
GEMM_WEIGHT = 8
_TIERS: dict = {}
#: Any runtime function's call; the name is then looked up in the tiers (one scan of
#: the source, not one per tier with a long alternation).
_CALL = re.compile(r"\btp_(\w+)\(")


def _tier_names(tier: str) -> frozenset:
    """The names (without ``tp_``) of the functions of ``tier`` (``HEAVY`` or ``CHEAP``)."""
    if tier not in _TIERS:
        text = (runtime_dir() / "tp_math_lib.h").read_text(encoding="utf-8")
        block = text.split(f"#define TPX_{tier}(F)", 1)[1].split("\n#define", 1)[0]
        _TIERS[tier] = frozenset(re.findall(r"F\((\w+), \w+\)", block))
    return _TIERS[tier]


def math_calls(source: str) -> tuple[int, int]:
    """How many calls of the object's heavy and cheap functions ``source`` makes (a
    matrix product counted as ``GEMM_WEIGHT`` heavy calls)."""
    heavy_names, cheap_names = _tier_names("HEAVY"), _tier_names("CHEAP")
    heavy = cheap = gemm = 0
    for name in _CALL.findall(source):
        if name in heavy_names:
            heavy += 1
        elif name in cheap_names:
            cheap += 1
        elif name in _GEMM_NAMES:
            gemm += 1
    return heavy + GEMM_WEIGHT * gemm, cheap


_GEMM_NAMES = frozenset({"gemm_f32", "gemm_f64"})


#: The header every generated library includes first (templates/c/module.c.j2).
PRELUDE = "tp_prelude.h"
_PRELUDE_INCLUDE = f'#include "{PRELUDE}"'
_PAR_DEFINE = "-DTP_RUNTIME_LIB_PAR"


def _key(info, *variant: str) -> str:
    h = hashlib.sha256()
    for part in (str(RUNTIME_VERSION), info.path, info.version, "\0".join(info.flags),
                 *variant):
        h.update(part.encode() + b"\0")
    h.update(_headers_digest())
    return h.hexdigest()[:32]


def _object_flags(info) -> list:
    # An object to link, not a library; one section per function so that the linker
    # keeps only the functions (and SIMD clones) a library calls.
    return [f for f in info.flags if f != "-shared"] + ["-ffunction-sections", "-c"]


def runtime_object(info, build: bool = True) -> Path | None:
    """The runtime object for ``info``'s compiler and flags, built if missing and
    ``build``; None when it is missing and not built, or when the build fails (the
    library then uses the inline definitions)."""
    def make(staged: Path, out: Path) -> list:
        src = staged / "tp_math_lib.c"
        src.write_text(_SOURCE, encoding="utf-8")
        return [info.path, *_object_flags(info), str(src), "-o", str(out)]
    return _artifact(_key(info), "tp_math_lib.o", make, build)


def prelude_header(info, par: bool, build: bool = True) -> Path | None:
    """The folder holding gcc's precompiled ``tp_prelude.h`` for ``info``'s flags (and
    ``-DTP_RUNTIME_LIB_PAR`` when ``par``), built if missing and ``build``; None with
    compilers other than gcc, when missing and not built, or when the build fails."""
    if "clang" in info.version.lower():
        return None  # clang reads a precompiled header only when told to (-include-pch)
    defines = [_PAR_DEFINE] if par else []

    def make(staged: Path, out: Path) -> list:
        flags = [f for f in info.flags if f != "-shared"]
        return [info.path, *flags, *defines, "-x", "c-header",
                str(runtime_dir() / PRELUDE), "-o", str(out)]
    gch = _artifact(_key(info, "prelude", *defines), f"{PRELUDE}.gch", make, build)
    return gch.parent if gch is not None else None


def _artifact(key: str, name: str, make, build: bool) -> Path | None:
    """``<cache>/runtime/<key>/<name>``, made if missing and ``build`` by running the
    command ``make(staging folder, output path)`` returns, published atomically under
    the key's lock; None when missing and not built, on failure, or when the folder is
    not ours alone."""
    folder = cache_dir() / "runtime" / key
    target = folder / name
    if target.exists() or not build:
        return target if target.exists() and _trusted(folder) else None
    with key_lock(f"runtime-{key}"):
        if target.exists():
            return target if _trusted(folder) else None
        staged = staging_dir()
        try:
            out = staged / name
            proc = subprocess.run(make(staged, out), stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                  check=False)
            if proc.returncode != 0 or not out.exists():
                return None
            folder.mkdir(parents=True, exist_ok=True)
            cache_trust.seal(folder)
            cache_trust.seal(out)
            os.replace(out, target)
        except OSError:
            return None
        finally:
            shutil.rmtree(staged, ignore_errors=True)
    return target if _trusted(folder) else None


def _trusted(folder: Path) -> bool:
    """Whether the object's folder (and the folders above it in the cache) may be linked
    into our libraries: its code runs in this process, so it must be ours and writable
    by no one else, as every cache entry must."""
    return all(cache_trust.check_tree(f) is None for f in (folder.parent, folder))


def link_arguments(info, source: str) -> tuple[list, list]:
    """``(before, after)``: the compile arguments for ``source`` beyond ``info.flags``:
    -O2 for a big source; defines that make it call the runtime object and, after the
    source, the object and ``--gc-sections`` (nothing of the object when it would not
    pay: the inline definitions are used)."""
    before = ["-O2"] if len(source) > O2_ABOVE_CHARS else []
    after: list = []
    if "tp_math_lib.h" in source:
        heavy, cheap = math_calls(source)
        cheap_out = cheap > CHEAP_OUT_OF_LINE
        par = _PAR_CALL in source
        # regions alone never build the object (a few seconds): they use it once it is there
        obj = runtime_object(info, build=heavy + cheap / 4 > LIB_WORTH_CALLS) \
            if heavy or cheap_out or par else None
        if obj is not None:
            before += [_PAR_DEFINE] if par else []
            if heavy or cheap_out:
                before += ["-DTP_RUNTIME_LIB"] + (["-DTP_RUNTIME_LIB_ALL"] if cheap_out else [])
            after = [str(obj), "-Wl,--gc-sections"]
    if _PRELUDE_INCLUDE in source:
        # -iquote: searched for quoted includes before every -I folder, the runtime's too
        pch = prelude_header(info, _PAR_DEFINE in before)
        before += ["-iquote", str(pch)] if pch is not None else []
    return before, after
