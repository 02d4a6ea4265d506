"""``python -m fillsmt.drivers.api_worker SOLVER [--incremental]``: SMT-LIB through a solver's
Python API (``cvc5``, ``bitwuzla``, or Z3 with fillsmt's propagator: ``z3-prop``,
:mod:`fillsmt.drivers.z3_backend`), in a process of its own.

Neither API can be interrupted from outside, so the cvc5 and Bitwuzla drivers run this worker
through the same process runner as the solver binaries: a time-out kills it with its process
group, and nothing is left behind. It reads SMT-LIB commands on standard input and prints what a
solver binary would (``sat``, ``((n_0 1))``, ``(error "…")``); with ``--incremental`` it runs
each complete command group as it arrives and answers at once, which is what a session needs.
"""

from __future__ import annotations

import sys
from typing import Callable, Iterator, TextIO

BACKENDS = ("cvc5", "bitwuzla", "z3-prop")


def error(message: str) -> str:
    """An SMT-LIB error reply on one line."""
    return '(error "' + " ".join(str(message).split()).replace('"', '""') + '")\n'


class Cvc5Backend:
    """cvc5's own SMT-LIB parser and command objects: every command runs as in the cvc5 binary."""

    def __init__(self) -> None:
        import cvc5

        self._cvc5 = cvc5
        self.tm = cvc5.TermManager()
        self.solver = cvc5.Solver(self.tm)
        self.solver.setOption("produce-models", "true")
        self.solver.setOption("incremental", "true")
        self.symbols = cvc5.SymbolManager(self.tm)
        self.parser = cvc5.InputParser(self.solver, self.symbols)
        self.done = False

    def run(self, text: str, out: Callable[[str], None]) -> None:
        self.parser.setStringInput(self._cvc5.InputLanguage.SMT_LIB_2_6, text, "fillsmt")
        while not self.done:
            try:
                command = self.parser.nextCommand()
            except RuntimeError as e:  # a command cvc5 cannot parse: the rest of the group is dropped
                out(error(f"cvc5: {e}"))
                return
            if command.isNull():
                return
            if command.getCommandName() == "exit":
                self.done = True
                return
            try:
                out(command.invoke(self.solver, self.symbols))
            except RuntimeError as e:
                out(error(f"cvc5: {e}"))


class BitwuzlaBackend:
    """Bitwuzla's parser for declarations and terms; assertions, checks, values and push/pop go
    through its solver API (its parser loses count of push levels between two ``parse`` calls)."""

    def __init__(self) -> None:
        import bitwuzla

        self._bz = bitwuzla
        options = bitwuzla.Options()
        options.set(bitwuzla.Option.PRODUCE_MODELS, True)
        self.parser = bitwuzla.Parser(bitwuzla.TermManager(), options)
        self.done = False

    def _term(self, sexpr) -> object:
        from fillsmt.smtlib.answer import render_sexpr

        return self.parser.parse_term(render_sexpr(sexpr))

    def _command(self, command: list, out: Callable[[str], None]) -> None:
        from fillsmt.smtlib.answer import render_sexpr

        name, args = command[0], command[1:]
        if name == "exit":
            self.done = True
        elif name == "echo":
            out('"' + str(args[0]).replace('"', '""') + '"\n')
        elif name == "assert":
            self.parser.bitwuzla().assert_formula(self._term(args[0]))
        elif name in ("check-sat", "check-sat-assuming"):
            assumptions = [self._term(a) for a in args[0]] if name == "check-sat-assuming" else []
            out(str(self.parser.bitwuzla().check_sat(*assumptions)) + "\n")
        elif name == "get-value":
            solver = self.parser.bitwuzla()
            pairs = [f"({render_sexpr(t)} {solver.get_value(self._term(t))})" for t in args[0]]
            out("(" + " ".join(pairs) + ")\n")
        elif name in ("push", "pop"):
            levels = int(args[0]) if args else 1
            getattr(self.parser.bitwuzla(), name)(levels)
        else:  # set-logic, set-option, set-info, declarations and definitions
            self.parser.parse(render_sexpr(command), False, False)

    def run(self, text: str, out: Callable[[str], None]) -> None:
        from fillsmt.smtlib.sexpr import SExprError, read_all

        try:
            commands = [c.value for c in read_all(text)]
        except SExprError as e:
            out(error(f"bitwuzla worker cannot read the commands: {e}"))
            return
        for command in commands:
            if self.done:
                return
            if not (isinstance(command, list) and command and isinstance(command[0], str)):
                out(error(f"not a command: {command!r}"))
                continue
            try:
                self._command(command, out)
            except self._bz.BitwuzlaException as e:
                out(error(f"bitwuzla: {e}"))


def backend(name: str):
    if name == "cvc5":
        return Cvc5Backend()
    if name == "bitwuzla":
        return BitwuzlaBackend()
    if name == "z3-prop":
        from fillsmt.drivers.z3_backend import Z3PropBackend

        return Z3PropBackend()
    raise LookupError(f"unknown API backend {name!r}; choose one of {', '.join(BACKENDS)}")


def complete_groups(stream: TextIO) -> Iterator[str]:
    """Lines of ``stream`` gathered into groups of whole commands (parentheses balanced outside
    strings, quoted symbols and comments), each yielded as soon as it is complete."""
    buffer: list[str] = []
    depth, in_string, in_quoted = 0, False, False
    for line in stream:
        buffer.append(line)
        i, n = 0, len(line)
        while i < n:
            ch = line[i]
            if in_string:
                if ch == '"':
                    if i + 1 < n and line[i + 1] == '"':  # "" is a quote inside the string
                        i += 1
                    else:
                        in_string = False
            elif in_quoted:
                in_quoted = ch != "|"
            elif ch == '"':
                in_string = True
            elif ch == "|":
                in_quoted = True
            elif ch == ";":
                break
            elif ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            i += 1
        if depth <= 0 and not in_string and not in_quoted and "".join(buffer).strip():
            yield "".join(buffer)
            buffer, depth = [], 0
    if "".join(buffer).strip():
        yield "".join(buffer)


def main(argv: list[str] | None = None, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    argv = sys.argv[1:] if argv is None else argv
    incremental = "--incremental" in argv
    names = [a for a in argv if a != "--incremental"]

    def out(text: str) -> None:
        if text:
            stdout.write(text)
            stdout.flush()

    try:
        solver = backend(names[0] if names else "")
    except (LookupError, ImportError) as e:
        out(error(str(e)))
        return 1
    groups = complete_groups(stdin) if incremental else iter([stdin.read()])
    for group in groups:
        solver.run(group, out)
        if solver.done:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
