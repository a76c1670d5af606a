"""Standalone C export: a jitted function as a C99 source and header that build and run
with no Python.

``export_c(jit(f), *abstract_args, name=..., out_dir=...)`` (or
``jit(f).lower(*args).export_c(out_dir, name=...)``) writes into ``out_dir`` (by default
a folder named after the function):

* ``NAME.c``: the same kernels the in-process ``jit`` compiles (one code generator),
  behind a second entry template (``templates/c/export/``): the jaxpr's constants become
  ``static const`` arrays, outputs that are inputs, constants or literals are copied or
  filled, and the entry point is ``int NAME(inputs..., outputs..., void *workspace)``;
* ``NAME.h``: its documented prototype, ``NAME_workspace_size()``, and each array's
  rank, shape and size as ``#define``\\ s;
* the runtime headers ``NAME.c`` includes, copied beside it;
* a ``Makefile``, a ``CMakeLists.txt`` and ``NAME_example.c``.

A function with process collectives (``lax.process_collectives``, exported from a
process of an MPI run: the kernels are those of its process count) calls MPI on
``MPI_COMM_WORLD``: the Makefile builds with ``mpicc``, CMake finds MPI, and the example
program initialises MPI and runs under ``mpirun -n N``.

The code never calls ``malloc`` and keeps no mutable global state: it is reentrant, and
several threads may call it at once, each with its own workspace.

An export never overwrites a file it did not write: ``.transpile-export.json`` in the
folder records the sha256 of every file written, and a file that is not listed there, or
was changed since, is refused (``force=True`` replaces it). Files are written to a fresh
temporary name and renamed into place, so a symbolic link in their place is replaced,
never followed.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import dtypes, stages
from .codegen.emit_c import literal, stype
from .codegen.plan import plan_program
from .codegen.render import environment, render_module
from .backend.mpi_flags import MPI_HEADER
from .jit import JitWrapped, jit
from .resources import runtime_dir
from .version import __version__

__all__ = ["export_c", "ExportedC", "export_lowering", "check_name", "write_files"]


@dataclass
class ExportedC:
    """The files of one export."""
    name: str
    out_dir: Path
    source: Path
    header: Path
    files: list

    def __repr__(self) -> str:
        return f"ExportedC({self.name!r}, {str(self.out_dir)!r}, {len(self.files)} files)"


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_C_KEYWORDS = {"auto", "break", "case", "char", "const", "continue", "default", "do",
               "double", "else", "enum", "extern", "float", "for", "goto", "if", "inline",
               "int", "long", "register", "restrict", "return", "short", "signed", "sizeof",
               "static", "struct", "switch", "typedef", "union", "unsigned", "void",
               "volatile", "while", "_Bool", "_Complex", "_Imaginary", "_Alignas",
               "_Alignof", "_Atomic", "_Generic", "_Noreturn", "_Static_assert",
               "_Thread_local", "alignas", "alignof", "bool", "constexpr", "false",
               "nullptr", "static_assert", "thread_local", "true", "typeof",
               "typeof_unqual"}
# Names the exported source or a program using it already has from the C library: an
# entry point of that name would not link, or would replace the library's own.
_STANDARD_NAMES = {
    "<math.h>": (
        "acos asin atan atan2 cos sin tan acosh asinh atanh cosh sinh tanh exp exp2 expm1 "
        "frexp ilogb ldexp log log10 log1p log2 logb modf scalbn scalbln cbrt fabs hypot pow "
        "sqrt erf erfc lgamma tgamma ceil floor nearbyint rint lrint llrint round lround "
        "llround trunc fmod remainder remquo copysign nan nextafter nexttoward fdim fmax fmin "
        "fma fpclassify isfinite isinf isnan isnormal signbit isgreater isless "
        "isunordered HUGE_VAL INFINITY NAN M_PI"),
    "<stdint.h>/<stddef.h>": (
        "int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t intptr_t "
        "uintptr_t intmax_t uintmax_t size_t ptrdiff_t max_align_t wchar_t offsetof NULL "
        "INT32_MAX INT64_MAX UINT64_C INT64_C UINT32_C"),
    "<stdlib.h>/<string.h>/<stdio.h>": (
        "abs labs llabs div malloc calloc realloc free aligned_alloc abort exit atexit "
        "getenv system qsort bsearch rand srand atoi atof strtol strtod memcpy memmove "
        "memset memcmp strlen strcmp strcpy strncpy strcat printf fprintf sprintf "
        "snprintf puts putchar fopen fclose fread fwrite stdin stdout stderr errno "
        "assert"),
    "OpenMP": "omp_get_num_threads omp_get_thread_num omp_get_max_threads",
}
_STANDARD = {n: h for h, names in _STANDARD_NAMES.items() for n in names.split()}


def check_name(name) -> None:
    """Raise ``ValueError`` with the reason when ``name`` cannot name an export.

    It must be a C identifier, not a keyword (C99 to C23), not reserved for the
    implementation (``_X...``, ``__...``), not a standard library name (``exp``,
    ``size_t``) and not in the runtime's ``tp_`` namespace.
    """
    bad = f"export name {name!r} is not a valid C identifier"
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(f"{bad}: use letters, digits and underscores, not starting "
                         "with a digit")
    if name in _C_KEYWORDS or name == "main":
        raise ValueError(f"{bad}: it is a C keyword" if name != "main" else
                         f"{bad}: main is the program's entry point")
    if name.startswith("__") or (name[0] == "_" and name[1:2].isupper()):
        raise ValueError(f"{bad}: names beginning with two underscores, or an underscore "
                         "and a capital letter, are reserved in C")
    if name in _STANDARD:
        raise ValueError(f"{bad}: it is already defined by {_STANDARD[name]}")
    if name.lower().startswith("tp_"):
        raise ValueError(f"{bad}: names beginning with tp_ belong to transpile's runtime "
                         "headers")



def export_c(fun, *abstract_args, name: str = "f", out_dir=None, force: bool = False,
             **kwargs) -> ExportedC:
    """Write ``fun`` at the given argument types as standalone C.

    Parameters
    ----------
    fun : callable
        A ``jit``-wrapped function (a plain function is wrapped in ``jit``).
    *abstract_args
        Arrays or ``ShapeDtypeStruct``\\ s, as for ``jit(fun).lower``; keyword arguments
        are passed on the same way (static arguments included).
    name : str
        The C name of the entry point and of the files.
    out_dir : str or Path, optional
        Created if missing; default a folder ``name`` in the current directory.
    force : bool
        Replace files in ``out_dir`` that this export did not write.

    Returns
    -------
    ExportedC

    Raises
    ------
    ValueError
        When ``name`` cannot name a C function (the reason is given).
    FileExistsError
        When a file to write exists and was not written by an export (and ``force`` is
        false); nothing is written then.
    """
    check_name(name)
    f = fun if isinstance(fun, JitWrapped) else jit(fun)
    return f.lower(*abstract_args, **kwargs).export_c(out_dir, name=name, force=force)


def _type_text(aval) -> str:
    return aval.str_short()


def _header_arrays(program, closed) -> tuple[list, list, list]:
    """(arrays for the header, exported parameter declarations, C names) for the jaxpr's
    inputs and outputs."""
    arrays, params = [], []
    in_names = []
    for i, aval in enumerate(closed.in_avals):
        cname = f"in{i}"
        in_names.append(cname)
        arrays.append(_array_info("input", i, cname, aval))
        params.append(f"const {stype(aval.dtype)} *restrict {cname}")
    out_names = []
    for i, aval in enumerate(closed.out_avals):
        cname = f"out{i}"
        out_names.append(cname)
        arrays.append(_array_info("output", i, cname, aval))
        params.append(f"{stype(aval.dtype)} *restrict {cname}")
    params.append("void *restrict workspace")
    return arrays, params, (in_names, out_names)


def _array_info(role, index, cname, aval) -> dict:
    size = int(np.prod(aval.shape, dtype=np.int64))
    return dict(role=role, index=index, cname=cname, type=_type_text(aval),
                rank=len(aval.shape), shape=list(aval.shape), size=size,
                macro=f"{{NAME}}_{'IN' if role == 'input' else 'OUT'}{index}",
                ctype=stype(aval.dtype), alloc=max(size, 1),
                fill=("i % 2" if aval.dtype == np.bool_ else "i % 7"))


def _const_rows(value: np.ndarray, dtype) -> list:
    """C initializer rows for a constant's elements (exact literals, 8 per row)."""
    flat = np.asarray(value).reshape(-1)
    if dtypes.is_key(dtype):
        items = [f"UINT64_C({int(w['k0']) | (int(w['k1']) << 32)})" for w in flat]
    elif dtypes.half_name(dtype):
        items = [f"{int(v)}u" for v in flat.view(np.uint16)]
    elif np.dtype(dtype) == np.bool_:
        items = ["1" if v else "0" for v in flat]
    else:
        items = [literal(v, dtype) for v in flat]
    if not items:
        items = ["0"]
    return [", ".join(items[i:i + 8]) + "," for i in range(0, len(items), 8)]


