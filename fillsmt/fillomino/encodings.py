"""The Fillomino encodings ``--encoding`` can name. Each is a pure function Puzzle → Script."""

from __future__ import annotations

from typing import Callable

from fillsmt.fillomino.encode_thesis import encode_thesis
from fillsmt.fillomino.model import Puzzle
from fillsmt.smtlib import Script

ENCODINGS: dict[str, Callable[[Puzzle], Script]] = {
    "thesis": encode_thesis,
}
DEFAULT_ENCODING = "thesis"
