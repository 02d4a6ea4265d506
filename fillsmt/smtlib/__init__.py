"""SMT-LIB 2 as data: terms and scripts, their printer, and the reader for solver answers.

Each name is imported from its module on first use (:func:`fillsmt.imports.lazy_exports`): a
solve the rules settle reads no script."""

from fillsmt.imports import lazy_exports

__getattr__, __all__ = lazy_exports(
    __name__,
    {
        "Answer": "fillsmt.smtlib.answer",
        "Status": "fillsmt.smtlib.status",
        "parse_answer": "fillsmt.smtlib.answer",
        "Command": "fillsmt.smtlib.script",
        "Script": "fillsmt.smtlib.script",
        "Term": "fillsmt.smtlib.script",
        "render_term": "fillsmt.smtlib.script",
    },
)
