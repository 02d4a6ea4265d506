"""fillsmt: grid logic puzzles to SMT-LIB, solved by real SMT solvers, checked independently."""

__version__ = "0.1.0"
