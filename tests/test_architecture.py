"""The layered import architecture (docs/ARCHITECTURE.md): every module of ``transpile/``
sits in one layer and imports, at module top only, from its own layer or lower ones.

The import graph is built from the source with ``ast`` (nothing is imported), so a test
failure names the offending module, line and edge. Upper layers reach lower ones through
tables and hooks they fill at import; ``test_every_hook_is_filled_by_import_transpile``
checks that ``import transpile`` fills them all.
"""
from __future__ import annotations

import ast
import os
import sys
from dataclasses import dataclass, field

import pytest

import transpile
from transpile import core, dispatch, export, stages
from transpile.backend import load
from transpile.interpreters import ad, batching
from transpile.lax import _base, call, elementwise, slicing, structural
from transpile.lax import callbacks as lax_callbacks
from transpile.numpy import index_funcs, ufuncs_compound

jit_module = sys.modules["transpile.jit"]  # ``transpile.jit`` is also the function

PACKAGE_DIR = os.path.dirname(os.path.abspath(transpile.__file__))

#: Dotted-name prefix -> layer, bottom (0) to top (10). A module belongs to the layer of
#: its longest matching prefix (``transpile.lax`` covers ``transpile.lax.keys``); the
#: package ``__init__`` is ``transpile`` itself. A new module must be placed here.
LAYERS = {
    # 0 foundation
    "transpile.errors": 0, "transpile.config": 0, "transpile.pretty": 0,
    "transpile.resources": 0, "transpile.tree_util": 0, "transpile.dtypes": 0,
    "transpile.version": 0, "transpile.abi": 0, "transpile.tree": 0,
    # 1 IR core
    "transpile.core": 1, "transpile.ir": 1,
    # 2 values and devices
    "transpile.array": 2, "transpile.array_interop": 2, "transpile.devices": 2, "transpile.sharding": 2, "transpile.placement": 2,
    "transpile.memory": 2,
    # 3 interpreters
    "transpile.interpreters": 3,
    # 4 primitives
    "transpile.lax": 4,
    # 5 passes
    "transpile.passes": 5,
    # 6 codegen
    "transpile.codegen": 6,
    # 7 backend
    "transpile.backend": 7,
    # 8 glue
    "transpile.dispatch": 8, "transpile.stages": 8, "transpile.jit": 8,
    "transpile.call_keys": 8, "transpile.jit_args": 8, "transpile.eager_kernels": 8,
    "transpile.export": 8, "transpile.autodiff": 8, "transpile.vmapping": 8,
    "transpile.shard_map": 8, "transpile.pmap": 8,
    "transpile.custom_derivatives": 8, "transpile.callbacks": 8,
    "transpile.checkpoint_policies": 8, "transpile.float_checks": 8,
    "transpile.distributed": 8, "transpile.first_call": 8,
    # 9 libraries
    "transpile.numpy": 9, "transpile.random": 9, "transpile.nn": 9,
    "transpile.scipy": 9, "transpile.example_libraries": 9,
    "transpile.ops": 9, "transpile.flatten_util": 9, "transpile.typing": 9,
    "transpile.image": 9,
    # 10 surface
    "transpile": 10, "transpile.api": 10, "transpile.debug": 10,
    "transpile.experimental": 10, "transpile.__main__": 10,
    "transpile.api_extra": 10, "transpile.test_util": 10, "transpile.debugger": 10,
    "transpile.monitoring": 0, "transpile.config_flags": 0, "transpile.api_more": 10,
    "transpile.profiler": 10, "transpile.dlpack": 10, "transpile.custom_batching": 8,
}

#: Import cycles (strongly connected components of more than one module) that are
#: tolerated, each a frozenset of module names with the reason. Only modules of one
#: layer may form one. Empty: the graph is acyclic.
ALLOWED_CYCLES: dict = {}

_IMPORTERS = {"import_module", "__import__"}


