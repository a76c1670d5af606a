"""Command line: ``python -m transpile demo`` and ``python -m transpile cache info|clear``.

``demo`` walks through tracing: a jaxpr, the tracer a jitted function sees, the retrace
rule, a sharp edge and its remedy, and an eager-versus-jit timing. ``cache info`` lists
the compiled libraries in the cache (``TRANSPILE_CACHE_DIR``); ``cache clear`` removes them.
"""
from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import os
import re
import sys
import time

# (``python -m transpile`` has imported the package already: these cost nothing)
import transpile
import transpile as jax
import transpile.numpy as jnp
from transpile import ShapeDtypeStruct, dtypes
from transpile.backend import cache, cache_dir, cache_listing
from transpile.jit import JitWrapped


def _median_time(fn, *args, repeat: int = 7, number: int = 20) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn(*args)
        times.append((time.perf_counter() - t0) / number)
    times.sort()
    return times[len(times) // 2]


def demo(out=sys.stdout) -> None:
    """Print the walk-through."""
    import os
    from pathlib import Path
    # Run from a checkout, the demo shares the repository's build_cache/ with the tests.
    local = Path.cwd() / "build_cache"
    if "TRANSPILE_CACHE_DIR" not in os.environ and local.is_dir():
        os.environ["TRANSPILE_CACHE_DIR"] = str(local)

    def say(*a):
        print(*a, file=out)

    say("transpile demo: trace Python into a jaxpr, then run it\n")

    def selu(x, alpha=1.67, lmbda=1.05):
        return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)

    x = jnp.arange(5.0)
    say("1. make_jaxpr(selu)(jnp.arange(5.0)):")
    say(jax.make_jaxpr(selu)(x))

    say("\n2. Inside jit, arguments are tracers standing for every array of a shape:")

    @jax.jit
    def show(v):
        say("   traced with", v)
        return v * 2

    show(x)
    show(x + 1)  # same shape and dtype: no retrace, nothing printed
    say("   (a second call with the same shape and dtype did not retrace)")
    show(jnp.ones(3))

    say("\n3. Sharp edge: Python control flow on a traced value fails under jit:")

    @jax.jit
    def f(v):
        if v > 0:
            return v
        return -v

    try:
        f(2.0)
    except jax.errors.TracerBoolConversionError as e:
        say("   TracerBoolConversionError:", str(e).splitlines()[0])
    say("   remedies: jnp.where(v > 0, v, -v); static_argnums for Python values; or")
    say("   lax.cond, whose branches are traced once and chosen at run time:")

    @jax.jit
    def g(v):
        return jax.lax.cond(v > 0, lambda v: v, lambda v: -v, v)

    say(f"   g(2.0) = {float(g(2.0))}, g(-3.0) = {float(g(-3.0))}; in C, an if around "
        "kernels:")
    text = g.lower(2.0).as_text()
    entry = text[text.index("int jit_g("):]
    say("   " + entry.rstrip().replace("\n", "\n   "))

    say("\n4. jit fuses the whole function into one C loop; here is the kernel:")
    small = jax.jit(selu).lower(jnp.arange(5.0)).as_text()
    kernel = small[small.index("static void"):small.index("/* Bytes of workspace")]
    say("   " + kernel.strip().replace("\n", "\n   "))

    say("\n5. Eager (op by op, NumPy) versus jit (compiled C) on 1,000,000 float32:")
    big = jnp.ones(1_000_000)
    jselu = jax.jit(selu)
    jselu(big).block_until_ready()
    t_eager = _median_time(lambda v: selu(v).block_until_ready(), big)
    t_jit = _median_time(lambda v: jselu(v).block_until_ready(), big)
    say(f"   eager {t_eager * 1e3:.3f} ms, jit {t_jit * 1e3:.3f} ms per call "
        f"({t_eager / t_jit:.1f}x)")
    say(f"\nCompiled libraries are cached in {cache_dir()} "
        "(python -m transpile cache info).")


def cache_command(action: str, out=None) -> None:
    """Run ``cache info`` or ``cache clear``, printing to ``out`` (default: stdout)."""

    out = sys.stdout if out is None else out  # looked up now, so capture works
    if action == "info":
        print(cache_listing.info_text(), file=out)
    else:
        try:
            removed = cache.clear()
        except cache.NotACacheError as e:
            raise UsageError(str(e)) from None
        noun = "entry" if removed == 1 else "entries"
        print(f"removed {removed} {noun} from {cache.cache_dir()}", file=out)


_ABSTRACT = re.compile(r"^(bool|[fiu](?:8|16|32|64)|key<fry>)\[([0-9, ]*)\]$")


