"""The statements of a fused loop body: each value computed once per index, as a C local.

``BodyBuilder.value(atom, index)`` returns a C expression for ``atom`` at ``index``:
a literal, a read from a buffer, or a local declared for the equation that produces it
(after its operands at the indices the equation maps to, walked with an explicit stack
so that a chain of any length fits Python's recursion limit). Locals are
named after the jaxpr variables (``a``, ``b``; ``b_1`` for the same variable at another
index) so that generated C reads like the jaxpr it came from.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..ir import Literal, Var
from ..lax import indexing, layout, slicing, structural
from . import emit_c, prng_c
from .index import Index, _atomic

__all__ = ["BodyBuilder", "local_name", "pointer_name", "eqn_comment"]

_C_WORDS = {"do", "if"}


def local_name(jaxpr_name: str) -> str:
    """The C local holding a jaxpr variable's element (short names kept as they are;
    longer ones prefixed, so they can never shadow a libm function or keyword)."""
    if len(jaxpr_name) <= 2 and jaxpr_name not in _C_WORDS:
        return jaxpr_name
    return f"v_{jaxpr_name}"


def pointer_name(jaxpr_name: str) -> str:
    """The C pointer to a jaxpr variable's buffer: its name in capitals."""
    if len(jaxpr_name) <= 2:
        return jaxpr_name.upper()
    return f"P_{jaxpr_name}"


def _fmt_param(v) -> str:
    if isinstance(v, np.dtype):
        return v.name
    if isinstance(v, type) and issubclass(v, np.generic):
        return np.dtype(v).name
    return " ".join(str(v).split())  # a sub-jaxpr on one line


def eqn_comment(e, names) -> str:
    """``b = mul a 2.0`` — one line per fused equation in the generated C."""
    def atom(a):
        if isinstance(a, Literal):
            v = np.asarray(a.val, a.aval.dtype)[()]
            text = np.format_float_positional(v, unique=True, trim="0") \
                if dtypes.is_float(a.aval.dtype) and np.isfinite(v) else str(v.item())
            return f"{text}:{a.aval.str_short()}"
        return names.get(a, "?")
    params = ", ".join(f"{k}={_fmt_param(v)}" for k, v in e.params.items()
                       if k not in ("sharding", "out_sharding") and v is not None)
    outs = " ".join(names.get(o, "_") for o in e.outvars)
    text = f"{outs} = {e.primitive.name}"
    if params:
        text += f"[{params}]"
    text += " " + " ".join(atom(a) for a in e.invars)
    return text.replace("*/", "* /")


