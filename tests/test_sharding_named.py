"""Shardings and sharded arrays against JAX 0.10.2 with 4 CPU devices
(``tests/data/sharding.json``, recorded by ``tools/record_sharding.py`` from the cases
of ``tests/sharding_cases.py``): NamedSharding reprs and errors, shard layouts
(indices, devices, replica ids, data), device_put, results' shardings eager and under
jit, jit in/out shardings, with_sharding_constraint (jaxpr text, grad, vmap), reshard,
the make_array_from_* constructors; and the text of visualize_array_sharding."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import transpile
import transpile.numpy as jnp
from transpile.sharding import Mesh, NamedSharding, PartitionSpec as P

import sharding_cases
from sharding_fixtures import four_devices  # noqa: F401 - a fixture

DATA = json.loads((Path(__file__).parent / "data" / "sharding.json").read_text())
CASES = DATA["cases"]


def _close(want, got) -> bool:
    if isinstance(want, list) and isinstance(got, list):
        return len(want) == len(got) and all(_close(w, g) for w, g in zip(want, got))
    if isinstance(want, dict) and isinstance(got, dict):
        return want.keys() == got.keys() and all(_close(want[k], got[k]) for k in want)
    if isinstance(want, float) and isinstance(got, float):
        return abs(want - got) <= 1e-6 * max(1.0, abs(want))
    return want == got


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_jax(name, four_devices):  # noqa: F811 - the fixture
    thunk = sharding_cases.cases(transpile)[name]
    got = json.loads(json.dumps(sharding_cases.run(thunk)))
    want = CASES[name]
    if "error" in want or "error" in got:
        assert got == want
    else:
        assert _close(want["result"], got["result"]), (want, got)


def test_shards_are_views_of_the_global_buffer(four_devices):  # noqa: F811
    mesh = Mesh(np.array(four_devices), ("x",))
    x = transpile.device_put(jnp.arange(8.0), NamedSharding(mesh, P("x")))
    for shard in x.addressable_shards:
        assert np.shares_memory(np.asarray(shard.data), np.asarray(x))


def test_grad_through_constraint_matches_finite_differences(four_devices):  # noqa: F811
    mesh = Mesh(np.array(four_devices), ("x",))
    s = NamedSharding(mesh, P("x"))

    def f(a):
        return jnp.sum(jnp.sin(transpile.lax.with_sharding_constraint(a * a, s)))

    a = np.linspace(0.1, 0.8, 8)
    g = np.asarray(transpile.grad(f)(transpile.device_put(jnp.asarray(a), s)))
    eps = 1e-3
    fd = [(np.sum(np.sin((a + eps * e) ** 2)) - np.sum(np.sin((a - eps * e) ** 2))) / (2 * eps)
          for e in np.eye(8)]
    np.testing.assert_allclose(g, fd, rtol=1e-3)


def test_visualize_array_sharding_text(four_devices, capsys):  # noqa: F811
    mesh = Mesh(np.array(four_devices).reshape(2, 2), ("x", "y"))
    x = transpile.device_put(jnp.zeros((4, 4)), NamedSharding(mesh, P("x")))
    transpile.debug.visualize_array_sharding(x)
    text = capsys.readouterr().out
    # two rows of blocks, each held by two replicas: JAX's labels "CPU 0,1" and "CPU 2,3"
    assert [ln.strip("│ ") for ln in text.splitlines() if "CPU" in ln] == ["CPU 0,1",
                                                                          "CPU 2,3"]
    assert text.count("├") == 1 and text.startswith("┌") and text.rstrip().endswith("┘")
    v = transpile.device_put(jnp.zeros(8), NamedSharding(mesh, P(("x", "y"))))
    transpile.debug.visualize_array_sharding(v)
    row = [ln for ln in capsys.readouterr().out.splitlines() if "CPU" in ln]
    assert [c.strip() for c in row[0].strip("│").split("│")] == ["CPU 0", "CPU 1", "CPU 2",
                                                                "CPU 3"]
    with pytest.raises(ValueError, match="only works for shapes with 1 or 2 dimensions"):
        transpile.debug.visualize_sharding((2, 2, 2), x.sharding)


def test_each_cpu_device_has_a_share_of_the_cores(four_devices):  # noqa: F811
    import os
    want = max(1, (os.cpu_count() or 1) // 4)
    assert [d.num_threads for d in four_devices] == [want] * 4