def export_lowering(lowering, out_dir, name: str, force: bool = False) -> ExportedC:
    """The files of a ``stages.Lowering`` exported as ``name`` into ``out_dir`` (default:
    a folder ``name``); ``force`` replaces files no export wrote."""
    check_name(name)
    closed = lowering.optimized
    impl = f"{name}_impl"
    program = plan_program(closed, impl)
    if program.host_callbacks:
        names = ", ".join(_callback_name(p, params)
                          for p, params, _, _ in program.host_callbacks)
        raise ValueError(f"export_c cannot export {name}: it calls back into Python, which "
                         f"standalone C has no access to: {names}")
    arrays, params, (in_names, out_names) = _header_arrays(program, lowering.closed)
    for a in arrays:
        a["macro"] = a["macro"].replace("{NAME}", name.upper())

    consts = []
    for i, (b, value) in enumerate(zip(program.consts, closed.consts, strict=True)):
        data = value._value if hasattr(value, "_value") else np.asarray(value)
        if dtypes.is_complex(b.aval.dtype):
            # static initializers of C99 complex values need I; the parts are exact
            part = dtypes.real_dtype(b.aval.dtype)
            consts.append(dict(name=f"tp_const{i}", ctype=stype(part),
                               count=max(2 * int(b.aval.size), 1), type=_type_text(b.aval),
                               rows=_const_rows(np.ascontiguousarray(data).view(part), part),
                               arg=f"(const {stype(b.aval.dtype)} *)tp_const{i}"))
            continue
        consts.append(dict(name=f"tp_const{i}", ctype=stype(b.aval.dtype),
                           count=max(int(b.aval.size), 1), type=_type_text(b.aval),
                           rows=_const_rows(data, b.aval.dtype)))
    # The internal entry's buffer outputs are the exported outputs that first name them;
    # the others are copied (duplicates, inputs, constants) or filled (literals).
    buffer_arg = {}
    fills, copies = [], []
    for j, (kind, what) in enumerate(program.out_sources):
        aval = lowering.closed.out_avals[j]
        count = int(aval.size)
        ctype = stype(aval.dtype)
        if kind == "buffer":
            if what in buffer_arg:
                copies.append(dict(dst=out_names[j], src=buffer_arg[what], count=count,
                                   ctype=ctype))
            else:
                buffer_arg[what] = out_names[j]
        elif kind == "input":
            copies.append(dict(dst=out_names[j], src=in_names[what], count=count,
                               ctype=ctype))
        elif kind == "const":
            copies.append(dict(dst=out_names[j], src=f"tp_const{what}", count=count,
                               ctype=ctype))
        else:  # a literal
            value = literal(what.val, what.aval.dtype)
            if dtypes.half_name(what.aval.dtype):
                value = f"tp_f32_to_{dtypes.half_name(what.aval.dtype)}({value})"
            fills.append(dict(dst=out_names[j], count=count, value=value))
    scratch = []
    for i, b in enumerate(program.outputs):
        if i not in buffer_arg:  # an output buffer no exported output names (none expected)
            scratch.append(i)
    if scratch:
        raise NotImplementedError("export: an internal output buffer has no exported output")
    call_args = list(in_names) + [c.get("arg", c["name"]) for c in consts] + \
        [buffer_arg[i] for i in range(len(program.outputs))] + ["workspace"]
    export = dict(name=name, impl=impl, params=params, consts=consts, fills=fills,
                  copies=copies, call_args=call_args)
    source, _ = render_module([(program, str(closed))], export=export)
    # process collectives call MPI: built with mpicc, run under mpirun (see Makefile)
    mpi = MPI_HEADER in source

    out = Path(name if out_dir is None else out_dir)
    env = environment()
    jaxpr_lines = str(lowering.closed).replace("*/", "* /").splitlines()
    guard = f"{name.upper()}_H"
    header = env.get_template("export/header.h.j2").render(
        name=name, version=__version__, jaxpr_lines=jaxpr_lines, guard=guard, mpi=mpi,
        arrays=arrays, params=params,
        complex_types=any(dtypes.is_complex(a.dtype) for a in
                          list(lowering.closed.in_avals) + list(lowering.closed.out_avals)))
    headers = _runtime_headers(source, runtime_dir())
    contents = {f"{name}.c": source, f"{name}.h": header}
    for h in headers:
        contents[h] = (runtime_dir() / h).read_bytes()
    contents["Makefile"] = env.get_template("export/Makefile.j2").render(
        name=name, headers=headers, mpi=mpi)
    contents["CMakeLists.txt"] = env.get_template("export/CMakeLists.txt.j2").render(
        name=name, mpi=mpi)
    ins = [a for a in arrays if a["role"] == "input"]
    outs = [a for a in arrays if a["role"] == "output"]
    contents[f"{name}_example.c"] = env.get_template("export/example.c.j2").render(
        name=name, inputs=ins, outputs=outs, mpi=mpi,
        args=[a["cname"] for a in ins] + [a["cname"] for a in outs] + ["workspace"])
    files = write_files(out, contents, force)
    return ExportedC(name, out, out / f"{name}.c", out / f"{name}.h", files)