def layer_of(module: str, layers: dict = LAYERS) -> int:
    """The layer of ``module`` (longest matching prefix of ``layers``).

    Raises
    ------
    KeyError
        When no prefix matches: the module has not been placed in a layer.
    """
    best = None
    for prefix in layers:
        if (module == prefix or module.startswith(prefix + ".")) and \
                (best is None or len(prefix) > len(best)):
            best = prefix
    # the package itself (a prefix without a dot) places its ``__init__`` only
    if best is None or ("." not in best and module != best):
        raise KeyError(f"{module} is in no layer: add it to LAYERS in "
                       "tests/test_architecture.py (and to docs/ARCHITECTURE.md)")
    return layers[best]


@dataclass
class Edge:
    src: str
    dst: str
    line: int
    local: bool  # inside a function or class body, not at module top

    def __str__(self) -> str:
        where = "function-local import" if self.local else "import"
        return f"{self.src} -> {self.dst} ({where}, line {self.line})"


@dataclass
class Graph:
    modules: dict = field(default_factory=dict)       # name -> path
    edges: list = field(default_factory=list)          # of Edge
    dynamic: list = field(default_factory=list)        # (module, line, text)


def _module_names(root: str, package: str) -> dict:
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for f in sorted(filenames):
            if not f.endswith(".py"):
                continue
            path = os.path.join(dirpath, f)
            parts = [package] + os.path.relpath(path, root)[:-3].split(os.sep)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _type_checking_nodes(tree) -> set:
    """ids of the nodes under ``if TYPE_CHECKING:`` (type hints only, never run)."""
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for stmt in node.body:
                skip.update(id(n) for n in ast.walk(stmt))
    return skip


def _local_nodes(tree) -> set:
    """ids of the nodes inside a function, lambda or class body."""
    local = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                             ast.ClassDef)):
            for child in ast.iter_child_nodes(node):
                local.update(id(n) for n in ast.walk(child))
    return local


def _targets(module: str, is_package: bool, node, modules: dict, package: str) -> list:
    """The modules an import statement loads: ``from pkg import sub`` is ``pkg.sub``
    when ``sub`` is a module, else ``pkg``; relative imports resolved."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        if node.level:
            base = module.split(".") if is_package else module.split(".")[:-1]
            base = base[:len(base) - (node.level - 1)]
            origin = ".".join(base + ([node.module] if node.module else []))
        else:
            origin = node.module or ""
        names = [f"{origin}.{a.name}" if f"{origin}.{a.name}" in modules else origin
                 for a in node.names]
    out = []
    for name in names:
        if name != package and not name.startswith(package + "."):
            continue
        while name not in modules and "." in name:  # an attribute, not a module
            name = name.rsplit(".", 1)[0]
        out.append(name)
    return out


def _dynamic_target(call: ast.Call, package: str):
    """The source text of an ``importlib.import_module``/``__import__`` call that loads
    a module of ``package`` (a literal or f-string naming it, or a relative name)."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if name not in _IMPORTERS or not call.args:
        return None
    arg = call.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        text = arg.value
    elif isinstance(arg, ast.JoinedStr):
        text = ast.unparse(arg)[2:-1]
        if "{__name__}" in text or "{__package__}" in text:
            return ast.unparse(call)
    else:
        return None  # a name computed at run time (the CLI's user module)
    if text.startswith(package) or text.startswith("."):
        return ast.unparse(call)
    return None


def build_graph(root: str = PACKAGE_DIR, package: str = "transpile") -> Graph:
    """The import graph of the package in ``root``, from its source."""
    g = Graph(modules=_module_names(root, package))
    for module, path in g.modules.items():
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        skip, local = _type_checking_nodes(tree), _local_nodes(tree)
        is_package = path.endswith("__init__.py")
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in skip:
                for dst in _targets(module, is_package, node, g.modules, package):
                    if dst != module:
                        g.edges.append(Edge(module, dst, node.lineno, id(node) in local))
            elif isinstance(node, ast.Call):
                text = _dynamic_target(node, package)
                if text is not None:
                    g.dynamic.append((module, node.lineno, text))
    return g


