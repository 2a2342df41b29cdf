"""Reproduce Gu et al. Fig. 3: theoretical (dashed) and empirical (solid) MSE against eps.

    python docs/scripts/plot_gu2020_fig3.py

Writes build/figures/gu2020-fig3.png (the site's build runs it: docs/hooks/figures.py). Data, budgets and curves
are those of ``verify.gu2020.experiments`` (the paper's settings, n = 100,000, 10 runs).
"""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from ldpspec.verify.gu2020.experiments import EPSILON_GRID, MECHANISMS, fig3  # noqa: E402

FIGURES = Path(__file__).resolve().parents[2] / "build" / "figures"
COLOURS = dict(zip(MECHANISMS, ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple")))


def main(folder: Path = FIGURES) -> list[Path]:
    figure, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for axis, dataset, title in zip(axes, ("power-law", "uniform"), ("Power-law (m = 100)", "Uniform (m = 1000)")):
        data = fig3(dataset, runs=10)
        for mechanism in MECHANISMS:
            axis.plot(EPSILON_GRID, data.series(mechanism, "plotted"), "--", color=COLOURS[mechanism])
            axis.plot(EPSILON_GRID, data.series(mechanism, "empirical"), "-o", ms=3, color=COLOURS[mechanism],
                      label=mechanism)
        axis.set_yscale("log")
        axis.set_xlabel("eps (min E; levels eps, 1.2 eps, 2 eps)")
        axis.set_ylabel("total MSE / n")
        axis.set_title(title)
        axis.grid(True, which="both", alpha=0.3)
    axes[0].legend()
    figure.suptitle("Gu et al. Fig. 3: dashed = theoretical, solid = empirical (n = 100,000, 10 runs)")
    figure.tight_layout()
    path = folder / "gu2020-fig3.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return [path]


if __name__ == "__main__":
    for written in main():
        print(f"wrote {written}")
