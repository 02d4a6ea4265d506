"""Fillomino: format, encoders, decoder, independent checker and picture."""

from fillsmt.fillomino.model import Grid, Puzzle

__all__ = ["Grid", "Puzzle"]
