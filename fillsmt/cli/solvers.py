"""``fillsmt solvers``: what the solver registry holds, and what is installed."""

from __future__ import annotations

import click

from fillsmt.cli.common import CONTEXT, reports_errors


@click.command(context_settings=CONTEXT)
@reports_errors
def solvers():
    """List the solvers fillsmt can drive, whether each is installed, and its version.

    \b
    Example:
      fillsmt solvers
    """
    from fillsmt.drivers.pysmt_driver import installed_backends
    from fillsmt.drivers.registry import get_driver, solver_names

    names = solver_names() + [f"pysmt:{b}" for b in installed_backends()]
    header = ("SOLVER", "AVAILABLE", "VERSION", "LOCATION")
    rows = []
    for name in names:
        driver = get_driver(name)
        ok = driver.available()
        version = driver.version() if ok else f"not installed ({driver.install_hint})"
        rows.append((name, "yes" if ok else "no", version or "?", driver.location() if ok else ""))
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    for row in [header] + rows:
        click.echo("  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip())
