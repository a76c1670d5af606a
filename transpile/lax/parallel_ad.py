"""Differentiation rules of the collectives (``lax/parallel.py``).

The communicating collectives are linear. Their transposes, as in JAX 0.10.2:
``psum_invariant`` <-> ``pvary`` (a sum to every member is the transpose of marking a
value as varying), ``all_gather`` <-> ``reduce_scatter``, ``ppermute`` -> the inverse
permutation, ``all_to_all`` -> the one with split and concat axes swapped, and ``psum``
(unchecked, as under ``pmap``) -> ``psum``; a positional ``psum`` transposes to a
broadcast back over the summed axes. ``axis_index`` has a zero tangent.
"""
from __future__ import annotations

import numpy as np

from ..interpreters import ad
from . import parallel as par
from .parallel import named, positional
from .structural import broadcast_in_dim_p


def _psum_transpose(ct, x, *, axes, axis_index_groups):
    names, pos = named(axes), positional(axes)
    if names:
        ct = par.psum_p.bind(ct, axes=names, axis_index_groups=axis_index_groups)
    if pos:
        shape = tuple(x.aval.shape)
        kept = tuple(int(i) for i in np.delete(np.arange(len(shape)),
                                               [int(a) for a in pos]))
        ct = broadcast_in_dim_p.bind(ad.instantiate(ct), shape=shape,
                                     broadcast_dimensions=kept, sharding=None)
    return [ct]


ad.deflinear2(par.psum_p, _psum_transpose)
ad.deflinear2(par.psum_invariant_p,
              lambda ct, x, *, axes: [par.pvary_p.bind(ad.instantiate(ct), axes=axes)])
ad.deflinear2(par.pvary_p,
              lambda ct, x, *, axes: [par.psum_invariant_p.bind(ad.instantiate(ct),
                                                                axes=axes)])


def _all_gather_transpose(ct, x, *, all_gather_dimension, axis_name, axis_index_groups,
                          axis_size, tiled):
    return [par.reduce_scatter_p.bind(
        ad.instantiate(ct), scatter_dimension=all_gather_dimension, axis_name=axis_name,
        axis_index_groups=axis_index_groups, axis_size=axis_size, tiled=tiled)]


def _reduce_scatter_transpose(ct, x, *, scatter_dimension, axis_name, axis_index_groups,
                              axis_size, tiled):
    return [par.all_gather_p.bind(
        ad.instantiate(ct), all_gather_dimension=scatter_dimension, axis_name=axis_name,
        axis_index_groups=axis_index_groups, axis_size=axis_size, tiled=tiled)]


def _ppermute_transpose(ct, x, *, axis_name, perm):
    inverse = tuple((dst, src) for src, dst in perm)
    return [par.ppermute_p.bind(ad.instantiate(ct), axis_name=axis_name, perm=inverse)]


def _all_to_all_transpose(ct, x, *, axis_name, split_axis, concat_axis, axis_index_groups,
                          tiled):
    return [par.all_to_all_p.bind(ad.instantiate(ct), axis_name=axis_name,
                                  split_axis=concat_axis, concat_axis=split_axis,
                                  axis_index_groups=axis_index_groups, tiled=tiled)]


ad.deflinear2(par.all_gather_p, _all_gather_transpose)
ad.deflinear2(par.reduce_scatter_p, _reduce_scatter_transpose)
ad.deflinear2(par.ppermute_p, _ppermute_transpose)
ad.deflinear2(par.all_to_all_p, _all_to_all_transpose)
ad.defjvp_zero(par.axis_index_p)


def _pbroadcast_transpose(ct, x, *, axis_name, source):
    raise NotImplementedError("transpose of pbroadcast")


ad.deflinear2(par.pbroadcast_p, _pbroadcast_transpose)
