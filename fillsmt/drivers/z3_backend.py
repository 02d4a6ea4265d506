"""The ``z3-prop`` backend of :mod:`fillsmt.drivers.api_worker`: SMT-LIB through Z3's Python API,
with a user propagator when the script asks for one.

A script that says ``(set-info :fillsmt-propagator "NAME ARGS…")`` gets the propagator NAME
(a kind registers it: :attr:`fillsmt.protocol.Kind.propagators`) attached to the solver at its first
check; any other script is solved by plain Z3. The worker runs in its own
process (the api drivers' process runner), so a time-out kills it and nothing is left behind.

Commands are read as SMT-LIB lexes them (parentheses and comments count outside strings and
quoted symbols), one command at a time; declarations and definitions are kept as text, given to the solver's
own SMT-LIB parser with the next run of assertions and read again by a fresh parser for the
terms of get-value and check-sat-assuming (``Solver.from_string``: building 10⁵
terms one by one through the Python API took 4.7 s on a 11×20 puzzle), and ``check-sat``,
``check-sat-assuming``, ``get-value``, ``push``, ``pop``, ``echo`` and ``exit`` are answered as
the z3 binary would; any other command (``get-unsat-core``, …) gets an ``(error …)`` reply.
``FILLSMT_PROP_STATS=1`` prints the propagator's event counts and the time spent in its
callbacks on standard error after each check.
"""

from __future__ import annotations

import os
import re
import sys
import time
from typing import Callable

_DECLARE = re.compile(r"\(declare-(?:fun\s+(\S+)\s+\(\s*\)|const\s+(\S+))\s+(.+)\)\s*$", re.S)


def _commands(text: str) -> list[str]:
    """The top-level commands of ``text``, each on one line (line breaks inside a command become
    spaces), read as SMT-LIB lexes them: parentheses, and ``;`` comments, count only outside
    strings ``"…"`` and quoted symbols ``|…|`` (a script's ``:source`` may hold any of them)."""
    out: list[str] = []
    current: list[str] = []
    depth, in_string, in_quoted = 0, False, False
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if in_string:
            in_string = ch != '"' or text[i + 1 : i + 2] == '"'
            if ch == '"' and in_string:  # "" inside a string
                current.append(ch)
                i += 1
        elif in_quoted:
            in_quoted = ch != "|"
        elif ch == ";":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif ch == '"':
            in_string = True
        elif ch == "|":
            in_quoted = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        current.append(" " if ch in "\r\n" and not (in_string or in_quoted) else ch)
        i += 1
        if depth <= 0 and not (in_string or in_quoted) and ch == ")":
            out.append("".join(current).strip())
            current, depth = [], 0
    rest = "".join(current).strip()
    if rest:
        out.append(rest)
    return out


def _head(command: str) -> str:
    return command[1:].split(None, 1)[0].rstrip(")") if command.startswith("(") else ""


