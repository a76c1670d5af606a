"""A small Wadler/Lindig-style document printer, the layout engine of the jaxpr printer.

A document is text, breaks, concatenations, nesting and groups. A group prints flat
(its breaks as their text) when the group alone fits in what remains of the line, and
otherwise turns each of its own breaks into a newline at the current indentation.
Breaks outside any group are newlines.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Doc", "text", "brk", "concat", "group", "nest", "join", "nil", "render"]


class Doc:
    def __add__(self, other: "Doc") -> "Doc":
        return Concat((self, other))

    def __str__(self) -> str:
        return render(self)


@dataclass(frozen=True)
class Text(Doc):
    s: str


@dataclass(frozen=True)
class Break(Doc):
    s: str


@dataclass(frozen=True)
class Concat(Doc):
    parts: tuple


@dataclass(frozen=True)
class Group(Doc):
    child: Doc


@dataclass(frozen=True)
class Nest(Doc):
    n: int
    child: Doc


_NIL = Concat(())


def nil() -> Doc:
    return _NIL


def text(s: str) -> Doc:
    return Text(s)


def brk(s: str = " ") -> Doc:
    return Break(s)


def concat(parts) -> Doc:
    return Concat(tuple(parts))


def group(d: Doc) -> Doc:
    return Group(d)


def nest(n: int, d: Doc) -> Doc:
    return Nest(n, d)


def join(sep: Doc, docs) -> Doc:
    docs = list(docs)
    out: list = []
    for i, d in enumerate(docs):
        if i:
            out.append(sep)
        out.append(d)
    return Concat(tuple(out))


def _fits(doc: Doc, width: int) -> bool:
    stack = [doc]
    while width >= 0 and stack:
        d = stack.pop()
        if isinstance(d, (Text, Break)):
            width -= len(d.s)
        elif isinstance(d, Concat):
            stack.extend(reversed(d.parts))
        else:  # Group, Nest: flat mode ignores both
            stack.append(d.child)
    return width >= 0


def render(doc: Doc, width: int = 80) -> str:
    """Lay ``doc`` out in ``width`` columns."""
    lines: list[str] = []
    line: list[str] = []
    col = 0
    stack = [(0, False, doc)]  # (indent, flat, doc)
    while stack:
        indent, flat, d = stack.pop()
        if isinstance(d, Text):
            line.append(d.s)
            col += len(d.s)
        elif isinstance(d, Break):
            if flat:
                line.append(d.s)
                col += len(d.s)
            else:
                lines.append("".join(line))
                line = [" " * indent]
                col = indent
        elif isinstance(d, Concat):
            for p in reversed(d.parts):
                stack.append((indent, flat, p))
        elif isinstance(d, Nest):
            stack.append((indent + d.n, flat, d.child))
        else:  # Group
            stack.append((indent, flat or _fits(d.child, width - col), d.child))
    lines.append("".join(line))
    return "\n".join(lines)
