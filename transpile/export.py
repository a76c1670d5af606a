"""Standalone C export: a jitted function as a C99 source and header that build and run
with no Python.

``export_c(jit(f), *abstract_args, name=..., out_dir=...)`` (or
``jit(f).lower(*args).export_c(out_dir, name=...)``) writes into ``out_dir``:

* ``NAME.c``: the same kernels the in-process ``jit`` compiles (one code generator),
  behind a second entry template (``templates/c/export/``): the jaxpr's constants become
  ``static const`` arrays, outputs that are inputs, constants or literals are copied or
  filled, and the entry point is ``int NAME(inputs..., outputs..., void *workspace)``;
* ``NAME.h``: its documented prototype, ``NAME_workspace_size()``, and each array's
  rank, shape and size as ``#define``\\ s;
* the runtime headers ``NAME.c`` includes, copied beside it;
* a ``Makefile``, a ``CMakeLists.txt`` and ``NAME_example.c``.

The code never calls ``malloc`` and keeps no mutable global state: it is reentrant, and
several threads may call it at once, each with its own workspace.
"""
from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import dtypes, stages
from .codegen.emit_c import literal, stype
from .codegen.plan import plan_program
from .codegen.render import environment, render_module
from .jit import JitWrapped, jit
from .resources import runtime_dir
from .version import __version__

__all__ = ["export_c", "ExportedC", "export_lowering"]


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


_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_C_KEYWORDS = {"auto", "break", "case", "char", "const", "continue", "default", "do",
               "double", "else", "enum", "extern", "float", "for", "goto", "if", "inline",
               "int", "long", "register", "restrict", "return", "short", "signed", "sizeof",
               "static", "struct", "switch", "typedef", "union", "unsigned", "void",
               "volatile", "while", "main"}


def _check_name(name: str) -> None:
    if not isinstance(name, str) or not _NAME.match(name) or name in _C_KEYWORDS:
        raise ValueError(f"export name {name!r} is not a valid C identifier")


def export_c(fun, *abstract_args, name: str = "f", out_dir=".", **kwargs) -> ExportedC:
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
    out_dir : str or Path
        Created if missing.

    Returns
    -------
    ExportedC
    """
    f = fun if isinstance(fun, JitWrapped) else jit(fun)
    return f.lower(*abstract_args, **kwargs).export_c(out_dir, name=name)


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
    elif np.dtype(dtype) == np.float16:
        items = [f"{int(v)}u" for v in flat.view(np.uint16)]
    elif np.dtype(dtype) == np.bool_:
        items = ["1" if v else "0" for v in flat]
    else:
        items = [literal(v, dtype) for v in flat]
    if not items:
        items = ["0"]
    return [", ".join(items[i:i + 8]) + "," for i in range(0, len(items), 8)]


def export_lowering(lowering, out_dir, name: str) -> ExportedC:
    """The files of a ``stages.Lowering`` exported as ``name`` into ``out_dir``."""
    _check_name(name)
    closed = lowering.optimized
    impl = f"{name}_impl"
    program = plan_program(closed, impl)
    if program.host_callbacks:
        names = ", ".join(f"{p.name} ({_callback_name(params)})"
                          for p, params, _, _ in program.host_callbacks)
        raise ValueError(f"export_c cannot export {name}: it calls back into Python, which "
                         f"standalone C has no access to: {names}")
    arrays, params, (in_names, out_names) = _header_arrays(program, lowering.closed)
    for a in arrays:
        a["macro"] = a["macro"].replace("{NAME}", name.upper())

    consts = []
    for i, (b, value) in enumerate(zip(program.consts, closed.consts, strict=True)):
        data = value._value if hasattr(value, "_value") else np.asarray(value)
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
            if what.aval.dtype == np.float16:
                value = f"tp_f32_to_f16({value})"
            fills.append(dict(dst=out_names[j], count=count, value=value))
    scratch = []
    for i, b in enumerate(program.outputs):
        if i not in buffer_arg:  # an output buffer no exported output names (none expected)
            scratch.append(i)
    if scratch:
        raise NotImplementedError("export: an internal output buffer has no exported output")
    call_args = list(in_names) + [c["name"] for c in consts] + \
        [buffer_arg[i] for i in range(len(program.outputs))] + ["workspace"]
    export = dict(name=name, impl=impl, params=params, consts=consts, fills=fills,
                  copies=copies, call_args=call_args)
    source, _ = render_module([(program, str(closed))], export=export)

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    env = environment()
    jaxpr_lines = str(lowering.closed).replace("*/", "* /").splitlines()
    guard = f"{name.upper()}_H"
    header = env.get_template("export/header.h.j2").render(
        name=name, version=__version__, jaxpr_lines=jaxpr_lines, guard=guard,
        arrays=arrays, params=params)
    headers = _runtime_headers(source, runtime_dir())
    files = []

    def write(fname, text):
        path = out / fname
        path.write_text(text)
        files.append(path)
        return path

    src_path = write(f"{name}.c", source)
    hdr_path = write(f"{name}.h", header)
    for h in headers:
        shutil.copyfile(runtime_dir() / h, out / h)
        files.append(out / h)
    write("Makefile", env.get_template("export/Makefile.j2").render(name=name,
                                                                    headers=headers))
    write("CMakeLists.txt", env.get_template("export/CMakeLists.txt.j2").render(name=name))
    ins = [a for a in arrays if a["role"] == "input"]
    outs = [a for a in arrays if a["role"] == "output"]
    write(f"{name}_example.c", env.get_template("export/example.c.j2").render(
        name=name, inputs=ins, outputs=outs,
        args=[a["cname"] for a in ins] + [a["cname"] for a in outs] + ["workspace"]))
    return ExportedC(name, out, src_path, hdr_path, files)


def _callback_name(params: dict) -> str:
    if "fmt" in params:
        return f"debug.print {params['fmt']!r}"
    fn = getattr(params.get("callback"), "callback_func", params.get("callback"))
    return getattr(fn, "__name__", repr(fn))


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
