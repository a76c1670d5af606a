"""The ABI of one generated entry point, as plain data: what codegen renders the
prototype from, what the cffi ``cdef`` declares, and what the executables marshal.

Codegen builds an ``EntryABI`` from its plan (``codegen.render.entry_abi``); the backend
(``backend/load.py``, ``load_cuda.py``) only reads it. A foundation module (it imports
``dtypes`` alone), so that both layers may import it. It round-trips through
JSON (``to_json``/``from_json``) so that a cache entry can store it and a fresh process
can call a cached library without planning.

The entry point is ``int NAME(params...)`` returning 0 on success, with its parameters
in this order: inputs, constants, outputs, the workspace, then (when present) the
host-callback function and (CUDA) the stream; ``int64_t NAME_workspace_size(void)``
gives the workspace's bytes.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .dtypes import from_name

__all__ = ["Param", "EntryABI", "INPUT", "CONST", "OUTPUT", "WORKSPACE", "HOST", "STREAM",
           "HOST_FN_TYPE"]

INPUT = "input"
CONST = "const"
OUTPUT = "output"
WORKSPACE = "workspace"
HOST = "host"      # the function compiled code calls back into Python through
STREAM = "stream"  # CUDA: the stream every kernel is queued on
_ROLES = (INPUT, CONST, OUTPUT, WORKSPACE, HOST, STREAM)
_BUFFERS = (INPUT, CONST, OUTPUT)

#: The C type of the host-callback parameter: ``(callback id, operand pointers, result
#: pointers) -> status``.
HOST_FN_TYPE = "int (*)(int64_t, void **, void **)"


@dataclass(frozen=True)
class Param:
    """One parameter of the entry point.

    ``ctype`` is the element's C storage type for buffers (inputs, constants, outputs);
    ``shape`` and ``dtype`` (a dtype name, ``dtypes.dtype_name``) describe the array.
    The other roles have no element type.
    """
    name: str
    role: str
    ctype: str = "void"
    shape: tuple = ()
    dtype: str | None = None

    def __post_init__(self):
        if self.role not in _ROLES:
            raise ValueError(f"unknown parameter role {self.role!r}")

    def declaration(self) -> str:
        """The parameter as written in the C definition."""
        if self.role in (INPUT, CONST):
            return f"const {self.ctype} *restrict {self.name}"
        if self.role == OUTPUT:
            return f"{self.ctype} *restrict {self.name}"
        if self.role == WORKSPACE:
            return f"void *restrict {self.name}"
        if self.role == HOST:
            return f"int (*{self.name})(int64_t, void **, void **)"
        return f"void *{self.name}"

    def cdef_type(self) -> str:
        """The parameter's type in the cffi declaration: cffi passes NumPy buffers as
        untyped pointers (the C definition gives them their element types)."""
        return HOST_FN_TYPE if self.role == HOST else "void *"

    @property
    def np_dtype(self) -> np.dtype:
        return from_name(self.dtype)

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) * self.np_dtype.itemsize


@dataclass(frozen=True)
class EntryABI:
    """One entry point: its name, parameters in order and where its results come from.

    Parameters
    ----------
    name : str
        The entry point's C name.
    params : tuple of Param
        In call order (see the module docstring).
    out_sources : tuple
        Per jaxpr output: ``("buffer", i)`` (the i-th output parameter), ``("input", i)``,
        ``("const", i)`` or ``("literal", (value, dtype name))``.
    target : {"c", "cuda"}
    """
    name: str
    params: tuple
    out_sources: tuple = ()
    target: str = "c"
    _by_role: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        by_role = {r: [] for r in _ROLES}
        for p in self.params:
            by_role[p.role].append(p)
        object.__setattr__(self, "_by_role", by_role)

    def role(self, role: str) -> list:
        """The parameters of ``role``, in order."""
        return list(self._by_role[role])

    @property
    def inputs(self) -> list:
        return self.role(INPUT)

    @property
    def consts(self) -> list:
        return self.role(CONST)

    @property
    def outputs(self) -> list:
        return self.role(OUTPUT)

    @property
    def host(self) -> bool:
        """Whether the entry takes a host-callback function."""
        return bool(self._by_role[HOST])

    @property
    def workspace_size_function(self) -> str:
        """The C name of the function giving the workspace's bytes."""
        return f"{self.name}_workspace_size"

    def declarations(self) -> list:
        """The parameters as written in the C definition, in order."""
        return [p.declaration() for p in self.params]

    def prototype(self) -> str:
        """The C declaration of the entry point."""
        return f"int {self.name}({', '.join(self.declarations())});"

    def cdef(self) -> str:
        """The cffi declarations of the entry point and its workspace-size function."""
        kinds = ", ".join(p.cdef_type() for p in self.params)
        return f"int {self.name}({kinds});\nint64_t {self.workspace_size_function}(void);"

    def to_json(self) -> dict:
        """Plain JSON data (``from_json`` reads it back)."""
        return {"name": self.name, "target": self.target,
                "params": [{"name": p.name, "role": p.role, "ctype": p.ctype,
                            "shape": list(p.shape), "dtype": p.dtype} for p in self.params],
                "out_sources": [[kind, list(what) if isinstance(what, tuple) else what]
                                for kind, what in self.out_sources]}

    @classmethod
    def from_json(cls, data: dict) -> "EntryABI":
        """The ABI ``to_json`` wrote; raises ``ValueError`` on malformed data."""
        try:
            params = tuple(Param(str(p["name"]), str(p["role"]), str(p["ctype"]),
                                 tuple(int(n) for n in p["shape"]),
                                 None if p["dtype"] is None else str(p["dtype"]))
                           for p in data["params"])
            sources = []
            for kind, what in data["out_sources"]:
                if kind not in ("buffer", "input", "const", "literal"):
                    raise ValueError(f"unknown output source {kind!r}")
                sources.append((kind, tuple(what) if kind == "literal" else int(what)))
            return cls(str(data["name"]), params, tuple(sources), str(data["target"]))
        except (KeyError, TypeError) as e:
            raise ValueError(f"malformed entry ABI: {e!r}") from None