class Z3PropBackend:
    """One Z3 solver, the text of every declaration and definition so far (Z3's parser reads it
    before each new run of assertions, so nothing is wrapped in Python objects one by one), and
    the propagator once asked for."""

    def __init__(self) -> None:
        import z3

        self.z3 = z3
        self.solver = z3.Solver()
        self.prefix: list[str] = []
        self.sent = 0  # how many of them the solver's parser has read
        self.names: dict[str, str] = {}  # declared constant to its sort's text
        self.terms: dict[str, object] = {}
        self.wanted: tuple | None = None
        self.propagator = None
        self.done = False
        self.stats = os.environ.get("FILLSMT_PROP_STATS") == "1"

    # -- commands ----------------------------------------------------------------------------
    def run(self, text: str, out: Callable[[str], None]) -> None:
        z3 = self.z3
        pending: list[str] = []
        for command in _commands(text):
            head = _head(command)
            if head == "assert":
                pending.append(command)
                continue
            try:
                self._assert(pending)
                pending = []
                self._command(head, command, out)
            except (z3.Z3Exception, ValueError, KeyError) as e:
                pending = []
                out(_error(f"z3-prop: {e}"))
            if self.done:
                return
        try:
            self._assert(pending)
        except (z3.Z3Exception, ValueError) as e:
            out(_error(f"z3-prop: {e}"))

    def _assert(self, commands: list[str]) -> None:
        """The solver's parser keeps the declarations it has read: each is given to it once."""
        if commands:
            self.solver.from_string("\n".join(self.prefix[self.sent :] + commands))
            self.sent = len(self.prefix)

    def _command(self, head: str, command: str, out: Callable[[str], None]) -> None:
        if head in ("declare-fun", "declare-const"):
            found = _DECLARE.match(command)
            if not found:
                raise ValueError(f"cannot read the declaration {command[:80]!r}")
            self.names[found.group(1) or found.group(2)] = found.group(3).strip()
            self.prefix.append(command)
        elif head in ("define-fun", "declare-sort", "define-sort"):
            self.prefix.append(command)
        elif head == "set-info":
            self._info(command)
        elif head in ("set-option", "set-logic", ""):
            pass
        elif head == "check-sat":
            out(self._check([]) + "\n")
        elif head == "check-sat-assuming":
            inner = command[len("(check-sat-assuming") :].strip()[1:-2]
            out(self._check(self._parse(_split_terms(inner))) + "\n")
        elif head == "get-value":
            inner = command[len("(get-value") :].strip()[1:-2]
            out(self._values(_split_terms(inner)) + "\n")
        elif head in ("push", "pop"):
            levels = command[len(head) + 1 : -1].strip()
            for _ in range(int(levels) if levels else 1):
                self.solver.push() if head == "push" else self.solver.pop()
        elif head == "echo":
            out(command[len("(echo") : -1].strip() + "\n")
        elif head == "exit":
            self.done = True
        else:
            raise ValueError(f"unsupported command {head!r}")

    def _info(self, command: str) -> None:
        """Note the propagator a ``(set-info :fillsmt-propagator "NAME ARG…")`` asks for."""
        from fillsmt.protocol import PROPAGATOR_INFO

        parts = command.replace("(", " ").replace(")", " ").replace('"', " ").split()
        if len(parts) >= 3 and parts[1] == PROPAGATOR_INFO and all(p.lstrip("-").isdigit() for p in parts[3:]):
            self.wanted = (parts[2], [int(p) for p in parts[3:]])

    def _parse(self, terms: list[str]) -> list:
        """Z3 terms for SMT-LIB terms over the declarations so far (cached by their text)."""
        missing = [t for t in terms if t not in self.terms]
        if missing:
            parsed = self.z3.parse_smt2_string("\n".join(self.prefix + [f"(assert (= {t} {t}))" for t in missing]))
            for t, eq in zip(missing, parsed):
                self.terms[t] = eq.arg(0)
        return [self.terms[t] for t in terms]

    def _atoms(self) -> dict[str, object]:
        """Every declared Boolean constant, made directly (no parsing, no sort checks)."""
        z3 = self.z3
        ctx = z3.main_ctx()
        ref, sort = ctx.ref(), z3.BoolSort().ast
        return {
            name: z3.BoolRef(z3.Z3_mk_const(ref, z3.Z3_mk_string_symbol(ref, name), sort), ctx)
            for name, s in self.names.items()
            if s == "Bool"
        }

    def _check(self, assumptions: list) -> str:
        if self.wanted is not None and self.propagator is None:
            from fillsmt.kinds import propagator_maker

            name, args = self.wanted
            make = propagator_maker(name)
            if make is None:
                raise ValueError(f"no registered kind has the propagator {name!r}")
            self.propagator = make(self.z3, self.solver, *args, self._atoms())
        start = time.process_time()
        result = self.solver.check(*assumptions)
        if self.stats and self.propagator is not None:
            print(
                f"z3-prop: {result} after {time.process_time() - start:.2f} s cpu, propagator {self.propagator.events}",
                file=sys.stderr,
                flush=True,
            )
        return str(result)

    def _values(self, names: list[str]) -> str:
        model = self.solver.model()
        pairs = []
        for name, term in zip(names, self._parse(names)):
            pairs.append(f"({name} {model.eval(term, model_completion=True).sexpr()})")
        return "(" + " ".join(pairs) + ")"


def _split_terms(text: str) -> list[str]:
    """The top-level terms of ``a (not b) c``."""
    terms, depth, start = [], 0, None
    for i, ch in enumerate(text + " "):
        if ch == "(":
            depth += 1
            start = i if start is None else start
        elif ch == ")":
            depth -= 1
        elif ch.isspace() and depth == 0:
            if start is not None:
                terms.append(text[start:i])
                start = None
            continue
        elif start is None:
            start = i
    return terms


def _error(message: str) -> str:
    return '(error "' + " ".join(str(message).split()).replace('"', '""') + '")\n'


__all__ = ["Z3PropBackend"]
