"""Solver drivers behind one interface (:class:`~fillsmt.drivers.base.Driver`), and the registry
that names them (:mod:`fillsmt.drivers.registry`).

Adding a solver means registering a driver; the encoders never change. The names below are
imported from their modules on first use, so that the CLI starting, or a module importing
``fillsmt.drivers.session``, does not load every driver.
"""

from fillsmt.imports import lazy_exports

__getattr__, __all__ = lazy_exports(
    __name__,
    {
        "CommandDriver": "fillsmt.drivers.binaries",
        "Driver": "fillsmt.drivers.base",
        "PortfolioDriver": "fillsmt.drivers.portfolio",
        "PysmtDriver": "fillsmt.drivers.pysmt_driver",
        "RunResult": "fillsmt.drivers.base",
        "SOLVERS": "fillsmt.drivers.registry:_FACTORIES",
        "Z3ApiDriver": "fillsmt.drivers.z3api",
        "add_generic_solver": "fillsmt.drivers.registry",
        "add_solver": "fillsmt.drivers.registry",
        "get_driver": "fillsmt.drivers.registry",
    },
)
