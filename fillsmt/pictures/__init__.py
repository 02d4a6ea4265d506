"""Pictures: SVG drawings of puzzles and solutions, and their display in Jupyter."""
