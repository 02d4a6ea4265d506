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
IGNORED = {"set-option", "set-info", "set-logic", "declare-fun", "declare-const", "define-fun",
           "declare-sort", "define-sort", "exit", "get-info"}


def _error(message: str) -> str:
    return '(error "' + " ".join(message.split()).replace('"', '""') + '")'


def installed_solvers() -> list[str]:
    from pysmt.shortcuts import get_env

    names = set(get_env().factory.all_solvers())
    return [n for n in PREFERENCE if n in names] + sorted(names - set(PREFERENCE))


def choose(backend: str) -> str:
    solvers = installed_solvers()
    if backend == "auto":
        if not solvers:
            raise LookupError("pysmt finds no solver installed (pip install z3-solver, or cvc5)")
        return solvers[0]
    if backend not in solvers:
        raise LookupError(f"pysmt has no solver {backend!r} installed (installed: {', '.join(solvers) or 'none'})")
    return backend


def evaluate(text: str, backend: str, out) -> int:
    from pysmt.exceptions import SolverReturnedUnknownResultError
    from pysmt.shortcuts import Solver
    from pysmt.smtlib.parser import SmtLibParser

    try:
        name = choose(backend)
    except LookupError as e:
        print(_error(str(e)), file=out)
        return 1
    try:
        script = SmtLibParser().get_script(io.StringIO(text))
    except Exception as e:  # pysmt's parser raises several kinds (KeyError for unknown symbols)
        print(_error(f"pysmt cannot parse the script: {type(e).__name__}: {e}"), file=out)
        return 1
    logic = next((str(c.args[0]) for c in script.commands if c.name == "set-logic"), None)
    has_model = False
    try:
        with Solver(name=name, logic=logic) as solver:
            for cmd in script.commands:
                if cmd.name == "assert":
                    solver.add_assertion(cmd.args[0])
                elif cmd.name == "check-sat":
                    try:
                        has_model = solver.solve()
                        print("sat" if has_model else "unsat", file=out)
                    except SolverReturnedUnknownResultError:
                        has_model = False
                        print("unknown", file=out)
                elif cmd.name == "get-value":
                    if not has_model:
                        print(_error("model is not available"), file=out)
                        continue
                    pairs = [f"({t.to_smtlib(daggify=False)} {solver.get_value(t).to_smtlib(daggify=False)})"
                             for t in cmd.args]
                    print("(" + " ".join(pairs) + ")", file=out)
                elif cmd.name not in IGNORED:
                    print(_error(f"pysmt worker does not run the command {cmd.name}"), file=out)
                out.flush()
    except Exception as e:  # the backend's own exceptions are not all PysmtException
        print(_error(f"pysmt ({name}): {type(e).__name__}: {e}"), file=out)
        return 1
    return 0


def _print(out, text: str) -> None:
    print(text, file=out)
    out.flush()


def interact(stream, backend: str, out) -> int:
    """``--incremental``: run commands as they arrive (push, pop, check-sat-assuming and echo
    included), answering each at once, until ``(exit)`` or the end of the input."""
    from pysmt.exceptions import SolverReturnedUnknownResultError
    from pysmt.shortcuts import Solver
    from pysmt.smtlib.parser import SmtLibParser

    try:
        name = choose(backend)
    except LookupError as e:
        _print(out, _error(str(e)))
        return 1
    parser = SmtLibParser(interactive=True)
    parser._reset()  # get_script() would do this; the command generator does not
    logic, solver, has_model = None, None, False
    commands = parser.get_command_generator(stream)
    while True:
        try:
            cmd = next(commands)
        except StopIteration:
            break
        except Exception as e:  # a command pysmt cannot parse: say so, as a solver would
            _print(out, _error(f"pysmt cannot parse the command: {type(e).__name__}: {e}"))
            return 1
        try:
            if cmd.name == "set-logic":
                logic = str(cmd.args[0])
            elif cmd.name == "exit":
                break
            elif cmd.name == "echo":
                _print(out, str(cmd.args[0]).strip('"'))
            elif cmd.name in IGNORED:
                pass
            else:
                if solver is None:
                    solver = Solver(name=name, logic=logic)
                if cmd.name == "assert":
                    solver.add_assertion(cmd.args[0])
                elif cmd.name == "push":
                    solver.push(cmd.args[0] if cmd.args else 1)
                elif cmd.name == "pop":
                    solver.pop(cmd.args[0] if cmd.args else 1)
                elif cmd.name in ("check-sat", "check-sat-assuming"):
                    assumptions = list(cmd.args) if cmd.name == "check-sat-assuming" else None
                    try:
                        has_model = solver.solve(assumptions)
                        _print(out, "sat" if has_model else "unsat")
                    except SolverReturnedUnknownResultError:
                        has_model = False
                        _print(out, "unknown")
                elif cmd.name == "get-value":
                    if not has_model:
                        _print(out, _error("model is not available"))
                        continue
                    pairs = [f"({t.to_smtlib(daggify=False)} {solver.get_value(t).to_smtlib(daggify=False)})"
                             for t in cmd.args]
                    _print(out, "(" + " ".join(pairs) + ")")
                else:
                    _print(out, _error(f"pysmt worker does not run the command {cmd.name}"))
        except Exception as e:  # the backend's own exceptions are not all PysmtException
            _print(out, _error(f"pysmt ({name}): {type(e).__name__}: {e}"))
    if solver is not None:
        solver.exit()
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
