"""Puzzle formats shared by every kind: puzz.link URLs, JSON (and the SVG picture in ``fillsmt.pictures.svg``).

Each kind keeps its own plain file format in its package (``fillsmt.fillomino.plain_format``,
``fillsmt.blocknumber.plain_format``); the modules here read and write the formats that several
kinds share, and build the kinds' own ``Puzzle`` objects, so the rest of the pipeline never sees
where a puzzle came from.
"""
