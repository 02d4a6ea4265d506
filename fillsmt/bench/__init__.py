"""Benchmarks: ``fillsmt bench`` runs puzzle sets × solvers × encodings × presolve and compares
them; ``fillsmt export`` writes the same questions as SMT-LIB benchmark families
(:mod:`~fillsmt.bench.families`; the SMT-LIB library's form of them: :mod:`~fillsmt.bench.library`).

The stages of a run are modules, in the order it uses them:

* :mod:`~fillsmt.bench.jobs` – puzzle files × configurations → jobs with stable keys;
* :mod:`~fillsmt.bench.run` – the job function (one :func:`fillsmt.engine.pipeline.solve`) and a pool
  of worker processes that runs it, at most N at a time, each solver run measured as SMT-COMP
  measures it (:mod:`fillsmt.drivers.measure`);
* :mod:`~fillsmt.bench.rows` – a run's row: its columns, the solver's answer, its measurement;
* :mod:`~fillsmt.bench.scripts` – the job function of an ``.smt2`` benchmark, run as it is;
* :mod:`~fillsmt.bench.dask_runner` – the same job function on a Dask cluster;
* :mod:`~fillsmt.bench.results` – the CSV, appended and flushed row by row, and resumed by key;
* :mod:`~fillsmt.bench.summary` – solved counts, medians, PAR-2 and speed-ups as Markdown;
* :mod:`~fillsmt.bench.scoring` – SMT-COMP's scores and views, and the memory table;
* :mod:`~fillsmt.bench.compare` – head to head, the virtual best configuration, the scatter plot;
* :mod:`~fillsmt.bench.plot` – the cactus plot.

The click command that drives them is :mod:`fillsmt.cli.bench`, beside the other commands.
"""