class BodyBuilder:
    """Collects the statements of one loop body.

    Parameters
    ----------
    producer : dict
        Var -> the fused equation computing it inside this kernel.
    buffers : dict
        Var -> ``plan.Buffer`` for materialised values.
    names : dict
        Var -> jaxpr name.
    """

    def __init__(self, producer: dict, buffers: dict, names: dict):
        self.producer = producer
        self.buffers = buffers
        self.names = names
        self.stmts: list = []   # (comment or None, ctype, name, expr)
        self.memo: dict = {}
        self.taken: set = set()
        self.reads: dict = {}   # pointer name -> Buffer
        self.offsets: dict = {}  # pointer name -> set of the offsets it is read at
        #: pointer name -> (offsets, replacement): a buffer read at one of those offsets from a
        #: local array instead (a row-fused kernel's row-sized temporaries)
        self.redirect: dict = {}
        self.decomposed = False
        self.starts: dict = {}  # (start atom, hi) -> clamped start local

    # locals -----------------------------------------------------------------------------
    def declare(self, ctype: str, hint: str, expr: str, comment: str | None = None) -> str:
        """Declare ``const ctype NAME = expr;`` and return NAME."""
        name = hint
        n = 0
        while name in self.taken:
            n += 1
            name = f"{hint}_{n}"
        self.taken.add(name)
        self.stmts.append((comment, ctype, name, expr))
        return name

    def _index_local(self, ctype, hint, expr):
        self.decomposed = True
        return self.declare(ctype, hint, expr)

    def index(self, shape, dims=None, flat=None) -> Index:
        """A root index for a loop nest over ``shape``."""
        return Index(tuple(shape), dims, flat, self._index_local)

    # values -----------------------------------------------------------------------------
    def value(self, atom, idx: Index) -> str:
        """C expression of ``atom``'s element at ``idx``."""
        if isinstance(atom, Literal):
            return emit_c.literal(atom.val, atom.aval.dtype)
        got = self.memo.get((atom, idx.key()))
        if got is not None:
            return got
        return self._drive(self._evaluate(atom, idx))

    def _drive(self, gen):
        """Run ``gen`` to completion, computing the values it asks for.

        Rules are generators that ``yield (atom, index)`` for each operand and receive
        its C expression back, so a chain of fused producers as long as the program is
        walked with an explicit stack (post-order, in the order plain recursion would
        take, so the statements come out the same) instead of Python's call stack.
        """
        stack = [gen]
        sent = None
        while True:
            try:
                atom, idx = stack[-1].send(sent)
            except StopIteration as stop:
                stack.pop()
                if not stack:
                    return stop.value
                sent = stop.value
                continue
            if isinstance(atom, Literal):
                sent = emit_c.literal(atom.val, atom.aval.dtype)
                continue
            got = self.memo.get((atom, idx.key()))
            if got is not None:
                sent = got
                continue
            stack.append(self._evaluate(atom, idx))
            sent = None

    def _evaluate(self, atom, idx: Index):
        key = (atom, idx.key())
        got = self.memo.get(key)
        if got is not None:  # computed meanwhile by a sibling operand
            return got
        e = self.producer.get(atom)
        if e is None:
            out = self._read(atom, idx)
        else:
            out = yield from self._compute(e, idx)
        self.memo[key] = out
        return out

    def read_expr(self, var: Var, idx: Index) -> str:
        """The buffer element of ``var`` at ``idx`` (storage type converted)."""
        b = self.buffers[var]
        offset = "0" if not var.aval.shape else idx.get_flat()
        self.offsets.setdefault(b.name, set()).add(offset)
        local = self.redirect.get(b.name)
        if local is not None and offset in local[0]:
            expr = local[1]
        else:
            self.reads[b.name] = b
            expr = f"{b.name}[{offset}]"
        return emit_c.load_expr(var.aval.dtype, expr)

    def _read(self, var: Var, idx: Index) -> str:
        expr = self.read_expr(var, idx)
        return self.declare(emit_c.ctype(var.aval.dtype), local_name(self.names[var]), expr)

    def _compute(self, e, idx: Index) -> str:
        out = e.outvars[0]
        p = e.primitive
        if p is slicing.iota_p:
            dims = idx.get_dims()
            expr = f"({emit_c.ctype(out.aval.dtype)}){dims[e.params['dimension']]}"
            if dtypes.half_name(out.aval.dtype):
                expr = f"tp_{dtypes.half_name(out.aval.dtype)}_round({expr})"
        elif p in prng_c.SOURCES:
            expr = yield from self._random_source(e, idx)
        elif p is slicing.pad_p:
            expr = yield from self._pad(e, idx)
        elif p is indexing.dynamic_slice_p:
            expr = yield from self._dynamic_slice(e, idx)
        elif p in _INDEX_RULES:
            x = e.invars[0]
            expr = yield x, _INDEX_RULES[p](idx, x.aval.shape, out.aval.shape, **e.params)
        else:
            args = []
            for a in e.invars:
                args.append((yield a, self._operand_index(a, idx, out.aval.shape)))
            expr = emit_c.emit(p, args, [a.aval for a in e.invars], out.aval, e.params)
        return self.declare(emit_c.ctype(out.aval.dtype), local_name(self.names[out]), expr,
                            eqn_comment(e, self.names))

    def _operand_index(self, a, idx: Index, out_shape) -> Index:
        shape = a.aval.shape
        if shape == tuple(out_shape):
            return idx
        if not shape:
            return idx.with_dims((), ())
        dims = idx.get_dims()  # size-1 dimensions broadcast
        return idx.with_dims(shape, tuple("0" if n == 1 else d
                                          for n, d in zip(shape, dims, strict=True)))

    def _random_source(self, e, idx: Index) -> str:
        """``random_bits``/``random_split``: the key at the leading (key) dimensions of
        the index, hashed with the row-major counter of the trailing (drawn) ones."""
        k = e.invars[0]
        key_shape = k.aval.shape
        drawn = tuple(e.params["shape"])
        if not key_shape:
            key_value = yield k, idx.with_dims((), ())
            counter = idx.get_flat() if drawn else "0"
        else:
            dims = idx.get_dims()
            key_value = yield k, idx.with_dims(key_shape, dims[:len(key_shape)])
            terms, stride = [], 1
            for d, n in reversed(list(zip(dims[len(key_shape):], drawn, strict=True))):
                if n != 1:
                    terms.append(_atomic(d) if stride == 1 else f"{_atomic(d)} * {stride}")
                stride *= n
            counter = " + ".join(reversed(terms)) or "0"
        return prng_c.source_expr(e, key_value, f"(uint64_t)({counter})")

    def _pad(self, e, idx: Index) -> str:
        x, pv = e.invars
        cfg = e.params["padding_config"]
        pad_value = yield pv, idx.with_dims((), ())
        if x.aval.size == 0:
            return pad_value
        dims = idx.get_dims()
        conds, src = [], []
        for d, ((lo, hi, interior), n) in enumerate(zip(cfg, x.aval.shape, strict=True)):
            t = f"({_atomic(dims[d])} - ({lo}))" if lo else dims[d]
            step = interior + 1
            if lo == 0 and interior == 0 and n == e.outvars[0].aval.shape[d]:
                src.append(dims[d])
                continue
            pos = self.declare("int64_t", "pos", t)
            conds.append(f"{pos} >= 0")
            if step > 1:
                conds.append(f"{pos} % {step} == 0")
                q = f"{pos} / {step}"
            else:
                q = pos
            conds.append(f"{q} < {n}")
            # Clamped, so the read stays inside x whatever the condition says.
            src.append(self.declare("int64_t", "src",
                                    f"{pos} < 0 ? 0 : ({q} > {n - 1} ? {n - 1} : {q})"))
        inner = yield x, idx.with_dims(x.aval.shape, tuple(src))
        if not conds:
            return inner
        return f"(({' && '.join(conds)}) ? {inner} : {pad_value})"

    def _dynamic_slice(self, e, idx: Index) -> str:
        x, *starts = e.invars
        dims = idx.get_dims()
        src = []
        for n, size, s, i in zip(x.aval.shape, e.params["slice_sizes"], starts, dims,
                                 strict=True):
            start = yield from self._clamped_start(s, n - size)
            if start == "0" or i == "0":
                src.append(i if start == "0" else start)
            else:
                src.append(f"({start} + {_atomic(i)})")
        return (yield x, idx.with_dims(x.aval.shape, tuple(src)))

    def clamped_start(self, start, hi: int) -> str:
        """C expression of the scalar ``start`` clamped into ``[0, hi]``, as JAX clamps a
        dynamic start so that the whole window lies inside the operand (a local computed
        once per body; a number for a literal or when the window fills the dimension)."""
        return self._drive(self._clamped_start(start, hi))

    def _clamped_start(self, start, hi: int):
        if hi <= 0:
            return "0"
        if isinstance(start, Literal):
            return str(min(max(int(start.val), 0), hi))
        key = (start, hi)
        if key not in self.starts:
            value = yield start, self.index((), ())
            self.starts[key] = self.declare(
                "int64_t", f"{local_name(self.names[start])}_at",
                emit_c.clamp_start(value, start.aval.dtype, hi))
        return self.starts[key]


