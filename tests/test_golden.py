"""The generated C and CUDA of the programs in ``golden_programs.py`` match the
checked-in files under ``tests/golden/`` (regenerate with ``python tools/regen_golden.py``
and review the diff)."""
from __future__ import annotations

import difflib
import pathlib

import pytest

from golden_programs import PROGRAMS, TARGETS, render

GOLDEN = pathlib.Path(__file__).parent / "golden"


@pytest.mark.parametrize("target", sorted(TARGETS))
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_generated_source_matches_golden(name, target):
    path = GOLDEN / f"{name}{TARGETS[target]}"
    expected = path.read_text()
    actual = render(name, target)
    if actual != expected:
        diff = "".join(difflib.unified_diff(
            expected.splitlines(keepends=True), actual.splitlines(keepends=True),
            f"tests/golden/{path.name}", "regenerated", n=2))
        pytest.fail(f"generated source differs from {path.name} "
                    f"(if intended: python tools/regen_golden.py)\n{diff[:20000]}")
