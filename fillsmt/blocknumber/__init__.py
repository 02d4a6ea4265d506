"""BlockNumber (Suguru): format, encoders, decoder, independent checker, picture and generator.

The pipeline stages, in order: :mod:`.plain_format` and :mod:`.model` (puzzle files and the
:class:`Puzzle` data), :mod:`.names` (SMT-LIB names), :mod:`.encode` and :mod:`.encodings` (pure
encoders), :mod:`.decode` (answer → grid), :mod:`.verify` (the referee, which imports nothing
from fillsmt), :mod:`.render` (the pretty picture); :mod:`.generate` makes random solutions.
"""

from fillsmt.blocknumber.decode import decode_grid
from fillsmt.blocknumber.encodings import DEFAULT_ENCODING, ENCODINGS, Encoding
from fillsmt.blocknumber.generate import random_solution
from fillsmt.blocknumber.model import Grid, Puzzle
from fillsmt.blocknumber.plain_format import (format_grid, format_puzzle, looks_like_blocknumber, parse_grid,
                                              parse_puzzle, read_grid, read_puzzle)
from fillsmt.blocknumber.render import render_pretty
from fillsmt.blocknumber.verify import check_solution

__all__ = ["DEFAULT_ENCODING", "ENCODINGS", "Encoding", "Grid", "Puzzle", "check_solution", "decode_grid",
           "format_grid", "format_puzzle", "looks_like_blocknumber", "parse_grid", "parse_puzzle",
           "random_solution", "read_grid", "read_puzzle", "render_pretty"]
