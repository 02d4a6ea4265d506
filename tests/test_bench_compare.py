"""Head to head, the virtual best configuration and the scatter plot, from CSV rows."""

from __future__ import annotations

from click.testing import CliRunner

from conftest import INSTANCES
from fillsmt.bench.compare import head_to_head, markdown_lines, outcome, scatter_plot, virtual_best
from fillsmt.bench.jobs import parse_config
from fillsmt.cli import main

A, B, C = "yices/default/off", "z3/default/off", "cvc5/default/off"


def row(config: str, puzzle: str, status: str, total: float, timeout: float = 10) -> dict:
    return {"key": f"{puzzle}|{config}", "puzzle": puzzle, "status": status, "checked": "true" if status == "sat" else "",
            "total_s": str(total), "timeout_s": str(timeout)}


ROWS = [row(A, "p1", "sat", 1.0), row(B, "p1", "sat", 2.0), row(C, "p1", "timeout", 10),
        row(A, "p2", "timeout", 10), row(B, "p2", "unsat", 5.0), row(C, "p2", "timeout", 10),
        row(A, "p3", "sat", 1.0), row(B, "p3", "sat", 1.05), row(C, "p3", "sat", 0.5)]


def test_outcome_wins_losses_and_ties():
    assert outcome(row(A, "p", "sat", 1.0), row(B, "p", "sat", 2.0)) == 1
    assert outcome(row(A, "p", "timeout", 10), row(B, "p", "unsat", 9.0)) == -1
    assert outcome(row(A, "p", "timeout", 10), row(B, "p", "timeout", 10)) == 0
    assert outcome(row(A, "p", "sat", 1.0), row(B, "p", "sat", 1.05)) == 0  # within 10 %
    assert outcome(row(A, "p", "sat", 0.001), row(B, "p", "sat", 0.009)) == 0  # within 0.01 s
    assert outcome(row(A, "p", "error", 0.1), row(B, "p", "sat", 9.0)) == -1


def test_head_to_head_counts_each_pair_both_ways():
    pairs = head_to_head(ROWS)
    a, b, c = map(parse_config, (A, B, C))
    assert pairs[(a, b)] == (1, 1, 1)
    assert pairs[(b, a)] == (1, 1, 1)
    assert pairs[(a, c)] == (1, 1, 1)
    assert pairs[(b, c)] == (2, 1, 0)
    assert pairs[(c, b)] == (1, 2, 0)


def test_virtual_best_takes_the_fastest_solver_per_puzzle():
    best, unsolved = virtual_best(ROWS + [row(A, "p4", "timeout", 10), row(B, "p4", "unknown", 3)])
    assert {p: (cfg.label, t) for p, (cfg, t) in best.items()} == {"p1": (A, 1.0), "p2": (B, 5.0), "p3": (C, 0.5)}
    assert unsolved == ["p4"]
    text = "\n".join(markdown_lines(ROWS))
    assert f"| {A} | – | 1–1–1 | 1–1–1 |" in text
    assert "| 3/3 | 1.000 | 2.167 | 2.167 |" in text
    assert f"Fastest on how many puzzles: {A} 1, {B} 1, {C} 1." in text


def test_scatter_plot_is_a_png(tmp_path):
    path = tmp_path / "scatter.png"
    scatter_plot(ROWS, parse_config(A), parse_config(B), path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bench_all_solvers_with_scatter(tmp_path):
    out = CliRunner().invoke(main, ["bench", str(INSTANCES / "g12-5x5.txt"), "-s", "yices", "-s", "yices-api",
                                    "--csv", str(tmp_path / "r.csv"), "--scatter", str(tmp_path / "s.png"),
                                    "--no-progress"])
    assert out.exit_code == 0, out.output
    assert "Head to head" in out.output and "Virtual best configuration" in out.output
    assert (tmp_path / "s.png").read_bytes()[:4] == b"\x89PNG"
    lone = CliRunner().invoke(main, ["bench", str(INSTANCES / "g12-5x5.txt"), "-s", "yices",
                                     "--csv", str(tmp_path / "q.csv"), "--scatter", str(tmp_path / "t.png")])
    assert lone.exit_code == 2
    assert "--scatter needs two configurations" in lone.output


def test_bench_solver_all_means_every_installed_one():
    from fillsmt.cli.bench import installed_solvers
    from fillsmt.drivers import SOLVERS, get_driver

    assert installed_solvers() == [n for n in SOLVERS if n != "portfolio" and get_driver(n).available()]
    assert "yices" in installed_solvers()