def parse_abstract_arg(text: str):
    """``f32[100,3]`` (jaxpr type syntax) as a ``ShapeDtypeStruct``.

    Raises
    ------
    ValueError
        If ``text`` is not such a type.
    """
    m = _ABSTRACT.match(text.replace(" ", ""))
    if not m:
        raise ValueError(f"--arg {text!r}: expected a type such as f32[100,3], i32[] or "
                         "bool[4]")
    import numpy as np
    kind, dims = m.groups()
    shape = tuple(int(d) for d in dims.split(",") if d) if dims else ()
    if kind == "key<fry>":
        dt = dtypes.KEY_FRY
    elif kind == "bool":
        dt = np.dtype(np.bool_)
    else:
        dt = np.dtype({"f": "float", "i": "int", "u": "uint"}[kind[0]] + kind[1:])
    return ShapeDtypeStruct(shape, dt)


class UsageError(Exception):
    """A mistake on the command line: printed as one line, exit status 2."""


def _find_function(target: str):
    if ":" not in target:
        raise UsageError(f"expected module:function, got {target!r}")
    mod_name, fn_name = target.split(":", 1)
    sys.path.insert(0, os.getcwd())
    try:
        fn = importlib.import_module(mod_name)
    except ImportError as e:
        raise UsageError(f"cannot import module {mod_name!r}: {e}") from None
    for part in fn_name.split("."):
        if not hasattr(fn, part):
            raise UsageError(f"{target!r}: module {mod_name!r} has no function "
                             f"{fn_name!r}")
        fn = getattr(fn, part)
    if not callable(fn):
        raise UsageError(f"{target!r} is not a function")
    return fn, fn_name


def export_command(target: str, arg_types: list, statics: list, out_dir: str | None,
                   name: str | None, force: bool = False) -> None:
    """``python -m transpile export module:function --arg f32[3] ... -o DIR``.

    Raises
    ------
    UsageError
        For a target that does not name a function, a malformed ``--arg`` or
        ``--static``, arguments the function does not take, a bad name, or a file the
        export would overwrite.
    """
    fn, fn_name = _find_function(target)
    kwargs = {}
    for item in statics:
        key, eq, text = item.partition("=")
        if not eq or not key.isidentifier():
            raise UsageError(f"--static {item!r}: expected NAME=VALUE, such as n=4")
        try:
            kwargs[key] = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            kwargs[key] = text
    try:
        args = [parse_abstract_arg(t) for t in arg_types]
    except ValueError as e:
        raise UsageError(str(e)) from None
    name = name or fn_name.split(".")[-1]
    try:
        transpile.export.check_name(name)
    except ValueError as e:
        raise UsageError(f"{e} (choose another with --name)") from None
    jitted = fn if isinstance(fn, JitWrapped) else \
        transpile.jit(fn, static_argnames=tuple(kwargs))
    try:
        inspect.signature(fn).bind(*args, **kwargs)
    except TypeError as e:
        raise UsageError(f"{target} takes other arguments than given ({e}); give one "
                         "--arg per positional parameter") from None
    except ValueError:
        pass  # no signature to check against (a builtin): tracing reports problems
    try:
        exported = transpile.export_c(jitted, *args, name=name, out_dir=out_dir,
                                      force=force, **kwargs)
    except FileExistsError as e:
        raise UsageError(str(e).removeprefix("export: ")) from None
    except (TypeError, ValueError) as e:  # the function rejects the given argument types
        first = (str(e).strip().splitlines() or [""])[0]
        raise UsageError(f"{target} at the given --arg types: {type(e).__name__}: "
                         f"{first}") from None
    for f in exported.files:
        print(f)


def main(argv=None) -> int:
    """Entry point of ``python -m transpile``."""
    parser = argparse.ArgumentParser(prog="python -m transpile")
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("demo", help="print a short walk-through of tracing and jit")
    cache_parser = sub.add_parser("cache", help="list or clear the compiled-library cache")
    cache_parser.add_argument("action", choices=("info", "clear"))
    exp = sub.add_parser("export", help="write a function as standalone C (NAME.c, NAME.h)")
    exp.add_argument("target", help="module:function")
    exp.add_argument("--arg", action="append", default=[], metavar="TYPE",
                     help="an argument's type, as jaxprs print them: f32[100,3], i32[]")
    exp.add_argument("--static", action="append", default=[], metavar="NAME=VALUE",
                     help="a static keyword argument (a Python literal)")
    exp.add_argument("-o", "--out-dir", default=None,
                     help="where to write the files (default: a new folder NAME)")
    exp.add_argument("--name", default=None, help="the C name (default: the function's)")
    exp.add_argument("--force", action="store_true",
                     help="replace files in the folder that transpile did not write")
    args = parser.parse_args(argv)
    try:
        if args.cmd == "demo":
            demo()
        elif args.cmd == "cache":
            cache_command(args.action)
        elif args.cmd == "export":
            export_command(args.target, args.arg, args.static, args.out_dir, args.name,
                           args.force)
    except UsageError as e:
        print(f"{parser.prog} {args.cmd}: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
