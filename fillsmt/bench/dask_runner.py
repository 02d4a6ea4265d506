"""Running the jobs on a Dask cluster (``--dask ADDRESS``) instead of local worker processes.

The tasks are the same job function, :func:`fillsmt.bench.run.run_job`; rows come back to this
process and are written as they finish. The cluster's workers need fillsmt and the solvers
installed; how many jobs run at once is the cluster's number of worker threads. Threads that
share a worker process share its CPU counters, so a row's CPU columns are left empty here, but
for the solver CPU time of a run BenchExec (or the rlimit fallback) measured, which is the run's own.
"""

from __future__ import annotations

import uuid

from fillsmt.bench.jobs import Job
from fillsmt.bench.run import JobFunction, RowCallback, job_row, run_job
from fillsmt.errors import InputError

INSTALL_HINT = 'pip install "dask[distributed]"'


def _distributed():
    try:
        import distributed
    except ImportError:
        raise InputError(f"--dask needs Dask's distributed scheduler; install it with: {INSTALL_HINT}") from None
    return distributed


def require_dask() -> None:
    """Raise InputError, with the install command, unless dask.distributed can be imported."""
    _distributed()


def run_on_dask(
    address: str, jobs: list[Job], timeout: float, on_row: RowCallback, job_fn: JobFunction = run_job
) -> None:
    """Submit every job to the scheduler at ``address``; ``on_row(job, row)`` as each finishes.
    A task that fails (e.g. its worker died too often) becomes an ``error`` row."""
    distributed = _distributed()
    try:
        client = distributed.Client(address, timeout=30, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as e:
        raise InputError(f"--dask {address}: cannot connect to the scheduler: {e}") from None
    futures, run_id = {}, uuid.uuid4().hex[:8]
    try:
        for job in jobs:
            futures[client.submit(job_fn, job, timeout, key=f"fillsmt-bench-{run_id}-{job.key}", pure=False)] = job
        for future in distributed.as_completed(list(futures), loop=client.loop):
            job = futures[future]
            try:
                row = future.result()
                row["cpu_s"] = ""  # jobs in threads of one process: not theirs alone
                if row.get("measured") not in ("benchexec", "rlimit"):  # measured runs have their own
                    row["solver_cpu_s"] = ""
            except Exception as e:  # the task failed on the cluster: a row, not the end of the run
                row = job_row(job, timeout, "error", f"the Dask task failed: {type(e).__name__}: {e}")
            on_row(job, row)
    finally:
        client.cancel(list(futures))
        client.close()