# ---------------------------------------------------------------------------------------
# Index maps: the operand's index for an output index

def _broadcast_in_dim(idx, in_shape, out_shape, *, shape, broadcast_dimensions, sharding):
    if not in_shape:
        return idx.with_dims((), ())
    if tuple(in_shape) == tuple(out_shape) and tuple(broadcast_dimensions) == tuple(
            range(len(out_shape))):
        return idx
    dims = idx.get_dims()
    return idx.with_dims(in_shape, tuple(
        "0" if n == 1 else dims[d] for n, d in zip(in_shape, broadcast_dimensions,
                                                   strict=True)))


def _reshape(idx, in_shape, out_shape, *, new_sizes, dimensions, sharding):
    if dimensions is not None and tuple(dimensions) != tuple(range(len(in_shape))):
        # Transpose first, then reshape: go through the transposed array's flat index.
        t_shape = tuple(in_shape[d] for d in dimensions)
        t_idx = idx.with_flat(t_shape, idx.get_flat())
        return _transpose(t_idx, in_shape, t_shape, permutation=dimensions)
    # Row-major offsets agree between an array and its reshape.
    return idx.with_flat(in_shape, idx.get_flat())


def _squeeze(idx, in_shape, out_shape, *, dimensions):
    return idx.with_flat(in_shape, idx.get_flat()) if idx.flat is not None else \
        _squeeze_dims(idx, in_shape, dimensions)


