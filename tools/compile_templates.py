"""Compile the jinja2 templates to Python ahead of time (transpile/codegen/template_cache.py).

Run after editing any template (tests/test_template_cache.py says when):

    python tools/compile_templates.py

Writes templates/compiled-c.zip and templates/compiled-cuda.zip: jinja2 bytecode for the
Python running this (another Python compiles the templates from their sources).
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from transpile.codegen import render, template_cache  # noqa: E402
from transpile.resources import templates_dir  # noqa: E402


def main() -> None:
    for target in render.TARGETS:
        path = template_cache.archive_path(templates_dir(), target)
        n = template_cache.write_archive(render.source_environment(target), path)
        print(f"wrote {path}: {n} templates, {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
