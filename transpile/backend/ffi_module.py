"""cffi's out-of-line ABI module for an entry point's ``cdef``, written without cffi's
C parser when the declarations have the usual shape.

Input: a ``cdef`` as ``codegen/render.py`` writes it. Output: the text of the Python
module ``ffi.emit_python_code`` would write. Parsing a cdef imports pycparser, about a
tenth of a second that a new process pays before its first compiled call; for the
shape every jitted function has (``int NAME(void *, ..., void *);`` and
``int64_t NAME_workspace_size(void);``) the module's type table is known, so it is
written directly (tests/test_backend_build.py compares it with cffi's own output).
Other shapes return None: the caller asks cffi.
"""
from __future__ import annotations

import re

__all__ = ["module_text"]

_SHAPE = re.compile(r"int (\w+)\(((?:void \*, )*void \*)\);\n"
                    r"int64_t (\w+)_workspace_size\(void\);\n?")

# cffi's type opcodes (cffi/cffi_opcode.py), each entry (argument << 8 | opcode).
_OP_PRIMITIVE, _OP_POINTER, _OP_FUNCTION, _OP_FUNCTION_END, _OP_NOOP = 1, 3, 13, 15, 17
_OP_CPYTHON_BLTN_V = 35
_PRIM_VOID, _PRIM_INT, _PRIM_INT64 = 0, 7, 23


def _op(arg: int, op: int) -> str:
    return "".join(f"\\x{b:02X}" for b in ((arg << 8) | op).to_bytes(4, "big"))


def module_text(cdef: str, module_name: str = "_transpile_ffi") -> str | None:
    """The out-of-line module's text for ``cdef``, or None for an unusual shape."""
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
    globals_ = (f"b'{_op(0, _OP_CPYTHON_BLTN_V)}{name}',0,"
                f"b'{_op(n + 2, _OP_CPYTHON_BLTN_V)}{name}_workspace_size',0")
    return ("# auto-generated file\nimport _cffi_backend\n\n"
            f"ffi = _cffi_backend.FFI('{module_name}',\n"
            "    _version = 0x2601,\n"
            f"    _types = b'{''.join(types)}',\n"
            f"    _globals = ({globals_}),\n)\n")
