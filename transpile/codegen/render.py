"""Rendering: ``Program``\\ s become one C (or CUDA) translation unit through the jinja2
templates.

Input: planned programs (``plan.plan_program``) with their jaxpr text. Output: C source
(``templates/c``) or CUDA C++ source (``templates/cuda``, falling back to ``templates/c``
for the templates both share) and the cffi ``cdef`` declaring each entry point and its
``_workspace_size`` function. Several programs render into one file, so that tests (and
a function's kernels) cost one compiler call.
"""
from __future__ import annotations

import functools

import numpy as np

from .. import abi
from ..abi import EntryABI
from ..dtypes import dtype_name
from ..resources import templates_dir
from ..version import __version__
from . import emit_cuda, template_cache
from .emit_cuda import check_supported
from .program import Program
from .steps import step_lines

__all__ = ["render_module", "environment", "source_environment", "template_folders",
           "entry_abi"]


TARGETS = ("c", "cuda")


@functools.lru_cache(maxsize=None)
def environment(target: str = "c") -> "jinja2.Environment":
    """The strict jinja2 environment of ``target``'s templates: CUDA's folder first, then
    the C templates it shares (the entry point, and the kernels run serially)."""
    # Imported here: a process whose functions all come from the disk cache never
    # renders, and need not pay for importing jinja2.
    return _environment(target, template_cache.ShippedBytecode(
        template_cache.archive_path(templates_dir(), target)))


def template_folders(target: str = "c") -> list:
    """The folders ``target``'s templates are looked up in, in order."""
    folders = [templates_dir() / "c"]
    if target == "cuda":
        folders.insert(0, templates_dir() / "cuda")
    return folders


def _environment(target: str, compiled=None) -> "jinja2.Environment":
    """The environment of ``target``'s templates; with ``compiled`` (a
    ``template_cache.ShippedBytecode``) the templates compiled ahead of time are used
    where they are current."""
    import jinja2
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(f) for f in template_folders(target)]),
        bytecode_cache=compiled,
        undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True, autoescape=False)


def source_environment(target: str = "c") -> "jinja2.Environment":
    """``target``'s environment compiling every template from its source (what
    ``tools/compile_templates.py`` compiles, and what tests compare against)."""
    return _environment(target)


def entry_abi(program: Program, target: str = "c") -> EntryABI:
    """The ABI of ``program``'s entry point (prototype, cdef and call marshalling).

    Parameters
    ----------
    program : Program
    target : {"c", "cuda"}
        CUDA entry points take the stream last.

    Returns
    -------
    backend.abi.EntryABI
    """
    def buf(b, role):
        return abi.Param(b.name, role, b.ctype, tuple(int(n) for n in b.aval.shape),
                         dtype_name(b.aval.dtype))
    params = [buf(b, abi.INPUT) for b in program.inputs]
    params += [buf(b, abi.CONST) for b in program.consts]
    params += [buf(b, abi.OUTPUT) for b in program.outputs]
    params.append(abi.Param("workspace", abi.WORKSPACE))
    if program.host_callbacks:  # compiled code that calls back into Python
        params.append(abi.Param("tp_host", abi.HOST))
    if target == "cuda":  # the stream every kernel is queued on
        params.append(abi.Param("stream", abi.STREAM))
    sources = []
    for kind, what in program.out_sources:
        if kind == "literal":
            value = np.asarray(what.val, what.aval.dtype).item()
            if isinstance(value, complex):  # JSON has no complex numbers: [re, im]
                value = {"re": value.real, "im": value.imag}
            what = (value, dtype_name(what.aval.dtype))
        sources.append((kind, what))
    return EntryABI(program.name, tuple(params), tuple(sources), target)


