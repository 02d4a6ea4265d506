"""SMT-LIB 2 as data: terms and scripts, their printer, and the reader for solver answers."""

from fillsmt.smtlib.answer import Answer, Status, parse_answer
from fillsmt.smtlib.script import Command, Script, Term, render_term

__all__ = ["Answer", "Command", "Script", "Status", "Term", "parse_answer", "render_term"]
