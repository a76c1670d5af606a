"""A small Wadler/Lindig-style document printer, the layout engine of the jaxpr printer.

A document is text, breaks, concatenations, nesting and groups. A group prints flat
(its breaks as their text) when the group alone fits in what remains of the line, and
otherwise turns each of its own breaks into a newline at the current indentation.
Breaks outside any group are newlines.
"""
from __future__ import annotations

__all__ = ["Doc", "text", "brk", "concat", "group", "nest", "join", "nil", "render"]


class Doc:
    """A document; its subclasses are plain slotted classes (built thousands of times
    per printed jaxpr: frozen dataclasses cost twice as much to construct)."""
    __slots__ = ()

    def __add__(self, other: "Doc") -> "Doc":
        return Concat((self, other))

    def __str__(self) -> str:
        return render(self)

    def __eq__(self, other) -> bool:
        return type(self) is type(other) and all(
            getattr(self, f) == getattr(other, f) for f in self.__slots__)

    def __hash__(self) -> int:
        return hash((type(self), *(getattr(self, f) for f in self.__slots__)))

    def __repr__(self) -> str:
        fields = ", ".join(repr(getattr(self, f)) for f in self.__slots__)
        return f"{type(self).__name__}({fields})"


class Text(Doc):
    __slots__ = ("s",)

    def __init__(self, s: str):
        self.s = s


class Break(Doc):
    __slots__ = ("s",)

    def __init__(self, s: str):
        self.s = s


class Concat(Doc):
    __slots__ = ("parts",)

    def __init__(self, parts: tuple):
        self.parts = parts


class Group(Doc):
    __slots__ = ("child",)

    def __init__(self, child: Doc):
        self.child = child


class Nest(Doc):
    __slots__ = ("n", "child")

    def __init__(self, n: int, child: Doc):
        self.n = n
        self.child = child


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
        t = type(d)
        if t is Text or t is Break:
            width -= len(d.s)
        elif t is Concat:
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
        t = type(d)
        if t is Text:
            line.append(d.s)
            col += len(d.s)
        elif t is Break:
            if flat:
                line.append(d.s)
                col += len(d.s)
            else:
                lines.append("".join(line))
                line = [" " * indent]
                col = indent
        elif t is Concat:
            stack.extend([(indent, flat, p) for p in reversed(d.parts)])
        elif t is Nest:
            stack.append((indent + d.n, flat, d.child))
        else:  # Group
            stack.append((indent, flat or _fits(d.child, width - col), d.child))
    lines.append("".join(line))
    return "\n".join(lines)
