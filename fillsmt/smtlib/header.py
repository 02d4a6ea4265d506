"""The frame of every SMT-LIB script fillsmt writes: the header that opens it and the ``(exit)``
that closes it, made in this one place for ``encode``, ``export`` and the solver runs.

An encoder's script (its *body*) starts with its own options and its ``set-logic``, then holds
the declarations, assertions and questions. :func:`standard` makes it an SMT-LIB 2.6 script::

    (set-info :smt-lib-version 2.6)
    <the body's options, then the options asked for: (set-option :produce-models true)>
    (set-logic …)
    (set-info :source |…|)
    <other set-info commands: :license, :category, :status>
    <the rest of the body>
    (exit)

(the order of the SMT-LIB benchmark library, with the options, which must precede
``set-logic``, before it). :func:`describe` writes the ``:source`` text. A session loading the
script drops the questions and the ``(exit)`` (:func:`fillsmt.smtlib.script.script_body`).
"""

from __future__ import annotations

import sys
from itertools import chain
from typing import Iterable, Iterator, Sequence

from fillsmt.smtlib.script import Command, Replayed, Script, Term

SMTLIB_VERSION = "2.6"
PRODUCE_MODELS = (":produce-models", "true")


def quoted_symbol(text: str) -> str:
    """``text`` as an SMT-LIB quoted symbol ``|…|`` on one line (a quoted symbol cannot hold
    ``|`` or ``\\``: each becomes ``/``; line breaks become spaces)."""
    return "|" + " ".join(text.replace("|", "/").replace("\\", "/").split()) + "|"


def info(attribute: str, value: Term) -> Command:
    """``(set-info ATTRIBUTE VALUE)``."""
    return Command("set-info", (attribute, value))


def describe(puzzle: str, kind: str, encoding: str, presolve: str, question: str = "") -> str:
    """The ``:source`` text: the puzzle as the user named it, its kind, the encoding, what the
    presolve did, the question the script asks (when not the plain "a solution?"), and the
    fillsmt version that wrote it (read from the package, which is loaded whenever this module is:
    no import, so no cycle through the package's top level)."""
    version = sys.modules["fillsmt"].__version__
    asked = f"; {question}" if question else ""
    return f"{kind} puzzle {puzzle}; encoding {encoding}; presolve {presolve}{asked}; written by fillsmt {version}"


def standard(
    body: Script,
    source: str,
    infos: Sequence[Command] = (),
    options: Sequence[tuple[str, str]] = (PRODUCE_MODELS,),
    quoted_source: str | None = None,
) -> Script:
    """``body`` framed as an SMT-LIB 2.6 script (module text): ``source`` the ``:source``
    text (or ``quoted_source``, a quoted symbol already made, such as the SMT-LIB library's
    several-line form), ``infos`` further ``set-info`` commands, ``options`` the options added
    before ``set-logic``. A body made afresh at each reading stays so (nothing is held twice)."""
    head = [info(":smt-lib-version", SMTLIB_VERSION)]
    after_logic = [info(":source", quoted_source if quoted_source is not None else quoted_symbol(source)), *infos]
    added = [Command("set-option", option) for option in options]

    def commands() -> Iterator[Command]:
        return chain(head, _framed(iter(body.commands), added, after_logic), [Command("exit")])

    if isinstance(body.commands, Replayed):
        return Script(Replayed(commands, hold=0))
    return Script.of(commands())


def _framed(body: Iterator[Command], options: list[Command], after_logic: list[Command]) -> Iterator[Command]:
    """The body's leading options, ``options``, its ``set-logic``, ``after_logic``, the rest (a
    body without a ``set-logic``, a plugin kind's, gets ``after_logic`` before its first command)."""
    for command in body:
        if command.name == "set-option":
            yield command
            continue
        yield from options
        if command.name == "set-logic":
            yield command
            yield from after_logic
        else:
            yield from after_logic
            yield command
        yield from body
        return
    yield from options
    yield from after_logic


def logic(commands: Iterable[Command]) -> str:
    """The logic a script's ``set-logic`` names ("ALL" when it names none)."""
    return next((str(c.args[0]) for c in commands if c.name == "set-logic"), "ALL")


__all__ = ["PRODUCE_MODELS", "SMTLIB_VERSION", "describe", "info", "logic", "quoted_symbol", "standard"]
