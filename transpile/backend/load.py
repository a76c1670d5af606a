"""Load and call (stage 7): a built library's entry point as a Python callable.

Input: a ``Library`` (``build.build``) and the ``abi.EntryABI`` of its entry point.
Output: ``Executable``, which takes the flat list of argument values, passes their buffers to
the C entry point with freshly allocated outputs (large ones from ``pool``) and a
workspace, and returns ``Array``\\ s. Inputs that are not C-contiguous, not aligned or
not of the compiled dtype are copied once; an ``Array`` keeps the pointer cffi made for
it, so passing it again costs nothing.
"""
from __future__ import annotations

import threading

import numpy as np

from .. import core
from ..abi import EntryABI
from ..array import Array
from ..dtypes import from_name
from ..memory import pool

__all__ = ["BaseExecutable", "Executable", "PooledArray", "host_value"]


def _no_callbacks(primitive, params):
    raise RuntimeError("transpile.callbacks is not imported (import transpile sets "
                       "backend.load.host_function)")


#: ``(primitive, params) -> fn``: the Python function a compiled program's host step
#: calls (NumPy arrays in, its results out). The callback primitives live in ``lax``,
#: which the backend never imports: ``transpile.callbacks`` sets this.
host_function = _no_callbacks


class PooledArray(Array):
    """An ``Array`` whose memory came from the buffer pool and returns there on death."""

    __slots__ = ("_block",)

    def __del__(self):
        block = self._block
        if block is not None:
            # References expected, counted inside the callee: for the value our slot, the
            # parameter and getrefcount's argument; for the block also value.base and
            # the local name here. Any more is a live view or np.asarray result.
            pool.release_if_unshared(self._value, block, 3, 5)


core.pytype_aval_mappings[PooledArray] = lambda x: x.aval
_ARRAYS = (Array, PooledArray)


def host_value(x) -> np.ndarray:
    """The host array behind ``x``: an Array's own value (typed PRNG keys included,
    which refuse ``np.asarray``), anything else through NumPy."""
    return x._value if isinstance(x, Array) else np.asarray(x)


def _as_buffer(x, dtype: np.dtype) -> np.ndarray:
    arr = host_value(x)
    if arr.dtype != dtype:
        with np.errstate(all="ignore"):
            arr = arr.astype(dtype)
    if not (arr.flags.c_contiguous and arr.flags.aligned):
        arr = np.array(arr, dtype=dtype, order="C", copy=True)
    return arr


class BaseExecutable:
    """What the C and CUDA executables share: the entry point, its ABI, the output
    specs, and putting the results together from where each one comes from.

    Parameters
    ----------
    library : backend.build.Library
    abi : EntryABI
    out_avals : list of ShapedArray
        The jaxpr's output avals (weak types included).
    """

    def __init__(self, library, abi: EntryABI, out_avals):
        self.library = library
        self.abi = abi
        lib, ffi = library.lib, library.ffi
        self._ffi = ffi
        self._fn = getattr(lib, abi.name)
        self.workspace_bytes = int(getattr(lib, abi.workspace_size_function)())
        self._in_dtypes = [p.np_dtype for p in abi.inputs]
        self._const_dtypes = [p.np_dtype for p in abi.consts]
        self._out_specs = [(p.shape, p.np_dtype, p.nbytes) for p in abi.outputs]
        self._out_sources = list(abi.out_sources)
        self._out_avals = list(out_avals)

    def __call__(self, args) -> list:
        """Run on the flat argument values; returns the flat list of arrays."""
        return self.call(args)

    def _assemble(self, outs, args) -> list:
        """The jaxpr's outputs: output buffers ``outs``, arguments, constants and
        literals, each made an array by the subclass's ``_from_*`` methods."""
        result = []
        for (kind, what), aval in zip(self._out_sources, self._out_avals, strict=True):
            if kind == "buffer":
                a = self._from_output(outs[what], aval)
            elif kind == "input":
                a = self._from_input(args[what], self._in_dtypes[what], aval)
            elif kind == "const":
                a = self._from_const(what, aval)
            else:
                value, dtype = what
                if isinstance(value, dict):  # a complex literal (codegen/render.py)
                    value = complex(value["re"], value["im"])
                a = self._from_host(np.asarray(
                    tuple(value) if isinstance(value, list) else value, from_name(dtype)),
                    aval)
            result.append(a)
        return result


