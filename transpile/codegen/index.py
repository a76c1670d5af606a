"""Element indices inside a generated loop nest, and how structural ops move them.

A fused kernel computes each value at an index: the loop's own index, or one derived
from it through ``broadcast_in_dim``, ``transpose``, ``reshape`` and the other
structural primitives. An ``Index`` holds C expressions for it in two forms, per
dimension and flat (row-major offset), and derives whichever is missing on demand; the
statements that derivation needs (a division and a remainder per dimension) go to the
loop body through ``emit``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

__all__ = ["Index", "row_major_strides"]


#: Longest index expression kept inline (characters).
MAX_INDEX_EXPR = 96


def row_major_strides(shape) -> tuple:
    """Element strides of a contiguous row-major array."""
    strides, acc = [], 1
    for d in reversed(shape):
        strides.append(acc)
        acc *= d
    return tuple(reversed(strides))


def _atomic(expr: str) -> str:
    """``expr`` parenthesised unless it is a name, a number or parenthesised already."""
    if expr.replace("_", "a").isalnum():
        return expr
    if expr.startswith("("):
        depth = 0
        for i, c in enumerate(expr):
            depth += (c == "(") - (c == ")")
            if depth == 0:
                if i == len(expr) - 1:
                    return expr
                break
    return f"({expr})"


@dataclass
class Index:
    """A position in an array of ``shape``, as C expressions.

    Parameters
    ----------
    shape : tuple of int
    dims : tuple of str, optional
        One expression per dimension.
    flat : str, optional
        The row-major offset.
    emit : callable
        ``emit(ctype, hint, expr) -> name`` declares a local and returns its name.
    """
    shape: tuple
    dims: tuple | None = None
    flat: str | None = None
    emit: Callable = field(default=None, repr=False)

    def __post_init__(self):
        # Fixed at creation: later derivations add a form but do not change the position.
        self._key = (self.shape, "flat", self.flat) if self.flat is not None else \
            (self.shape, "dims", self.dims)

    def key(self):
        return self._key

    def get_dims(self) -> tuple:
        """Per-dimension expressions (derived from the flat offset when missing)."""
        if self.dims is None:
            if not self.shape:
                self.dims = ()
            elif len(self.shape) == 1:
                self.dims = (self.flat,)
            else:
                strides = row_major_strides(self.shape)
                dims = []
                lead = 1  # the extent of the dimensions before d
                for d, (n, s) in enumerate(zip(self.shape, strides, strict=True)):
                    if n == 1:
                        dims.append("0")
                        continue
                    flat = _atomic(self.flat)
                    expr = flat if s == 1 else f"{flat} / {s}"
                    if lead > 1:  # the leading dimensions' steps need removing
                        expr = f"{_atomic(expr)} % {n}"
                    lead *= n
                    # The flat offset itself (the only non-unit dimension) needs no local.
                    dims.append(expr if expr == self.flat else
                                self.emit("int64_t", f"q{d}", expr))
                self.dims = tuple(dims)
        return self.dims

    def get_flat(self) -> str:
        """The row-major offset (composed from the dimensions when missing)."""
        if self.flat is None:
            terms = []
            for e, s, n in zip(self.dims, row_major_strides(self.shape), self.shape,
                               strict=True):
                if n == 1 or e == "0":
                    continue
                terms.append(e if s == 1 else f"{_atomic(e)} * {s}")
            self.flat = " + ".join(terms) if terms else "0"
        return self.flat

    def with_dims(self, shape, dims) -> "Index":
        """Another array's index given per dimension (a long expression, such as a
        chain of reversals composes, bound to a local first: its text would otherwise
        grow with every index map and nest as deep as the chain is long)."""
        if self.emit is not None:
            dims = [self.emit("int64_t", "ix", e) if len(e) > MAX_INDEX_EXPR else e
                    for e in dims]
        return Index(tuple(shape), tuple(dims), None, self.emit)

    def with_flat(self, shape, flat) -> "Index":
        """Another array's index with the same row-major offset."""
        return Index(tuple(shape), None, flat, self.emit)
