"""Cases of collectives over several named axes (with and without ``axis_index_groups``)
and of ``axis_index`` of a tuple of axes, written once for JAX (recorded by
``tools/record_multi_axis.py`` into ``tests/data/multi_axis.json``) and for transpile
(``tests/test_lax_parallel_multi_axis.py``). Every case runs with 4 CPU devices.

Over several axes a member's index is its linear index over them, row-major in the
order the collective names them (``ppermute``: in mesh order, as JAX's lowering sorts
the devices of a group). ``build(jax, np)`` returns ``{name: (kind, thunk)}`` as in
``axis_index_groups_cases.py``.
"""
from __future__ import annotations

EVEN = [[0, 1], [2, 3]]
ORDER = [[2, 0], [3, 1]]  # groups and members out of order
UNEVEN = [[3, 1, 2], [0]]
RING = [(0, 1), (1, 2), (2, 3), (3, 0)]


def build(jax, np):
    lax = jax.lax
    jnp = jax.numpy
    P = jax.sharding.PartitionSpec
    Mesh = jax.sharding.Mesh
    f32 = np.float32
    y = np.arange(8.0, dtype=f32).reshape(2, 4)      # (1, 2) per device of the 2x2 mesh
    wide = np.arange(16.0, dtype=f32).reshape(2, 8)  # (1, 4) per device
    x3 = np.arange(8.0, dtype=f32).reshape(2, 2, 2)

    def sm(f, check_vma=False, out=None):
        # the mesh made when the case runs (the device count is set by then)
        mesh = Mesh(np.array(jax.devices()[:4]).reshape(2, 2), ("i", "j"))
        return jax.shard_map(f, mesh=mesh, in_specs=P("i", "j"),
                             out_specs=P("i", "j") if out is None else out,
                             check_vma=check_vma)

    def red(op, names, g=None):
        return lambda v: op(v, names, axis_index_groups=g)

    def lead(f):  # a gathered output gets a leading axis of one, for the out_specs
        return lambda v: f(v)[None]

    def vv(f):
        return jax.vmap(jax.vmap(f, axis_name="j"), axis_name="i")

    def pv(f):
        return jax.pmap(jax.vmap(f, axis_name="j"), axis_name="i", devices=jax.devices()[:2])

    def loss(f, weights):
        return lambda v: (np.asarray(weights) * jnp.sin(sm(f)(v))).sum()

    cases = {
        # reductions within groups of the linear index over both axes
        "psum_ij_even": ("jaxpr", lambda: (sm(red(lax.psum, ("i", "j"), EVEN)), (y,))),
        "psum_ji_even": ("value", lambda: (sm(red(lax.psum, ("j", "i"), EVEN)), (y,))),
        "psum_ij_order": ("value", lambda: (sm(red(lax.psum, ("i", "j"), ORDER)), (y,))),
        "psum_ji_order": ("value", lambda: (sm(red(lax.psum, ("j", "i"), ORDER)), (y,))),
        "psum_ij_uneven": ("value", lambda: (sm(red(lax.psum, ("i", "j"), UNEVEN)), (y,))),
        "pmax_ij_order": ("value", lambda: (sm(red(lax.pmax, ("i", "j"), ORDER)), (y,))),
        "pmin_ji_uneven": ("value", lambda: (sm(red(lax.pmin, ("j", "i"), UNEVEN)), (y,))),
        "pmean_ij_even": ("value", lambda: (sm(red(lax.pmean, ("i", "j"), EVEN)), (y,))),
        "psum_int_groups": ("value", lambda: (
            sm(red(lax.psum, ("j", "i"), ORDER)), (np.arange(4).reshape(2, 2),))),
        "psum_const_groups": ("value", lambda: (
            sm(lambda v: v + lax.psum(1.0, ("i", "j"), axis_index_groups=EVEN)), (y,))),
        "psum_tree_groups": ("value", lambda: (
            sm(lambda v: lax.psum((v, 2 * v), ("j", "i"), axis_index_groups=ORDER),
               out=(P("i", "j"), P("i", "j"))), (y,))),
        "pmax_checked": ("value", lambda: (
            sm(red(lax.pmax, ("i", "j"), ORDER), check_vma=True), (y,))),
        "psum_checked": ("error", lambda: (
            sm(red(lax.psum, ("i", "j"), EVEN), check_vma=True), (y,))),
        # gathers, scatters, exchanges and permutations over both axes
        "all_gather_ij": ("jaxpr", lambda: (
            sm(lead(lambda v: lax.all_gather(v, ("i", "j")))), (y,))),
        "all_gather_ji": ("value", lambda: (
            sm(lead(lambda v: lax.all_gather(v, ("j", "i")))), (y,))),
        "all_gather_ij_even": ("value", lambda: (
            sm(lead(lambda v: lax.all_gather(v, ("i", "j"), axis_index_groups=EVEN))),
            (y,))),
        "all_gather_ji_order": ("jaxpr", lambda: (
            sm(lead(lambda v: lax.all_gather(v, ("j", "i"), axis_index_groups=ORDER))),
            (y,))),
        "all_gather_tiled_order": ("value", lambda: (
            sm(lambda v: lax.all_gather(v, ("i", "j"), axis_index_groups=ORDER, axis=1,
                                        tiled=True)), (y,))),
        "psum_scatter_ij": ("value", lambda: (
            sm(lambda v: lax.psum_scatter(v, ("i", "j"), scatter_dimension=1,
                                          tiled=True)), (wide,))),
        "psum_scatter_ji_order": ("value", lambda: (
            sm(lambda v: lax.psum_scatter(v, ("j", "i"), scatter_dimension=1, tiled=True,
                                          axis_index_groups=ORDER)), (y,))),
        "all_to_all_ij": ("value", lambda: (
            sm(lambda v: lax.all_to_all(v, ("i", "j"), 1, 1, tiled=True)), (wide,))),
        "all_to_all_ji": ("value", lambda: (
            sm(lambda v: lax.all_to_all(v, ("j", "i"), 1, 1, tiled=True)), (wide,))),
        "all_to_all_ij_order": ("value", lambda: (
            sm(lambda v: lax.all_to_all(v, ("i", "j"), 1, 1, tiled=True,
                                        axis_index_groups=ORDER)), (y,))),
        "ppermute_ij": ("jaxpr", lambda: (
            sm(lambda v: lax.ppermute(v, ("i", "j"), RING)), (y,))),
        "ppermute_ji": ("value", lambda: (
            sm(lambda v: lax.ppermute(v, ("j", "i"), RING)), (y,))),
        "ppermute_ji_partial": ("value", lambda: (
            sm(lambda v: lax.ppermute(v, ("j", "i"), [(0, 3), (2, 1)])), (y,))),
        # a vmap axis inside the shard_map passes through
        "sm_vmap_all_gather": ("value", lambda: (
            sm(jax.vmap(lambda v: lax.all_gather(v, ("j", "i"), axis_index_groups=ORDER),
                        in_axes=1, out_axes=1)), (y,))),
        # a vmap axis inside a shard_map over the other axis: the shard_map's is outer
        "sm_vmap_all_to_all": ("value", lambda: (jax.shard_map(
            jax.vmap(lambda v: lax.all_to_all(v, ("i", "k"), 0, 0, tiled=True),
                     axis_name="k"),
            mesh=Mesh(np.array(jax.devices()[:2]), ("i",)), in_specs=P("i"),
            out_specs=P("i"), check_vma=False),
            (np.arange(16.0, dtype=f32).reshape(4, 4),))),
        # axis_index of several axes: the linear index, row-major in the order named
        "axis_index_ij": ("jaxpr", lambda: (
            sm(lambda v: lax.axis_index(("i", "j")).reshape(1, 1)), (y,))),
        "axis_index_ji_checked": ("jaxpr", lambda: (
            sm(lambda v: lax.axis_index(("j", "i")).reshape(1, 1), check_vma=True),
            (y,))),
        "axis_index_vv": ("value", lambda: (
            vv(lambda v: lax.axis_index(("i", "j"))), (np.zeros((2, 3), f32),))),
        "axis_index_vv_ji": ("jaxpr", lambda: (
            vv(lambda v: lax.axis_index(("j", "i"))), (np.zeros((2, 3), f32),))),
        "axis_index_empty": ("value", lambda: (
            jax.vmap(lambda v: lax.axis_index(()), axis_name="i"), (np.zeros(2, f32),))),
        "axis_index_pv": ("value", lambda: (
            pv(lambda v: v * lax.axis_index(("i", "j"))), (x3,))),
        "axis_index_unbound": ("error", lambda: (
            jax.vmap(lambda v: lax.axis_index(("i", "j")), axis_name="i"),
            (np.zeros(2, f32),))),
        # collectives over a pmap axis and a vmap axis
        "pv_psum": ("value", lambda: (pv(red(lax.psum, ("i", "j"))), (x3,))),
        "pv_pmin_ji": ("value", lambda: (pv(red(lax.pmin, ("j", "i"))), (x3,))),
        "vv_pmax": ("value", lambda: (vv(red(lax.pmax, ("i", "j"))), (x3,))),
        "vv_all_to_all": ("value", lambda: (
            vv(lambda v: lax.all_to_all(v, ("i", "j"), 0, 0, tiled=True)),
            (np.arange(32.0, dtype=f32).reshape(2, 2, 8),))),
        "pv_psum_groups": ("error", lambda: (pv(red(lax.psum, ("i", "j"), EVEN)), (x3,))),
        # gradients: the transposes keep the groups
        "grad_psum_order": ("value", lambda: (jax.grad(loss(
            lambda v: lax.psum(v * v, ("i", "j"), axis_index_groups=ORDER), y + 1)),
            (y,))),
        "grad_all_gather_order": ("value", lambda: (jax.grad(
            lambda v: jnp.sin(sm(lambda u: lax.all_gather(
                u * u, ("j", "i"), axis_index_groups=ORDER, tiled=True))(v)).sum()),
            (y,))),
        "grad_axis_index": ("value", lambda: (jax.grad(
            lambda v: sm(lambda u: u * lax.axis_index(("i", "j")))(v).sum()), (y,))),
        "grad_pv_psum": ("value", lambda: (jax.grad(
            lambda v: jnp.sin(pv(lambda u: lax.psum(u * u, ("i", "j")))(v)).sum()),
            (x3,))),
        # bad groups
        "err_cover": ("error", lambda: (
            sm(red(lax.psum, ("i", "j"), [[0, 1], [2, 4]])), (y,))),
        "xla_partial_cover": ("error", lambda: (
            sm(red(lax.psum, ("i", "j"), [[0, 1]])), (y,))),
        "xla_gather_uneven": ("error", lambda: (
            sm(lead(lambda v: lax.all_gather(v, ("i", "j"), axis_index_groups=UNEVEN))),
            (y,))),
        # pmap over fewer devices than there are: the first ones
        "pmap_two_of_four": ("value", lambda: (
            jax.pmap(lambda v: lax.psum(v, "i") + lax.axis_index("i"), axis_name="i"),
            (np.arange(4.0, dtype=f32).reshape(2, 2),))),
        # pmap inside pmap: JAX 0.10.2 refuses the inner one's mesh
        "nested_pmap": ("error", lambda: (
            jax.pmap(jax.pmap(lambda v: v + 1, axis_name="j"), axis_name="i"),
            (np.arange(4.0, dtype=f32).reshape(2, 2),))),
    }
    return cases
