#!/usr/bin/env bash
# Run the Array API conformance suite (data-apis/array-api-tests) on transpile.numpy,
# and on jax.numpy when a Python with JAX is given, with the same suite and options
# (issue 20; the counts are in benchmarks/RESULTS.md, "Array API conformance").
#
#   tools/run_array_api_tests.sh SUITE [PYTHON] [JAX_PYTHON] [OUT]
#
# SUITE       a checkout of array-api-tests with its array-api submodule in place
#             (git clone --recursive https://github.com/data-apis/array-api-tests)
# PYTHON      a Python with transpile's dependencies and the suite's requirements
#             (hypothesis, ndindex, pytest); default: python
# JAX_PYTHON  the same for jax.numpy (optional; JAX 0.10.2 in the recount)
# OUT         where the logs and JUnit XML files go; default: ./array-api-results
#
# Environment: SKIP_DTYPES (default empty) is passed as ARRAY_API_TESTS_SKIP_DTYPES;
# the recount also ran with SKIP_DTYPES=float64,complex128,int64,uint64, the 64-bit
# dtypes that both libraries canonicalise to 32 bits without x64. MAX_EXAMPLES
# (default 5).
set -euo pipefail

suite=$(cd "$1" && pwd)
py=${2:-python}
jaxpy=${3:-}
out=$(mkdir -p "${4:-array-api-results}" && cd "${4:-array-api-results}" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
plugin=$(mktemp -d)
trap 'rm -rf "$plugin"' EXIT

# The suite's hypothesis profile without shrinking (a failing test then costs its
# examples, not minutes of shrinking) and without the example database, so that a
# run depends on nothing but the options here.
cat > "$plugin/aat_noshrink.py" <<'EOF'
import pytest
from hypothesis import Phase, settings


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    settings.register_profile(
        "aat-noshrink", parent=settings.get_profile("array-api-tests"),
        phases=[Phase.explicit, Phase.generate], database=None)
    settings.load_profile("aat-noshrink")
EOF

run() {  # module python tag
    echo "== $1 ($2)"
    (cd "$suite" && env PYTHONPATH="$root:$plugin" ARRAY_API_TESTS_MODULE="$1" \
        ARRAY_API_TESTS_VERSION=2024.12 ARRAY_API_TESTS_SKIP_DTYPES="${SKIP_DTYPES:-}" \
        JAX_PLATFORMS=cpu TRANSPILE_CACHE_DIR="${TRANSPILE_CACHE_DIR:-$out/cache}" \
        "$2" -m pytest -q -p no:cacheprovider -p aat_noshrink array_api_tests \
        --max-examples="${MAX_EXAMPLES:-5}" --disable-deadline --derandomize \
        --tb=line -rfE --junitxml="$out/$3.xml" > "$out/$3.txt" 2>&1) || true
    tail -n 1 "$out/$3.txt"
}

run transpile.numpy "$py" transpile
if [ -n "$jaxpy" ]; then
    run jax.numpy "$jaxpy" jax
    # the tests that fail on transpile.numpy and pass on jax.numpy
    "$py" - "$out/transpile.xml" "$out/jax.xml" <<'EOF' | tee "$out/worse_than_jax.txt"
import sys
import xml.etree.ElementTree as ET


def outcomes(path):
    res = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        name = case.get("classname").rsplit(".", 1)[-1] + "::" + case.get("name")
        tags = {c.tag for c in case}
        res[name] = ("failed" if tags & {"failure", "error"}
                     else "skipped" if "skipped" in tags else "passed")
    return res


ours, jax = outcomes(sys.argv[1]), outcomes(sys.argv[2])
worse = sorted(n for n in ours if ours[n] == "failed" and jax.get(n) == "passed")
print(f"{len(worse)} tests fail on transpile.numpy and pass on jax.numpy")
print("\n".join(worse))
EOF
fi
