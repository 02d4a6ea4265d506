"""Tools for puzzle setters: make new puzzles, make a puzzle unique (repair), remove the clues it
does not need (minimize). Each works through the kinds' clue and generation capabilities."""
