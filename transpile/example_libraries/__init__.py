"""``jax.example_libraries``: the small reference optimizer library (``optimizers``)
and the neural-network layer library (``stax``), written on transpile."""
