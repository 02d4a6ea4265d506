"""BlockNumber (Suguru): format, encoders, decoder, independent checker, picture and generator.

The pipeline stages, in order: :mod:`.plain_format` and :mod:`.model` (puzzle files and the
:class:`Puzzle` data), :mod:`.names` (SMT-LIB names), :mod:`.encode` and :mod:`.encodings` (pure
encoders), :mod:`.decode` (answer → grid), :mod:`.verify` (the referee, which imports nothing
from fillsmt), :mod:`.render` (the pretty picture); :mod:`.generate` makes random solutions.

The names below are imported from their modules on first use, so that reading one module of the
package (telling a file's kind reads :mod:`.plain_format`) does not load the rest.
"""

from fillsmt.imports import lazy_exports

_FORMAT = "fillsmt.blocknumber.plain_format"
__getattr__, __all__ = lazy_exports(
    __name__,
    {
        "DEFAULT_ENCODING": "fillsmt.blocknumber.encodings",
        "ENCODINGS": "fillsmt.blocknumber.encodings",
        "Encoding": "fillsmt.blocknumber.encodings",
        "Grid": "fillsmt.blocknumber.model",
        "Puzzle": "fillsmt.blocknumber.model",
        "check_solution": "fillsmt.blocknumber.verify",
        "decode_grid": "fillsmt.blocknumber.decode",
        "random_solution": "fillsmt.blocknumber.generate",
        "render_pretty": "fillsmt.blocknumber.render",
        **dict.fromkeys(
            [
                "format_grid",
                "format_puzzle",
                "looks_like_blocknumber",
                "parse_grid",
                "parse_puzzle",
                "read_grid",
                "read_puzzle",
            ],
            _FORMAT,
        ),
    },
)
