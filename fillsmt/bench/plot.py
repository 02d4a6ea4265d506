"""The cactus plot of a run: one line per configuration, the SMT-competition way.

For each configuration, the total times of its solved runs are sorted; the k-th point is
(k, the time of the k-th fastest). A line further right solved more; lower is faster.
"""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO

from fillsmt.bench.summary import config_of, is_solved, seconds
from fillsmt.errors import InputError

SMALLEST = 1e-4  # seconds: a time shown on the log scale is never below this


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise InputError("--plot needs matplotlib; install it with: pip install matplotlib") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def cactus_plot(rows: list[dict], path: str | Path | BinaryIO, title: str = "") -> None:
    """Write the cactus plot of ``rows`` to ``path`` (PNG)."""
    plt = _pyplot()
    lines: dict[str, list[float]] = {}
    runs: dict[str, int] = {}
    for row in rows:
        label = config_of(row).label
        runs[label] = runs.get(label, 0) + 1
        lines.setdefault(label, [])
        if is_solved(row):
            lines[label].append(max(seconds(row), SMALLEST))
    timeouts = {float(r["timeout_s"]) for r in rows}
    fig, ax = plt.subplots(figsize=(8, 5), dpi=120)
    markers = "osD^vP*Xhp<>"
    for i, (label, times) in enumerate(lines.items()):
        times.sort()
        ax.plot(
            range(1, len(times) + 1),
            times,
            marker=markers[i % len(markers)],
            markersize=4,
            linewidth=1.5,
            label=f"{label} ({len(times)}/{runs[label]})",
        )
    for t in sorted(timeouts):
        ax.axhline(t, color="grey", linestyle="--", linewidth=1)
        ax.annotate(
            f"time-out {t:g} s", (0.01, t), xycoords=("axes fraction", "data"), va="bottom", fontsize=8, color="grey"
        )
    ax.set_yscale("log")
    ax.set_xlim(0, max(runs.values(), default=1) + 0.5)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("puzzles solved")
    ax.set_ylabel("total time per puzzle (s, log scale)")
    ax.set_title(title or "fillsmt bench: cactus plot")
    ax.grid(True, which="major", alpha=0.4)
    ax.grid(True, which="minor", axis="y", alpha=0.15)
    ax.legend(title="solver/encoding/presolve (solved/runs)", fontsize=8, title_fontsize=8, loc="lower right")
    save(fig, path)


def save(fig, path: str | Path | BinaryIO) -> None:
    """Write ``fig`` as PNG to ``path`` and free it."""
    plt = _pyplot()
    fig.tight_layout()
    try:
        fig.savefig(path, format="png")
    except OSError as e:
        raise InputError(f"{path}: cannot write the plot: {e.strerror or e}") from None
    finally:
        plt.close(fig)
