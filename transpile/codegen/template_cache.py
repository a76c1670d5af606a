"""The templates compiled ahead of time, shipped beside them.

jinja2 turns a template into Python and compiles that the first time a process renders
it: 2-17 ms a template, 40-60 ms for the six a training step's module uses, paid again
by every fresh process (the cold first call of issue 17). ``tools/compile_templates.py``
stores each target's templates as jinja2 bytecode (a marshalled code object behind
jinja2's own header: its format version, the Python version, the checksum of the
template's text) in one zip in the templates folder, ``compiled-<target>.zip``.
:class:`ShippedBytecode` hands jinja2 those entries through its bytecode-cache protocol,
which checks the header itself: a template edited since, or another Python, compiles
from its source as before, with the same output (``tests/test_template_cache.py`` says
when the zip wants rebuilding).

The zip is part of the installed package, like the templates and our modules: nothing
here reads code from the disk cache, and nothing is ever written but by the tool.
"""
from __future__ import annotations

import hashlib
import io
import os
import zipfile
from pathlib import Path

__all__ = ["archive_path", "ShippedBytecode", "write_archive"]

# a fixed time stamp: the same templates give the same bytes
_EPOCH = (2020, 1, 1, 0, 0, 0)


def archive_path(templates: Path, target: str) -> Path:
    """Where ``target``'s compiled templates are kept."""
    return templates / f"compiled-{target}.zip"


def _checksum(source: str) -> str:
    # jinja2's own (BytecodeCache.get_source_checksum): the bucket header compares it
    return hashlib.sha1(source.encode("utf-8")).hexdigest()


class ShippedBytecode:
    """A read-only jinja2 bytecode cache over one shipped zip, keyed by template name
    (not by path: the package may be installed anywhere). jinja2 uses an entry only when
    its header matches this Python and jinja2 and its checksum the template's text.

    It speaks jinja2's bytecode-cache protocol (``get_bucket``, ``set_bucket``) without
    subclassing ``jinja2.BytecodeCache``, so that importing this module does not import
    jinja2 (a process whose functions all come from the disk cache never renders)."""

    def __init__(self, archive: Path):
        self.archive = Path(archive)
        self._entries: dict | None = None

    def _read(self) -> dict:
        if self._entries is None:
            try:
                with zipfile.ZipFile(self.archive) as z:
                    self._entries = {n: z.read(n) for n in z.namelist()}
            except (OSError, zipfile.BadZipFile):
                self._entries = {}
        return self._entries

    def get_bucket(self, environment, name: str, filename, source: str):
        """jinja2's hook: the bucket of ``name``, its code set when the entry fits."""
        import jinja2.bccache
        bucket = jinja2.bccache.Bucket(environment, name, _checksum(source))
        data = self._read().get(name)
        if data is not None:
            bucket.bytecode_from_string(data)  # a stale or foreign entry resets itself
        return bucket

    def set_bucket(self, bucket) -> None:
        """jinja2's hook, never writing: the zip changes only through the tool."""

    def usable(self, env) -> list:
        """The names of ``env``'s templates whose entry this Python would load."""
        found = []
        for name in env.list_templates(filter_func=lambda n: n.endswith(".j2")):
            source, filename, _ = env.loader.get_source(env, name)
            if self.get_bucket(env, name, filename, source).code is not None:
                found.append(name)
        return found


def write_archive(env, archive: Path) -> int:
    """Compile every template ``env``'s loader finds into ``archive`` (atomically);
    returns how many. ``env`` must have no bytecode cache of its own."""
    import jinja2.bccache
    buf = io.BytesIO()
    names = sorted(env.list_templates(filter_func=lambda n: n.endswith(".j2")))
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name in names:
            source, _, _ = env.loader.get_source(env, name)
            # the name, not this checkout's path, is what tracebacks show
            code = env.compile(source, name, f"<transpile template {name}>")
            bucket = jinja2.bccache.Bucket(env, name, _checksum(source))
            bucket.code = code
            info = zipfile.ZipInfo(name, _EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, bucket.bytecode_to_string())
    part = archive.with_name(archive.name + ".tmp")
    part.write_bytes(buf.getvalue())
    os.replace(part, archive)
    return len(names)
