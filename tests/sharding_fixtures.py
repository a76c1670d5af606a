"""A fixture giving a test module 4 CPU devices (``devices._reset_for_tests``), and
putting the single device back afterwards. Shared by the sharding test files."""
from __future__ import annotations

import importlib

import pytest

import transpile

devices_mod = importlib.import_module("transpile.devices")
shards_mod = importlib.import_module("transpile.sharding.shards")


@pytest.fixture(scope="module")
def four_devices():
    before = transpile.config.read("jax_num_cpu_devices")
    devices_mod._reset_for_tests(4)
    try:
        yield transpile.devices()
    finally:
        devices_mod._reset_for_tests(before)
        shards_mod.STATE.placed = False  # later tests take the unplaced fast paths again