MANIFEST = ".transpile-export.json"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read_manifest(out: Path) -> dict:
    path = out / MANIFEST
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return {}
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    files = record.get("files") if isinstance(record, dict) else None
    return files if isinstance(files, dict) else {}


def _replace(out: Path, fname: str, data: bytes) -> None:
    # A fresh file (O_EXCL, so never through a link) renamed over the name: a symbolic
    # link there is replaced itself, and a reader never sees half a file.
    fd, tmp = tempfile.mkstemp(dir=out, prefix=f".{fname}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)  # mkstemp's 0600 would hide the sources from a build user
        os.replace(tmp, out / fname)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_files(out: Path, contents: dict, force: bool = False) -> list:
    """Write ``contents`` (file name → text or bytes) into ``out``, refusing to replace a
    file no export wrote (or one changed since) unless ``force``.

    Returns
    -------
    list of Path
        The files written, in the order of ``contents``.

    Raises
    ------
    FileExistsError
        Naming the first such file; nothing is written then.
    """
    out.mkdir(parents=True, exist_ok=True)
    manifest = _read_manifest(out)
    blobs = {k: v.encode("utf-8") if isinstance(v, str) else v for k, v in contents.items()}
    for fname in list(blobs) + [MANIFEST]:
        path = out / fname
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            continue
        if fname == MANIFEST and stat.S_ISREG(st.st_mode):
            continue
        ours = stat.S_ISREG(st.st_mode) and manifest.get(fname) == _sha256(path.read_bytes())
        if not ours and not force:
            raise FileExistsError(f"export: refusing to overwrite {path}, which transpile "
                                  "did not write (use --force, or force=True, to replace "
                                  "it)")
    written = []
    for fname, data in blobs.items():
        _replace(out, fname, data)
        manifest[fname] = _sha256(data)
        written.append(out / fname)
    _replace(out, MANIFEST, json.dumps({"written_by": "transpile export",
                                        "files": manifest}, indent=1,
                                       sort_keys=True).encode("utf-8"))
    return written


def _callback_name(primitive, params: dict) -> str:
    if "fmt" in params:
        return f"{primitive.name} (debug.print {params['fmt']!r})"
    fn = getattr(params["callback"], "callback_func", params["callback"])
    return f"{primitive.name} ({getattr(fn, '__name__', repr(fn))})"


def _runtime_headers(source: str, folder: Path) -> list:
    """The runtime headers ``source`` includes, directly or through other headers."""
    todo = re.findall(r'#include "([^"]+)"', source)
    seen = []
    while todo:
        h = todo.pop(0)
        if h in seen or not (folder / h).exists():
            continue
        seen.append(h)
        todo.extend(re.findall(r'#include "([^"]+)"', (folder / h).read_text()))
    return seen


stages.export_lowering = export_lowering
