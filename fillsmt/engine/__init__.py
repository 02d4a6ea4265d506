"""The solve engine: what was asked, what runs, how it runs, what came back.

A solve is one pass through these modules, in this order: :mod:`~fillsmt.engine.pipeline` (presolve,
then a plan or a single attempt), :mod:`~fillsmt.engine.plan` (who races, as data),
:mod:`~fillsmt.engine.race` (carrying the plan out) over :mod:`~fillsmt.engine.racers` (the child
and threads that race) and :mod:`~fillsmt.engine.schedule` (how the racers share the CPU),
:mod:`~fillsmt.engine.attempt` (one configuration: encode, run, decode, check),
:mod:`~fillsmt.engine.solutions` (the solve-block-solve loop of a session) and
:mod:`~fillsmt.engine.result` (what came back). :mod:`~fillsmt.engine.interrupts` ends every
solver process on a signal or a time limit.
"""
