"""Regenerate the golden generated-source files under ``tests/golden/``.

Run from the repository root after a codegen change, then review ``git diff tests/golden``::

    python tools/regen_golden.py
"""
from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from golden_programs import PROGRAMS, TARGETS, render  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name in PROGRAMS:
        for target, suffix in TARGETS.items():
            path = GOLDEN / f"{name}{suffix}"
            text = render(name, target)
            old = path.read_text() if path.exists() else None
            if old != text:
                path.write_text(text)
                print(f"{'updated' if old is not None else 'wrote'} {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