def strongly_connected(modules, edges) -> list:
    """The strongly connected components of more than one module (Tarjan)."""
    succ = {m: sorted({e.dst for e in edges if e.src == m}) for m in modules}
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(modules) + 100))

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in succ.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(frozenset(comp))

    for m in sorted(modules):
        if m not in index:
            visit(m)
    return out


def problems(graph: Graph, layers: dict = LAYERS, allowed_cycles: dict = ALLOWED_CYCLES):
    """Every breach of the layering, as readable lines (empty when there is none)."""
    out = []
    placed = {}
    for m in sorted(graph.modules):
        try:
            placed[m] = layer_of(m, layers)
        except KeyError as e:
            out.append(f"unplaced module: {e.args[0]}")
    for e in graph.edges:
        if e.local:
            out.append(f"function-local import of a package module: {e}")
        if e.src in placed and e.dst in placed and placed[e.dst] > placed[e.src]:
            out.append(f"upward import, layer {placed[e.src]} -> {placed[e.dst]}: {e}")
    for module, line, text in graph.dynamic:
        out.append(f"importlib of a package module: {module} line {line}: {text}")
    cycles = strongly_connected(graph.modules, graph.edges)
    for comp in cycles:
        if comp not in allowed_cycles:
            inner = sorted(str(e) for e in graph.edges if e.src in comp and e.dst in comp)
            out.append(f"import cycle {sorted(comp)}: " + "; ".join(inner))
    for comp in allowed_cycles:
        if comp not in cycles:
            out.append(f"ALLOWED_CYCLES lists {sorted(comp)}, which is no longer a cycle: "
                       "remove it")
        if len({placed.get(m) for m in comp}) != 1:
            out.append(f"ALLOWED_CYCLES lists {sorted(comp)}, which spans layers")
    return out


# ---------------------------------------------------------------------------------------
# The package itself

def test_the_package_keeps_its_layers():
    graph = build_graph()
    assert len(graph.modules) > 100  # the walk found the package
    found = problems(graph)
    assert not found, "\n".join(found)


def test_the_graph_sees_known_edges():
    # A few edges read off the source by hand: relative, absolute, ``from pkg import
    # submodule`` and package-level imports.
    graph = build_graph()
    edges = {(e.src, e.dst) for e in graph.edges}
    assert ("transpile.dispatch", "transpile.stages") in edges  # from . import core, stages
    assert ("transpile.codegen.plan", "transpile.lax.contraction") in edges  # from ..lax import
    assert ("transpile.lax.keys", "transpile.lax.prng") in edges  # from .prng import name
    assert ("transpile.__main__", "transpile.numpy") in edges  # import transpile.numpy as jnp
    assert ("transpile.__main__", "transpile") in edges
    assert ("transpile.backend.cache", "transpile.backend.build") not in edges  # TYPE_CHECKING
    assert layer_of("transpile.lax.keys") == 4 and layer_of("transpile") == 10
    assert layer_of("transpile.memory.cuda_runtime") == 2


def test_every_hook_is_filled_by_import_transpile():
    # Upper layers reach down through these; ``import transpile`` must fill them all.
    assert core.eager_apply is dispatch.apply_primitive
    assert core.index_in_dim is slicing.index_in_dim
    assert call.internal_jit is jit_module.internal_jit
    assert jit_module.jit_p is call.jit_p and call.jit_p.impl is not None
    assert transpile.random.random_gamma_p in call.EXPANSIONS
    assert stages.export_lowering is export.export_lowering
    assert load.host_function is lax_callbacks.host_function
    assert ad.add_any_p is elementwise.add_any_p
    assert ad.full is structural.full
    assert ad.broadcast_in_dim_p is structural.broadcast_in_dim_p
    assert batching.transpose is structural.transpose
    assert batching.broadcast_in_dim_p is structural.broadcast_in_dim_p
    assert batching.expand_dims is structural.expand_dims
    assert ufuncs_compound._nonzero is index_funcs.nonzero
    assert core.pvary is not None and transpile.lax.pvary_p in core.vma_rules
    api = _base.numpy_api
    for name in ("asarray", "concatenate", "reshape", "stack", "add", "true_divide"):
        assert getattr(api, name) is getattr(transpile.numpy, name), name
    assert api.ensure_array is transpile.numpy._util.ensure_array
    from transpile.lax import sharding_ops
    from transpile.sharding import constraints
    assert constraints._constrain[0] is sharding_ops.sharding_constraint