def _program_view(program: Program, jaxpr_text: str, target: str = "c") -> dict:
    kernels = []
    scratch = []
    for k in program.kernels:
        params = [p.declaration() for p in k.fields.params]
        names = [p.name for p in k.fields.params]
        args = list(names)
        view = dict(name=k.name, template=k.template, comment=k.comment, fields=k.fields,
                    param_names=names)
        exprs = [s.c_expr() for s in k.fields.scratch]
        if target == "cuda":
            view.update(emit_cuda.kernel_view(k, view))
            exprs = view["scratch_exprs"]
        all_names = list(names)
        if exprs:
            # not restrict for nvcc: its optimiser (CUDA 13.0, -O3) forwarded the stores
            # made before a loop through a restrict scratch pointer to the loads after
            # it, skipping the loop's own stores, when the area is carved into pointers
            # of several types (svd's Jacobi sweeps came out unrotated on an H200)
            params.append("char *restrict scratch" if target == "c" else "char *scratch")
            all_names.append("scratch")
            args.append(f"ws + {program.workspace_bytes}")
            scratch.extend(exprs)
        # CUDA: kernel_params/param_names are a __global__ kernel's (no scratch); params
        # and all_names the launcher's, which gets the scratch pointer when there is one.
        view.update(params=params, args=args,
                    kernel_params=[p.declaration() for p in k.fields.params],
                    all_names=all_names)
        if target == "cuda" and not view["native"]:
            view["device_view"] = dict(view, name=f"{k.name}_dev")
        kernels.append(view)
    by_name = {k["name"]: k for k in kernels}
    return dict(name=program.name, params=entry_abi(program, target).declarations(),
                temps=program.temps,
                temp_bytes=program.workspace_bytes, scratch_exprs=scratch, kernels=kernels,
                body=step_lines(_steps_view(program.steps, by_name), cuda=target == "cuda"),
                jaxpr_lines=jaxpr_text.replace("*/", "* /").splitlines())


def _steps_view(steps: list, kernels: dict) -> list:
    """The entry's steps with each kernel call given its arguments."""
    out = []
    for s in steps:
        s = dict(s)
        if s["kind"] == "call":
            k = kernels[s.pop("kernel")]
            s.update(name=k["name"], args=k["args"])
        for key in ("steps", "cond", "body"):
            if key in s:
                s[key] = _steps_view(s[key], kernels)
        if "cases" in s:
            s["cases"] = [_steps_view(c, kernels) for c in s["cases"]]
        out.append(s)
    return out


def render_module(programs: list, export: dict | None = None,
                  target: str = "c") -> tuple[str, str]:
    """C (or CUDA) source and cffi cdef for ``programs``, a list of
    ``(Program, jaxpr_text)``.

    Parameters
    ----------
    export : dict, optional
        For a standalone export (``transpile/export.py``; C only): the fields of
        ``templates/c/export/*.j2``; the entry points then become static and the
        exported wrapper calls them.
    target : {"c", "cuda"}
        ``"cuda"`` renders CUDA C++ for nvcc: each kernel a ``__global__`` function and
        a host launcher, the entry point taking device pointers and a stream.

    Returns
    -------
    (str, str)
        The source and the cdef.

    Raises
    ------
    NotImplementedError
        For a CUDA program that calls back into Python (not supported yet).
    """
    if target not in TARGETS:
        raise ValueError(f"unknown target {target!r}: expected one of {TARGETS}")
    if target == "cuda":
        for p, _ in programs:
            check_supported(p)
    views = [_program_view(p, text, target) for p, text in programs]
    templates = {k["template"] for v in views for k in v["kernels"]}
    module = "module.cu.j2" if target == "cuda" else "module.c.j2"
    source = environment(target).get_template(module).render(
        export=export, cuda=target == "cuda",
        version=__version__, programs=views, uses_matmul=bool(templates & {"kernel_dot.j2", "kernel_conv.j2"}),
        uses_sort="kernel_sort.j2" in templates, uses_fft="kernel_fft.j2" in templates,
        uses_mpi=any(k["template"] == "kernel_mpi.j2" and k["fields"].mpi
                     for v in views for k in v["kernels"]),
        # Loop kernels of samplers call the key functions of tp_threefry.h too.
        uses_threefry="kernel_threefry.j2" in templates or any(
            "random_" in text for _, text in programs),
        uses_linalg=bool(templates & {"kernel_top_k.j2", "kernel_cholesky.j2",
                                      "kernel_triangular_solve.j2", "kernel_lu.j2",
                                      "kernel_qr.j2", "kernel_eigh.j2",
                                      "kernel_svd.j2", "kernel_tridiagonal_solve.j2"}))
    cdef = "\n".join(entry_abi(p, target).cdef() for p, _ in programs)
    return source, cdef
