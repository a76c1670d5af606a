"""The templates compiled ahead of time (transpile/codegen/template_cache.py): current,
used, passed over once stale, and rendering what the sources render."""
from __future__ import annotations

import hashlib
import io
import pickle
import shutil
import zipfile

import jinja2
import jinja2.bccache
import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import lax
from transpile.codegen import render, template_cache
from transpile.codegen.plan import plan_program
from transpile.codegen.render import render_module
from transpile.passes import optimize
from transpile.resources import templates_dir


def _entries(archive) -> dict:
    with zipfile.ZipFile(archive) as z:
        return {n: z.read(n) for n in z.namelist()}


@pytest.mark.parametrize("target", render.TARGETS)
def test_the_shipped_archives_match_the_templates(target):
    archive = template_cache.archive_path(templates_dir(), target)
    env = render.source_environment(target)
    entries = _entries(archive)
    magic = jinja2.bccache.bc_magic
    for name in env.list_templates(filter_func=lambda n: n.endswith(".j2")):
        source, _, _ = env.loader.get_source(env, name)
        assert name in entries, f"{name} is missing from {archive.name}: {_REBUILD}"
        # jinja2's header (format and Python version, fixed length), then the checksum
        stored = pickle.load(io.BytesIO(entries[name][len(magic):]))
        assert stored == hashlib.sha1(source.encode()).hexdigest(), \
            f"{archive.name} holds an older {name}: {_REBUILD}"
    if all(data.startswith(magic) for data in entries.values()):  # built by this Python
        assert sorted(template_cache.ShippedBytecode(archive).usable(env)) == \
            sorted(entries)


_REBUILD = "run python tools/compile_templates.py"


def test_an_edited_template_compiles_from_its_source(tmp_path, monkeypatch):
    folder = tmp_path / "c"
    shutil.copytree(templates_dir() / "c", folder)
    monkeypatch.setattr(render, "template_folders", lambda target="c": [folder])
    archive = tmp_path / "compiled-c.zip"
    assert template_cache.write_archive(render.source_environment("c"), archive) > 20
    shipped = template_cache.ShippedBytecode(archive)
    env = render.source_environment("c")
    assert "kernel_loop.j2" in shipped.usable(env)
    edited = folder / "kernel_loop.j2"
    edited.write_text(edited.read_text() + "{# edited #}\n")
    assert "kernel_loop.j2" not in shipped.usable(env) and "entry.j2" in shipped.usable(env)
    for bad in (tmp_path / "missing.zip", tmp_path / "broken.zip"):
        if bad.name == "broken.zip":
            bad.write_bytes(b"not a zip")
        assert template_cache.ShippedBytecode(bad).usable(env) == []


PROGRAMS = {
    "loop": (lambda x: jnp.tanh(x) * 2 + 1, (np.ones((3, 4), np.float32),)),
    "reduce_rows": (lambda x: jax.nn.softmax(x, axis=-1), (np.ones((8, 5), np.float32),)),
    "dot": (lambda a, b: a @ b, (np.ones((4, 3), np.float32), np.ones((3, 2), np.float32))),
    "gather_scan": (lambda x, i: lax.cumsum(x[i], 0), (np.ones(6, np.float32),
                                                        np.arange(3, dtype=np.int32))),
    "while": (lambda x: lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * 2),
                                       (0, x))[1], (np.ones(3, np.float32),)),
}


@pytest.mark.parametrize("target", render.TARGETS)
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_compiled_templates_render_what_the_sources_render(name, target, monkeypatch):
    fn, args = PROGRAMS[name]
    opt = optimize(jax.make_jaxpr(fn)(*args))
    item = [(plan_program(opt, f"jit_{name}", fuse_rows=target == "c"), str(opt))]
    compiled = render_module(item, target=target)
    assert isinstance(render.environment(target).bytecode_cache,
                      template_cache.ShippedBytecode)
    monkeypatch.setattr(render, "environment", render.source_environment)
    assert render_module(item, target=target) == compiled