# ---------------------------------------------------------------------------------------
# The checker on small made-up packages: it finds each kind of breach

_TOY_LAYERS = {"toy.low": 0, "toy.mid": 1, "toy.high": 2, "toy": 2}


def _toy(tmp_path, files: dict) -> Graph:
    root = tmp_path / "toy"
    for name, text in {"__init__.py": "", **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return build_graph(str(root), "toy")


def test_a_clean_toy_package_has_no_problems(tmp_path):
    g = _toy(tmp_path, {"low.py": "import os\n", "mid.py": "from . import low\n",
                        "high.py": "from .mid import x\nfrom toy import low\n"
                                   "from typing import TYPE_CHECKING\n"
                                   "if TYPE_CHECKING:\n    from . import high\n"})
    assert problems(g, _TOY_LAYERS, {}) == []
    assert {(e.src, e.dst) for e in g.edges} == {("toy.mid", "toy.low"),
                                                ("toy.high", "toy.mid"),
                                                ("toy.high", "toy.low")}


def test_an_upward_import_is_named(tmp_path):
    g = _toy(tmp_path, {"low.py": "from .high import f\n", "high.py": "def f(): pass\n"})
    assert problems(g, _TOY_LAYERS, {}) == [
        "upward import, layer 0 -> 2: toy.low -> toy.high (import, line 1)"]


def test_a_function_local_import_is_named(tmp_path):
    g = _toy(tmp_path, {"low.py": "", "high.py": "def f():\n    from . import low\n"
                                                 "    import json\n"})
    assert problems(g, _TOY_LAYERS, {}) == [
        "function-local import of a package module: "
        "toy.high -> toy.low (function-local import, line 2)"]


def test_importlib_of_a_package_module_is_named(tmp_path):
    g = _toy(tmp_path, {"low.py": "", "high.py": (
        "import importlib\nm = importlib.import_module('toy.low')\n"
        "n = __import__(f'{__name__}.low')\n"
        "def user(name):\n    return importlib.import_module(name)\n")})
    found = problems(g, _TOY_LAYERS, {})
    assert found == [
        "importlib of a package module: toy.high line 2: importlib.import_module('toy.low')",
        "importlib of a package module: toy.high line 3: __import__(f'{__name__}.low')"]


def test_a_cycle_is_named_unless_allowed(tmp_path):
    g = _toy(tmp_path, {"mid.py": "from . import high\n", "high.py": "from . import mid\n"})
    found = problems(g, {"toy.mid": 2, "toy.high": 2, "toy": 2}, {})
    assert found == ["import cycle ['toy.high', 'toy.mid']: "
                     "toy.high -> toy.mid (import, line 1); toy.mid -> toy.high (import, line 1)"]
    allowed = {frozenset({"toy.mid", "toy.high"}): "a reason"}
    assert problems(g, {"toy.mid": 2, "toy.high": 2, "toy": 2}, allowed) == []
    stale = {frozenset({"toy.low", "toy.mid"}): "gone"}
    assert any("no longer a cycle" in p for p in problems(g, _TOY_LAYERS, stale))


def test_a_module_not_in_the_layer_table_fails(tmp_path):
    g = _toy(tmp_path, {"low.py": "", "extra/__init__.py": "", "extra/new.py": ""})
    found = problems(g, _TOY_LAYERS, {})
    assert len(found) == 2 and all(p.startswith("unplaced module: ") for p in found)
    assert "toy.extra.new is in no layer" in found[1]
    with pytest.raises(KeyError, match="transpile.brand_new is in no layer"):
        layer_of("transpile.brand_new")
