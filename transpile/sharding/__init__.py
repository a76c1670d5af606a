"""``jax.sharding``: device meshes, partition specs and the shardings built on them."""
from ..array_interop import SingleDeviceSharding
from .mesh import (AbstractMesh, AxisType, Mesh, get_abstract_mesh, get_mesh, make_mesh,
                   set_mesh, use_abstract_mesh)
from .partition_spec import UNCONSTRAINED, PartitionSpec

__all__ = ["AbstractMesh", "AxisType", "Mesh", "PartitionSpec", "SingleDeviceSharding",
           "UNCONSTRAINED", "get_abstract_mesh", "get_mesh", "make_mesh", "set_mesh",
           "use_abstract_mesh"]
