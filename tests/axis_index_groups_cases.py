"""Cases of collectives with ``axis_index_groups``, written once for JAX (recorded by
``tools/record_axis_index_groups.py`` into ``tests/data/axis_index_groups.json``) and
for transpile (``tests/test_lax_parallel_groups.py``). Every case runs with 4 CPU
devices (a case over 3 passes ``devices=``).

``build(jax, np)`` returns ``{name: (kind, thunk)}``: ``kind`` is what is recorded
(``"value"``: the outputs; ``"jaxpr"``: also ``make_jaxpr``'s text; ``"error"``: the
exception) and ``thunk()`` -> ``(fn, args)``.
"""
from __future__ import annotations

EVEN = [[0, 1], [2, 3]]
ORDER = [[0, 2], [3, 1]]  # groups out of order and members out of order
UNEVEN = [[3, 1, 2], [0]]


def build(jax, np):
    lax = jax.lax
    P = jax.sharding.PartitionSpec
    Mesh = jax.sharding.Mesh
    f32 = np.float32
    x = np.arange(8.0, dtype=f32).reshape(4, 2)
    x3 = np.arange(6.0, dtype=f32).reshape(3, 2)
    sq = np.arange(16.0, dtype=f32).reshape(4, 4)
    wide = np.arange(24.0, dtype=f32).reshape(4, 6)
    odd = np.arange(12.0, dtype=f32).reshape(4, 3)
    cube = np.arange(24.0, dtype=f32).reshape(4, 2, 3)
    w = np.linspace(-1.0, 1.0, 2, dtype=f32)

    def pm(f, **kw):
        return jax.pmap(f, axis_name="i", **kw)

    def pm3(f):
        return jax.pmap(f, axis_name="i", devices=jax.devices()[:3])

    def vm(f):
        return jax.vmap(f, axis_name="i")

    def sm(f, check_vma=True, out=None):
        mesh = Mesh(np.array(jax.devices()[:4]), ("i",))
        return jax.shard_map(f, mesh=mesh, in_specs=P("i"),
                             out_specs=P("i") if out is None else out,
                             check_vma=check_vma)

    def red(op, g):
        return lambda v: op(v, "i", axis_index_groups=g)

    def loss(f, weights):
        # a scalar of the pmap's outputs, weighted so every output counts differently
        return lambda v: (np.asarray(weights) * jax.numpy.sin(pm(f)(v))).sum()

    cases = {
        # reductions within groups
        "psum_even": ("jaxpr", lambda: (pm(red(lax.psum, EVEN)), (x,))),
        "psum_order": ("value", lambda: (pm(red(lax.psum, ORDER)), (x,))),
        "psum_uneven": ("value", lambda: (pm(red(lax.psum, UNEVEN)), (x,))),
        "psum_uneven3": ("value", lambda: (pm3(red(lax.psum, [[0, 1], [2]])), (x3,))),
        "psum_one_group": ("value", lambda: (pm(red(lax.psum, [[0, 1, 2, 3]])), (x,))),
        "psum_singletons": ("value", lambda: (
            pm(red(lax.psum, [[0], [1], [2], [3]])), (x,))),
        "psum_int": ("value", lambda: (pm(red(lax.psum, EVEN)), (np.arange(4),))),
        "psum_bool": ("value", lambda: (pm(red(lax.psum, EVEN)), (np.arange(4) > 1,))),
        "psum_tree": ("value", lambda: (
            pm(lambda v: lax.psum({"a": v, "b": (2 * v, v[0])}, "i",
                                  axis_index_groups=ORDER)), (x,))),
        "psum_tuple_groups": ("value", lambda: (
            pm(red(lax.psum, ((0, 1), (2, 3)))), (x,))),
        "psum_const": ("jaxpr", lambda: (
            pm(lambda v: v + lax.psum(1.0, "i", axis_index_groups=EVEN)), (x,))),
        "psum_unmapped_uneven": ("value", lambda: (
            pm(lambda v, u: v + lax.psum(u, "i", axis_index_groups=UNEVEN),
               in_axes=(0, None)), (x, w))),
        "pmax_order": ("value", lambda: (pm(red(lax.pmax, ORDER)), (x,))),
        "pmin_uneven": ("value", lambda: (pm(red(lax.pmin, UNEVEN)), (x,))),
        "pmax_uneven3": ("value", lambda: (pm3(red(lax.pmax, [[0, 1], [2]])), (x3,))),
        "pmean_even": ("jaxpr", lambda: (pm(red(lax.pmean, EVEN)), (x,))),
        "pmean_int": ("value", lambda: (pm(red(lax.pmean, EVEN)), (np.arange(4),))),
        # JAX divides by the first group's size, whatever the member's own group
        "pmean_uneven3": ("value", lambda: (pm3(red(lax.pmean, [[0, 1], [2]])), (x3,))),
        "pmean_uneven3_rev": ("value", lambda: (
            pm3(red(lax.pmean, [[2], [0, 1]])), (x3,))),
        "pmean_unmapped_uneven": ("value", lambda: (
            pm(lambda v, u: v + lax.pmean(u, "i", axis_index_groups=UNEVEN),
               in_axes=(0, None)), (x, w))),
        # gathers, scatters and exchanges within groups
        "all_gather_even": ("jaxpr", lambda: (
            pm(lambda v: lax.all_gather(v, "i", axis_index_groups=EVEN)), (x,))),
        "all_gather_order": ("value", lambda: (
            pm(lambda v: lax.all_gather(v, "i", axis_index_groups=ORDER)), (x,))),
        "all_gather_axis1": ("value", lambda: (
            pm(lambda v: lax.all_gather(v, "i", axis_index_groups=ORDER, axis=1)), (x,))),
        "all_gather_tiled": ("value", lambda: (
            pm(lambda v: lax.all_gather(v, "i", axis_index_groups=ORDER, tiled=True)),
            (x,))),
        "all_gather_unmapped": ("value", lambda: (
            pm(lambda v, u: lax.all_gather(u, "i", axis_index_groups=ORDER),
               in_axes=(0, None)), (x, w))),
        "psum_scatter_order": ("jaxpr", lambda: (
            pm(lambda v: lax.psum_scatter(v, "i", axis_index_groups=ORDER)), (x,))),
        "psum_scatter_tiled": ("value", lambda: (
            pm(lambda v: lax.psum_scatter(v, "i", axis_index_groups=ORDER, tiled=True)),
            (sq,))),
        "psum_scatter_dim1": ("value", lambda: (
            pm(lambda v: lax.psum_scatter(v, "i", scatter_dimension=1, tiled=True,
                                          axis_index_groups=ORDER)), (cube[:, :, :2],))),
        "all_to_all_order": ("jaxpr", lambda: (
            pm(lambda v: lax.all_to_all(v, "i", 0, 0, axis_index_groups=ORDER)), (x,))),
        "all_to_all_2d": ("value", lambda: (
            pm(lambda v: lax.all_to_all(v, "i", 0, 1, axis_index_groups=ORDER)), (cube,))),
        "all_to_all_tiled": ("value", lambda: (
            pm(lambda v: lax.all_to_all(v, "i", 0, 0, axis_index_groups=ORDER,
                                        tiled=True)), (sq,))),
        # a shard_map: unchecked, as pmap; checked, psum (and pmean) refuse groups
        "sm_psum_unchecked": ("value", lambda: (
            sm(red(lax.psum, ORDER), check_vma=False), (np.arange(8.0, dtype=f32),))),
        "sm_pmax_checked": ("value", lambda: (
            sm(red(lax.pmax, EVEN)), (np.arange(8.0, dtype=f32),))),
        "sm_all_gather_checked": ("value", lambda: (
            sm(lambda v: lax.all_gather(v, "i", axis_index_groups=ORDER, tiled=True)),
            (np.arange(8.0, dtype=f32),))),
        "sm_psum_scatter_checked": ("value", lambda: (
            sm(lambda v: lax.psum_scatter(v, "i", axis_index_groups=ORDER, tiled=True)),
            (np.arange(16.0, dtype=f32),))),
        "sm_psum_checked": ("error", lambda: (
            sm(red(lax.psum, EVEN)), (np.arange(8.0, dtype=f32),))),
        "sm_pmean_checked": ("error", lambda: (
            sm(red(lax.pmean, EVEN)), (np.arange(8.0, dtype=f32),))),
        # differentiation: the transposes keep the groups
        "grad_psum": ("value", lambda: (jax.grad(loss(
            lambda v: lax.psum(v * v, "i", axis_index_groups=ORDER), x + 1)), (x,))),
        "grad_pmean": ("value", lambda: (jax.grad(loss(
            lambda v: lax.pmean(v * v, "i", axis_index_groups=UNEVEN), x + 1)), (x,))),
        "grad_all_gather": ("value", lambda: (jax.grad(loss(
            lambda v: lax.all_gather(v * v, "i", axis_index_groups=ORDER),
            np.arange(16.0).reshape(4, 2, 2))), (x,))),
        "grad_psum_scatter": ("value", lambda: (jax.grad(loss(
            lambda v: lax.psum_scatter(v * v, "i", axis_index_groups=ORDER, tiled=True),
            np.arange(4.0).reshape(4, 1))), (x,))),
        "grad_all_to_all": ("value", lambda: (jax.grad(loss(
            lambda v: lax.all_to_all(v * v, "i", 0, 0, axis_index_groups=ORDER),
            x + 1)), (x,))),
        "grad_in_pmap": ("jaxpr", lambda: (pm(jax.grad(
            lambda v: jax.numpy.sin(lax.psum(v * v, "i", axis_index_groups=ORDER)).sum())),
            (x,))),
        "grad_pmax": ("error", lambda: (jax.grad(loss(
            lambda v: lax.pmax(v, "i", axis_index_groups=ORDER), x)), (x,))),
        # bad groups
        "err_duplicate": ("error", lambda: (pm(red(lax.psum, [[0, 0], [2, 3]])), (x,))),
        "err_overlap": ("error", lambda: (pm(red(lax.psum, [[0, 1], [1, 2, 3]])), (x,))),
        "err_out_of_range": ("error", lambda: (pm(red(lax.psum, [[0, 1], [2, 4]])), (x,))),
        "err_gather_duplicate": ("error", lambda: (
            pm(lambda v: lax.all_gather(v, "i", axis_index_groups=[[0, 0], [2, 3]])),
            (x,))),
        "err_positional": ("error", lambda: (
            pm(lambda v: lax.psum(v, ("i", 0), axis_index_groups=EVEN)), (x,))),
        "err_pmax_positional": ("error", lambda: (
            pm(lambda v: lax.pmax(v, ("i", 0), axis_index_groups=EVEN)), (x,))),
        "err_scatter_untiled": ("error", lambda: (
            pm(lambda v: lax.psum_scatter(v, "i", axis_index_groups=EVEN)), (odd,))),
        "err_scatter_tiled": ("error", lambda: (
            pm(lambda v: lax.psum_scatter(v, "i", axis_index_groups=EVEN, tiled=True)),
            (odd,))),
        "err_all_to_all_untiled": ("error", lambda: (
            pm(lambda v: lax.all_to_all(v, "i", 0, 0, axis_index_groups=EVEN)), (odd,))),
        "err_all_to_all_tiled": ("error", lambda: (
            pm(lambda v: lax.all_to_all(v, "i", 0, 0, axis_index_groups=EVEN,
                                        tiled=True)), (odd,))),
        "err_all_to_all_uneven": ("error", lambda: (
            pm(lambda v: lax.all_to_all(v, "i", 0, 0, axis_index_groups=UNEVEN,
                                        tiled=True)), (wide,))),
        # JAX 0.10.2 fails only in XLA's verifier on these: ours raise ValueErrors
        "xla_partial_cover": ("error", lambda: (pm(red(lax.psum, [[0, 1], [2]])), (x,))),
        "xla_empty": ("error", lambda: (pm(red(lax.psum, [])), (x,))),
        "xla_gather_uneven": ("error", lambda: (
            pm(lambda v: lax.all_gather(v, "i", axis_index_groups=UNEVEN)), (x,))),
        "xla_scatter_uneven": ("error", lambda: (
            pm(lambda v: lax.psum_scatter(v, "i", axis_index_groups=UNEVEN, tiled=True)),
            (wide,))),
        # vmap's collectives have no groups
        "vmap_psum": ("error", lambda: (vm(red(lax.psum, EVEN)), (x,))),
        "vmap_pmin": ("error", lambda: (vm(red(lax.pmin, EVEN)), (x,))),
        "vmap_all_gather": ("error", lambda: (
            vm(lambda v: lax.all_gather(v, "i", axis_index_groups=EVEN)), (x,))),
        "vmap_psum_scatter": ("error", lambda: (
            vm(lambda v: lax.psum_scatter(v, "i", axis_index_groups=EVEN)), (x,))),
        "vmap_all_to_all": ("error", lambda: (
            vm(lambda v: lax.all_to_all(v, "i", 0, 0, axis_index_groups=EVEN)), (x,))),
    }
    return cases
