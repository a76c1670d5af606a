"""cffi's type table for an entry point's ``cdef``, built without cffi's C parser when
the declarations have the usual shape.

Input: a ``cdef`` as ``codegen/render.py`` writes it. Output: an ``FFI`` object (ABI
mode) declaring its functions, made from the type table cffi's out-of-line modules carry.
Parsing a cdef imports pycparser, about a tenth of a second that a new process pays
before its first compiled call; for the shape every jitted function has
(``int NAME(void *, ..., void *);`` and ``int64_t NAME_workspace_size(void);``) the
table is known, so it is built directly. Nothing is executed from the cache: the cdef
stays data (``cdef.h``), checked like every file of an entry. ``module_text`` writes the
same table as cffi's ``emit_python_code`` would (tests compare the two). Other shapes
return None: the caller asks cffi.
"""
from __future__ import annotations

import re

__all__ = ["module_text", "ffi_for_cdef"]

_SHAPE = re.compile(r"int (\w+)\(((?:void \*, )*void \*)\);\n"
                    r"int64_t (\w+)_workspace_size\(void\);\n?")

# cffi's type opcodes (cffi/cffi_opcode.py), each entry (argument << 8 | opcode).
_OP_PRIMITIVE, _OP_POINTER, _OP_FUNCTION, _OP_FUNCTION_END, _OP_NOOP = 1, 3, 13, 15, 17
_OP_CPYTHON_BLTN_V = 35
_PRIM_VOID, _PRIM_INT, _PRIM_INT64 = 0, 7, 23
#: the out-of-line format version cffi 1.x modules declare
_VERSION = 0x2601
_MODULE = "_transpile_ffi"


def _op(arg: int, op: int) -> bytes:
    return ((arg << 8) | op).to_bytes(4, "big")


def _table(cdef: str):
    """``(types, globals)`` of ``cdef`` in cffi's out-of-line encoding, or None."""
    m = _SHAPE.fullmatch(cdef)
    if m is None or m.group(1) != m.group(3):
        return None
    name, n = m.group(1), m.group(2).count("void *")
    int64, int_, void = n + 4, n + 5, n + 6
    types = [_op(int_, _OP_FUNCTION), _op(void, _OP_POINTER)]
    types += [_op(1, _OP_NOOP)] * (n - 1)
    types += [_op(0, _OP_FUNCTION_END), _op(int64, _OP_FUNCTION), _op(0, _OP_FUNCTION_END),
              _op(_PRIM_INT64, _OP_PRIMITIVE), _op(_PRIM_INT, _OP_PRIMITIVE),
              _op(_PRIM_VOID, _OP_PRIMITIVE)]
    globals_ = (_op(0, _OP_CPYTHON_BLTN_V) + name.encode(), 0,
                _op(n + 2, _OP_CPYTHON_BLTN_V) + f"{name}_workspace_size".encode(), 0)
    return b"".join(types), globals_


def ffi_for_cdef(cdef: str):
    """An ABI-mode ``FFI`` declaring ``cdef``'s functions, or None for an unusual shape."""
    table = _table(cdef)
    if table is None:
        return None
    import _cffi_backend   # cffi's C module (a dependency), loaded on first use
    types, globals_ = table
    return _cffi_backend.FFI(_MODULE, _version=_VERSION, _types=types, _globals=globals_)


def _literal(b: bytes) -> str:
    return "".join(f"\\x{c:02X}" if i < 4 else chr(c) for i, c in enumerate(b))


def module_text(cdef: str, module_name: str = _MODULE) -> str | None:
    """The out-of-line module cffi would write for ``cdef`` (to check the table against
    cffi's own), or None for an unusual shape."""
    table = _table(cdef)
    if table is None:
        return None
    types, (g0, _, g1, _) = table
    hex_types = "".join(f"\\x{c:02X}" for c in types)
    return ("# auto-generated file\nimport _cffi_backend\n\n"
            f"ffi = _cffi_backend.FFI('{module_name}',\n"
            f"    _version = 0x{_VERSION:X},\n"
            f"    _types = b'{hex_types}',\n"
            f"    _globals = (b'{_literal(g0)}',0,b'{_literal(g1)}',0),\n)\n")
