"""Polyomino tiling with maximum coverage: fill an H×W board (some cells blocked) with copies of
given polyominoes, no overlap, covering as many cells as possible.

The stages, in pipeline order: :mod:`plain_format` (text ⇄ :class:`~fillsmt.tiling.model.TilingProblem`),
:mod:`model` (orientations, placements, upper bounds), :mod:`names`, :mod:`encode` (pure
SMT-LIB), :mod:`optimize` (drives a solver: bound search or z3's ``maximize``), :mod:`decode`,
:mod:`verify` (the independent referee), :mod:`render` and :mod:`json_result`.
"""
