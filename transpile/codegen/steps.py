"""The entry point's body: the step list of a ``Program`` (``control.py``: kernel calls,
copies, fills, views, pointer swaps, host callbacks, and the nested ``switch``,
``while`` and ``for`` of control flow) as indented C statement lines.

``templates/c/entry.j2`` keeps only the entry's shape (prototype, workspace, FTZ
begin/end, these lines, return). For CUDA (``cuda=True``) kernels take the stream last,
copies and fills are queued on it, and a loop predicate or branch index that lives in
device memory is read back with ``tp_load``.
"""
from __future__ import annotations

__all__ = ["step_lines"]

_INDENT = "    "


def step_lines(steps: list, cuda: bool = False, indent: str = _INDENT) -> list:
    """The C statements running ``steps`` (call steps already given ``name`` and
    ``args``: ``render._steps_view``), each line indented by ``indent`` and nesting.

    Parameters
    ----------
    steps : list of dict
    cuda : bool
        Render for the CUDA entry point (see the module docstring).
    indent : str
        The indentation of the outermost statements.

    Returns
    -------
    list of str
    """
    out: list = []
    for s in steps:
        _step(s, cuda, indent, out)
    return out


def _step(s: dict, cuda: bool, ind: str, out: list) -> None:
    kind = s["kind"]
    if kind == "call":
        args = list(s["args"]) + (["tp_stream"] if cuda else [])
        out.append(f"{ind}{s['name']}({', '.join(args)});")
    elif kind in ("copy", "copy_if") and cuda:
        guard = f"if ({s['dst']} != {s['src']}) " if kind == "copy_if" else ""
        out.append(f"{ind}{guard}tp_copy({s['dst']}, {s['src']}, {s['count']}, tp_stream);")
    elif kind in ("store", "fill") and cuda:
        out.append(f"{ind}tp_fill({s['dst']}, ({s['ctype']}){s['value']}, "
                   f"{s.get('count', 1)}, tp_stream);")
    elif kind == "copy":
        if s["count"] == 1:
            out.append(f"{ind}{s['dst']}[0] = {s['src']}[0];")
        else:
            out.append(f"{ind}memcpy({s['dst']}, {s['src']}, "
                       f"(size_t){s['count']} * sizeof({s['ctype']}));")
    elif kind == "store":
        out.append(f"{ind}{s['dst']}[0] = {s['value']};")
    elif kind == "fill":
        out.append(f"{ind}for (int64_t k = 0; k < {s['count']}; k++) "
                   f"{s['dst']}[k] = {s['value']};")
    elif kind == "view":
        const = "" if s["writable"] else "const "
        out.append(f"{ind}{const}{s['ctype']} *{s['name']} = {s['base']} + {s['offset']};")
    elif kind == "pointer":
        out.append(f"{ind}{s['ctype']} *{s['name']} = {s['init']};")
    elif kind == "swap":
        out.append(f"{ind}{{ {s['ctype']} *tp_t = {s['a']}; {s['a']} = {s['b']}; "
                   f"{s['b']} = tp_t; }}")
    elif kind == "copy_if":
        out.append(f"{ind}if ({s['dst']} != {s['src']}) memcpy({s['dst']}, {s['src']}, "
                   f"(size_t){s['count']} * sizeof({s['ctype']}));")
    elif kind == "host":
        _host(s, ind, out)
    elif kind == "block":
        for sub in s["steps"]:
            _step(sub, cuda, ind, out)
    elif kind == "switch":
        _switch(s, cuda, ind, out)
    elif kind == "while":
        out.append(f"{ind}/* {s['comment']} */")
        out.append(f"{ind}for (;;) {{")
        out.extend(step_lines(s["cond"], cuda, ind + _INDENT))
        pred = f"tp_load({s['pred_buf']}, tp_stream)" if cuda and s.get("pred_buf") \
            else s["pred"]
        out.append(f"{ind}{_INDENT}if (!({pred})) break;")
        out.extend(step_lines(s["body"], cuda, ind + _INDENT))
        out.append(f"{ind}}}")
    elif kind == "for":
        c, n = s["counter"], s["length"]
        out.append(f"{ind}/* {s['comment']} */")
        out.append(f"{ind}for (int64_t {c} = 0; {c} < {n}; {c}++) {{")
        if s.get("index"):
            value = f"{n - 1} - {c}" if s["reverse"] else c
            out.append(f"{ind}{_INDENT}const int64_t {s['index']} = {value};")
        out.extend(step_lines(s["body"], cuda, ind + _INDENT))
        out.append(f"{ind}}}")
    else:
        raise ValueError(f"unknown entry step kind {kind!r}")


def _host(s: dict, ind: str, out: list) -> None:
    """A call back into Python; a failure leaves the entry with status 1 (FTZ restored)."""
    inner = ind + _INDENT
    out.append(f"{ind}/* {s['comment']} */")
    out.append(f"{ind}{{")
    out.extend(f"{inner}{d}" for d in s["decls"])
    out.append(f"{inner}void *tp_in[] = {{ {', '.join(s['ins']) if s['ins'] else '0'} }};")
    out.append(f"{inner}void *tp_out[] = {{ {', '.join(s['outs']) if s['outs'] else '0'} }};")
    out.append(f"{inner}if (tp_host({s['id']}, tp_in, tp_out) != 0) {{")
    out.append(f"{inner}{_INDENT}tp_ftz_end(tp_csr);")
    out.append(f"{inner}{_INDENT}return 1;")
    out.append(f"{inner}}}")
    out.append(f"{ind}}}")


def _switch(s: dict, cuda: bool, ind: str, out: list) -> None:
    """``cond``: two branches as if/else, more as a switch on the clamped index."""
    out.append(f"{ind}/* {s['comment']} */")
    ix = s["index"]
    if cuda and s.get("index_buf"):
        out.append(f"{ind}const int64_t {s['index_local']} = "
                   f"(int64_t)tp_load({s['index_buf']}, tp_stream);")
        ix = s["index_local"]
    cases = s["cases"]
    inner = ind + _INDENT
    if len(cases) == 2:
        out.append(f"{ind}if ({ix} > 0) {{")
        out.extend(step_lines(cases[1], cuda, inner))
        out.append(f"{ind}}} else {{")
        out.extend(step_lines(cases[0], cuda, inner))
        out.append(f"{ind}}}")
        return
    last = len(cases) - 1
    out.append(f"{ind}switch ({ix} < 0 ? 0 : {ix} > {last} ? {last} : {ix}) {{")
    for i, case in enumerate(cases):
        out.append(f"{ind}case {i}: {{")
        out.extend(step_lines(case, cuda, inner))
        out.append(f"{ind}{_INDENT}break;")
        out.append(f"{ind}}}")
    out.append(f"{ind}}}")
