"""Meshes and partition specs as programs, shared by ``tests/test_sharding_mesh.py`` and
``tools/record_sharding.py`` (JAX 0.10.2, 4 CPU devices; answers in the ``mesh``
section of ``tests/data/sharding.json``). ``cases(M)`` returns ``name -> thunk``;
``sharding_cases.run`` runs one. Nothing here imports jax or transpile.
"""
from __future__ import annotations

import pickle

import numpy as np


def cases(M):  # noqa: C901 - one flat table
    S = M.sharding
    P, Mesh, AbstractMesh, AxisType = S.PartitionSpec, S.Mesh, S.AbstractMesh, S.AxisType
    devs = M.devices()

    def mesh(shape=(2, 2), names=("x", "y"), **kw):
        return Mesh(np.array(devs[:int(np.prod(shape))]).reshape(shape), names, **kw)

    out = {}
    # Mesh
    out["mesh_str"] = lambda: str(mesh())
    out["mesh_repr"] = lambda: repr(mesh())
    out["mesh_repr_1d"] = lambda: repr(mesh((4,), ("x",)))
    out["mesh_repr_explicit"] = lambda: repr(mesh(axis_types=(AxisType.Explicit,
                                                              AxisType.Auto)))
    out["mesh_str_name"] = lambda: str(mesh((4,), "x"))
    out["mesh_empty_repr"] = lambda: repr(Mesh(np.empty((), object), ()))
    out["mesh_props"] = lambda: [list(mesh().shape.items()), mesh().size,
                                 list(mesh().axis_sizes), mesh().device_ids.tolist(),
                                 mesh().empty, mesh().is_multi_process,
                                 [d.id for d in mesh().local_devices]]
    out["mesh_axis_kinds"] = lambda: [list(mesh().auto_axes), list(mesh().explicit_axes),
                                      list(mesh().manual_axes), repr(mesh().axis_types)]
    out["mesh_eq"] = lambda: [mesh() == mesh(), mesh() == mesh(names=("x", "z")),
                              hash(mesh()) == hash(mesh()),
                              mesh() == mesh(axis_types=(AxisType.Explicit,) * 2)]
    out["mesh_abstract_repr"] = lambda: repr(mesh().abstract_mesh)
    out["err_mesh_ndim"] = lambda: Mesh(np.array(devs), ("a", "b"))
    # AbstractMesh
    out["abstract_repr"] = lambda: repr(AbstractMesh((2, 3), ("x", "y")))
    out["abstract_empty_repr"] = lambda: repr(AbstractMesh((), ()))
    out["abstract_eq"] = lambda: [AbstractMesh((2,), ("x",)) == AbstractMesh((2,), ("x",)),
                                  AbstractMesh((2,), ("x",)) == AbstractMesh((2,), ("y",))]
    # make_mesh
    out["make_mesh_repr"] = lambda: repr(M.make_mesh((2, 2), ("a", "b")))
    out["make_mesh_auto"] = lambda: repr(M.make_mesh((4,), ("x",),
                                                     axis_types=(AxisType.Auto,)))
    out["make_mesh_devices"] = lambda: M.make_mesh((2,), ("x",)).device_ids.tolist()
    out["err_make_mesh_too_big"] = lambda: M.make_mesh((3, 2), ("a", "b"))
    # set_mesh / get_mesh
    out["no_mesh"] = lambda: [repr(S.get_abstract_mesh()), S.get_mesh().empty]
    out["set_mesh_block"] = lambda: _in_mesh(M, mesh())
    out["err_set_mesh_type"] = lambda: M.sharding.set_mesh(3)
    # PartitionSpec
    out["spec_reprs"] = lambda: [repr(P("x", None, ("a", "b"))), repr(P()), repr(P(None)),
                                 repr(P(P.UNCONSTRAINED, "x")), repr(P("x",
                                                                       unreduced={"y"}))]
    out["spec_eq"] = lambda: [P("x") == P("x", None), P("x") == ("x",),
                              hash(P("x")) == hash(P("x")), P("x") == P("x")]
    out["spec_tuple_ops"] = lambda: [len(P("x", None)), P("x", "y")[1], list(P("x", None)),
                                     repr(P("x") + P("y")), repr(P("x") + ("y",))]
    out["spec_list_entry"] = lambda: repr(P(["x", "y"]))
    out["spec_pickle"] = lambda: repr(pickle.loads(pickle.dumps(P("x", ("a", "b")))))
    return out


def _in_mesh(M, mesh):
    S = M.sharding
    with S.set_mesh(mesh):
        inside = [repr(S.get_abstract_mesh()), S.get_mesh() == mesh]
    return inside + [S.get_mesh().empty]