class Executable(BaseExecutable):
    """The compiled C entry point of one (function, signature).

    Parameters
    ----------
    library : backend.build.Library
    abi : EntryABI
    consts : list of numpy.ndarray
        The values of the jaxpr's constvars, in order.
    out_avals : list of ShapedArray
        The jaxpr's output avals (weak types included).
    host_callbacks : list, optional
        ``(primitive, params, in avals, out avals)`` per callback id, for an entry that
        calls back into Python.
    """

    def __init__(self, library, abi: EntryABI, consts, out_avals, host_callbacks=None):
        super().__init__(library, abi, out_avals)
        ffi = self._ffi
        self._from_buffer = ffi.from_buffer
        self._consts_keep = [_as_buffer(c, dt)
                             for c, dt in zip(consts, self._const_dtypes, strict=True)]
        self._const_ptrs = [ffi.from_buffer(c) for c in self._consts_keep]
        self._out_specs = [(shape, dt, nbytes >= pool.MIN_BYTES)
                           for shape, dt, nbytes in self._out_specs]
        self._out_weak = [a.weak_type for a in out_avals]
        self._consts = consts
        self._simple_outputs = all(s[0] == "buffer" for s in self._out_sources) and \
            [s[1] for s in self._out_sources] == list(range(len(self._out_specs)))
        self._null = ffi.NULL
        self._host_cb = None
        # Per thread, so per call: the callback runs on the calling thread, and another
        # thread's failing call must not see (or take) this call's exception.
        self._host_state = threading.local()
        if abi.host:
            if host_callbacks is None:
                raise RuntimeError(f"{abi.name} calls back into Python: its callbacks "
                                   "must be given")
            self._host_cb = self._make_host(host_callbacks)
            self.call = self._general_call
        elif self._simple_outputs and not self.workspace_bytes and \
                not any(pooled for _, _, pooled in self._out_specs):
            self.call = self._specialised_call()
        else:
            self.call = self._general_call

    def _specialised_call(self):
        """The common cached call (small outputs, no workspace, outputs in order) as
        straight-line code for this entry point's arity: no loops, no zips."""
        n_in, n_out = len(self._in_dtypes), len(self._out_specs)
        lines = ["def call(args):"]
        if n_in:
            lines.append(f"    {', '.join(f'x{i}' for i in range(n_in))}{',' if n_in == 1 else ''}"
                         " = args")
        for i in range(n_in):
            lines.append(f"    p{i} = x{i}._ptr if type(x{i}) in ARRAYS else None")
            lines.append(f"    if p{i} is None: p{i} = pointer(x{i}, dt{i})")
        for i in range(n_out):
            lines.append(f"    a{i} = empty(shape{i}, odt{i})")
        call_args = [f"p{i}" for i in range(n_in)] + ["*consts"] + \
            [f"fb(a{i})" for i in range(n_out)] + ["null"]
        lines.append(f"    if fn({', '.join(call_args)}): fail()")
        for i in range(n_out):
            lines.append(f"    r{i} = new(Array); r{i}._value = a{i}; "
                         f"r{i}._weak_type = weak{i}; r{i}._ptr = None")
        lines.append(f"    return [{', '.join(f'r{i}' for i in range(n_out))}]")
        # `library` keeps the code `fn` points into open while this function lives.
        env = dict(ARRAYS=_ARRAYS, pointer=self._pointer, empty=np.empty, fn=self._fn,
                   library=self.library,
                   consts=self._const_ptrs, fb=self._from_buffer, null=self._null,
                   new=object.__new__, Array=Array, fail=self._fail)
        for i, dt in enumerate(self._in_dtypes):
            env[f"dt{i}"] = dt
        for i, ((shape, dtype, _), weak) in enumerate(zip(self._out_specs, self._out_weak)):
            env[f"shape{i}"], env[f"odt{i}"], env[f"weak{i}"] = shape, dtype, weak
        exec("\n".join(lines), env)  # noqa: S102 - code built above from counts only
        return env["call"]

    def _make_host(self, table):
        """The cffi function the compiled code calls for callback ``cid``: it reads the
        operands' buffers, runs the Python function and writes its results; an
        exception is kept (the C returns 1) and raised again by the call."""
        ffi = self._ffi
        fns = [(host_function(p, params), ins, outs) for p, params, ins, outs in table]

        def handler(cid, ins_ptr, outs_ptr):
            try:
                fn, in_avals, out_avals = fns[cid]
                vals = []
                for k, a in enumerate(in_avals):
                    n = int(a.size) * a.dtype.itemsize
                    raw = bytes(ffi.buffer(ins_ptr[k], n)) if n else b""
                    vals.append(np.frombuffer(raw, a.dtype).reshape(a.shape).copy())
                results = fn(*vals)
                for k, (r, a) in enumerate(zip(results, out_avals, strict=True)):
                    data = np.ascontiguousarray(r, a.dtype).tobytes()
                    if data:
                        ffi.memmove(outs_ptr[k], data, len(data))
                return 0
            except BaseException as e:  # noqa: BLE001 - raised again by the call
                self._host_state.error = e
                return 1
        return ffi.callback("int(int64_t, void **, void **)", handler)

    def _fail(self):
        raise RuntimeError(f"compiled function {self.abi.name} failed")

    def _pointer(self, x, dtype):
        if type(x) is Array or type(x) is PooledArray:
            v = x._value
            if v.dtype == dtype and v.flags.c_contiguous and v.flags.aligned:
                p = x._ptr = self._from_buffer(v)
                return p
        return self._from_buffer(_as_buffer(x, dtype))

    def _general_call(self, args) -> list:
        ptrs = []
        for x, dt in zip(args, self._in_dtypes):
            p = getattr(x, "_ptr", None)
            ptrs.append(self._pointer(x, dt) if p is None else p)
        ptrs += self._const_ptrs
        fb = self._from_buffer
        outs = []
        for shape, dtype, pooled in self._out_specs:
            if pooled:
                arr, block = pool.empty(shape, dtype)
            else:
                arr, block = np.empty(shape, dtype), None
            outs.append((arr, block))
            ptrs.append(fb(arr))
        ws_block = None
        if self.workspace_bytes:
            # 64 spare bytes: kernels (the matmul's packing) want 64-byte alignment.
            ws_block = pool.take(self.workspace_bytes + 64)
            ptrs.append(fb(pool.aligned(ws_block, self.workspace_bytes)))
        else:
            ptrs.append(self._ffi.NULL)
        if self._host_cb is not None:
            ptrs.append(self._host_cb)
            self._host_state.error = None
        status = self._fn(*ptrs)
        if ws_block is not None:
            pool.give(ws_block)
        if status != 0:
            error = getattr(self._host_state, "error", None)
            self._host_state.error = None
            if error is not None:
                raise error
            raise RuntimeError(f"compiled function {self.abi.name} failed "
                               f"(status {status})")
        if self._simple_outputs:
            return [_wrap(arr, block, weak) for (arr, block), weak in
                    zip(outs, self._out_weak)]
        return self._assemble([_wrap(arr, block, False) for arr, block in outs], args)

    # Results are wrapped unweak first (_general_call); a small buffer is rewrapped
    # with the output's weak type, a pooled one handed out as it is.
    def _from_output(self, arr, aval):
        v = arr._value
        return Array._new(v, aval.weak_type) if v.size * v.itemsize < pool.MIN_BYTES else arr

    def _from_input(self, x, dtype, aval):
        # An Array's value is transpile's and never changes: share it. Anything else is
        # the caller's buffer: copy, so it stays writable and the result never changes
        # under the caller's writes.
        v = x._value if isinstance(x, Array) else np.array(_as_buffer(x, dtype), copy=True)
        return Array._new(v, aval.weak_type)

    def _from_const(self, i, aval):
        v = np.asarray(self._consts[i])
        return Array._new(np.array(v, copy=True) if v.flags.writeable else v, aval.weak_type)

    def _from_host(self, value, aval):
        return Array._new(value, aval.weak_type)


def wrap_pooled(arr: np.ndarray, block, weak: bool) -> Array:
    """An ``Array`` over ``arr``, whose memory is the pool ``block`` (given back when the
    Array dies and nothing else holds it); eager dispatch's prebuilt kernels write there."""
    return _wrap(arr, block, weak)


def _wrap(arr, block, weak):
    # Still writeable: Array.__array__ makes it read-only before anyone else sees it.
    if block is None:
        a = object.__new__(Array)
    else:
        a = object.__new__(PooledArray)
        a._block = block
    a._value = arr
    a._weak_type = weak
    a._ptr = None
    return a
