"""Hao et al. 2023's Figs. 1, 2 and 3 on the stand-in data the audit decides them with.

    python docs/scripts/plot_hiera2023.py

Writes build/figures/hiera2023-fig1.png, hiera2023-fig2.png and hiera2023-fig3.png (the site's build runs it:
docs/hooks/figures.py) from ``verify.hiera2023``:

* Fig. 1: the mean squared error of HierA's estimate against mu = 1..5 on the age-like stand-in at eps_0 = 1, reading
  A of step 5 with |V*| all its data: exact without clipping, simulated (3000 runs) with the printed clipping;
* Fig. 2: the mean squared error against eps_0 on the three synthetic shapes, Harmony, PM and graded Laplace exactly,
  HierA (mu = 2, reading A, |V*| all) exactly without clipping and simulated (100 runs) with it;
* Fig. 3: the test MSE of the linear-regression stand-in per method, under both readings of the components' budget,
  HierA as printed (the mean of the audit's runs, with the runs as points).

The paper plots MAE; the audit compares mean squared errors, which these plots show (log scales).
"""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from ldpspec.verify.hiera2023 import experiments as ex  # noqa: E402
from ldpspec.verify.hiera2023 import sgd  # noqa: E402
from ldpspec.verify.hiera2023.builders import collector  # noqa: E402

FIGURES = Path(__file__).resolve().parents[2] / "build" / "figures"
PRINTED = {"compensation": "A", "size": "all", "clipping": "printed"}
"""HierA as printed: reading A of step 5, |V*| all its data, clipped (LHP at the fixed reading of its value's budget,
the reported level's)."""
COLOURS = {"HierA": "C0", "HierA (clipped)": "C0", "graded-laplace": "C1", "harmony": "C2", "pm": "C3"}


def figure1(folder: Path) -> Path:
    mus = (1, 2, 3, 4, 5)
    counts = ex.data_set("age-like")
    exact = [ex.hiera_unclipped_variance(counts, 1.0, mu, "A") for mu in mus]
    collectors = {mu: collector(ex.paper_lhp(1.0), mu, **PRINTED) for mu in mus}
    simulated = ex.hiera_simulated_errors(counts, collectors, runs=3000, seed=1)
    fig, axis = plt.subplots(figsize=(5, 3.6))
    axis.plot(mus, exact, "o-", label="unclipped (exact)")
    axis.errorbar(mus, [simulated[mu].mean() for mu in mus],
                  yerr=[2 * simulated[mu].std(ddof=1) / np.sqrt(3000) for mu in mus], fmt="s--",
                  label="clipped as printed (3000 runs, 2 SE)")
    axis.set_xlabel("mu")
    axis.set_ylabel("MSE of the mean")
    axis.set_title("Fig. 1 recomputed: age-like stand-in, eps_0 = 1")
    axis.legend(fontsize=8)
    fig.tight_layout()
    path = folder / "hiera2023-fig1.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def figure2(folder: Path) -> Path:
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8), sharey=False)
    for axis, data in zip(axes, ex.DATA_SETS):
        counts = ex.data_set(data)
        for method in ("harmony", "pm", "graded-laplace"):
            axis.plot(ex.EPS0, [ex.baseline_mse(method, counts, e) for e in ex.EPS0], "o-", color=COLOURS[method],
                      label=method)
        axis.plot(ex.EPS0, [ex.hiera_unclipped_variance(counts, e, 2, "A") for e in ex.EPS0], "s-",
                  color=COLOURS["HierA"], label="HierA mu = 2 (unclipped, exact)")
        clipped = [ex.hiera_simulated_errors(counts, {2: collector(ex.paper_lhp(e), 2, **PRINTED)}, runs=ex.RUNS)[2]
                   .mean() for e in ex.EPS0]
        axis.plot(ex.EPS0, clipped, "s--", color=COLOURS["HierA (clipped)"], label="HierA mu = 2 (clipped, 100 runs)")
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_xlabel("eps_0")
        axis.set_title(data)
    axes[0].set_ylabel("MSE of the mean")
    axes[0].legend(fontsize=7)
    fig.suptitle("Fig. 2 recomputed: synthetic stand-ins, 10^6 users, the paper's five levels")
    fig.tight_layout()
    path = folder / "hiera2023-fig2.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def figure3(folder: Path) -> Path:
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    for axis, reading in zip(axes, ("full", "split")):
        errors = sgd.model_errors(component_budget=reading, **PRINTED)
        for position, method in enumerate(sgd.METHODS):
            axis.bar(position, errors[method].mean(), color=f"C{position}", alpha=0.6)
            axis.plot([position] * len(errors[method]), errors[method], "k.", ms=4)
        axis.set_xticks(range(len(sgd.METHODS)), sgd.METHODS)
        axis.set_yscale("log")
        axis.set_ylabel("test MSE")
        axis.set_title(f"component_budget = {reading}")
    fig.suptitle(f"Fig. 3 recomputed: linear-regression stand-in, eps_0 = {sgd.EPS0}, {sgd.RUNS} runs, HierA as "
                 "printed")
    fig.tight_layout()
    path = folder / "hiera2023-fig3.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def main(folder: Path = FIGURES) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    return [figure1(folder), figure2(folder), figure3(folder)]


if __name__ == "__main__":
    for written in main():
        print(f"wrote {written}")