def _squeeze_dims(idx, in_shape, dimensions):
    it = iter(idx.get_dims())
    return idx.with_dims(in_shape, tuple("0" if d in dimensions else next(it)
                                         for d in range(len(in_shape))))


def _transpose(idx, in_shape, out_shape, *, permutation):
    dims = idx.get_dims()
    src = [None] * len(in_shape)
    for d, p in enumerate(permutation):
        src[p] = dims[d]
    return idx.with_dims(in_shape, tuple(src))


def _rev(idx, in_shape, out_shape, *, dimensions):
    dims = idx.get_dims()
    return idx.with_dims(in_shape, tuple(
        f"({n - 1} - {_atomic(e)})" if d in dimensions else e
        for d, (n, e) in enumerate(zip(in_shape, dims, strict=True))))


def _slice(idx, in_shape, out_shape, *, start_indices, limit_indices, strides):
    dims = idx.get_dims()
    strides = strides or (1,) * len(in_shape)
    out = []
    for e, s, st in zip(dims, start_indices, strides, strict=True):
        term = e if st == 1 else f"{_atomic(e)} * {st}"
        out.append(f"({s} + {term})" if s else term)
    return idx.with_dims(in_shape, tuple(out))


def _copy(idx, in_shape, out_shape):
    return idx


def _tile(idx, in_shape, out_shape, *, reps):
    # The output repeats the operand: its index modulo the operand's shape.
    dims = idx.get_dims()
    return idx.with_dims(in_shape, tuple(
        e if r == 1 else ("0" if n == 1 else f"{_atomic(e)} % {n}")
        for e, n, r in zip(dims, in_shape, reps, strict=True)))


_INDEX_RULES = {structural.broadcast_in_dim_p: _broadcast_in_dim,
                layout.copy_p: _copy, layout.tile_p: _tile,
                structural.reshape_p: _reshape, structural.squeeze_p: _squeeze,
                structural.transpose_p: _transpose, structural.rev_p: _rev,
                slicing.slice_p: _slice}


def _stmt_lines(stmts) -> list:
    out = []
    for comment, ctype, name, expr in stmts:
        if comment:
            out.append(f"/* {comment} */")
        out.append(f"const {ctype} {name} = {expr};")
    return out
