"""The IPLDP preprint's Figs. 2, 3 and 4 on the generated Zipf data set, from the runs the audit decides them with.

    python docs/scripts/plot_ipldp2023.py

Writes build/figures/ipldp2023-fig2.png, ipldp2023-fig3.png and ipldp2023-fig4.png (the site's build runs it:
docs/hooks/figures.py): MSE (in frequencies) and RE
against the sample ratio SR (Fig. 3: against NR), per mechanism, NS solid and MLE dashed, each point the mean of the
audit's repetitions (``verify.ipldp2023.experiments``; n = SR times the 100,000 users, the reading
``sample_count=users``). IDUE's MLE is not run. Kosarak is not in the repository.
"""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from ldpspec.verify.claims import AuditSettings  # noqa: E402
from ldpspec.verify.ipldp2023.experiments import reps_for, run  # noqa: E402

FIGURES = Path(__file__).resolve().parents[2] / "build" / "figures"
READING = "users"
COLOURS = {"IPRR": "C0", "KRR": "C1", "URR": "C2", "IDUE-opt0": "C3", "IDUE-opt1": "C4", "IDUE-opt2": "C5"}
MARKERS = {"IPRR": "o", "KRR": "s", "URR": "^", "IDUE-opt0": "D", "IDUE-opt1": "v", "IDUE-opt2": "x"}
TITLES = {1: "#1 high privacy (eps 0.1..1)", 2: "#2 low privacy (eps 1..10)", 3: "#3 hybrid (eps 0.1..10)",
          4: "#4 SR = 1 (eps 0.1..10)", 5: "#5 NR = 0 (eps 0.1..10)"}


def panel(axis, data, metric: str) -> None:
    xs = [float(x) for x in data.setting.xs]
    for name in data.setting.mechanisms:
        for estimator, style in (("NS", "-"), ("MLE", "--")):
            means = [data.mean_se(k, name, estimator, metric, "frequencies")[0] for k in range(len(xs))]
            if all(mean == mean for mean in means):  # IDUE's MLE is not run (NaN)
                axis.plot(xs, means, style, color=COLOURS[name], marker=MARKERS[name], ms=4,
                          label=f"{name} {estimator}")
    axis.set_yscale("log")
    axis.set_xlabel(data.setting.axis)
    axis.set_ylabel(metric)
    axis.set_title(f"{TITLES[data.setting.number]}: {metric}")
    axis.grid(True, which="both", alpha=0.3)


def figure(numbers, name: str, title: str, folder: Path) -> Path:
    reps = reps_for(AuditSettings())
    shape = (2, len(numbers))
    fig, axes = plt.subplots(*shape, figsize=(5 * len(numbers), 7.5), squeeze=False)
    for column, number in enumerate(numbers):
        data = run(number, READING, reps)
        for row, metric in enumerate(("MSE", "RE")):
            panel(axes[row][column], data, metric)
    axes[0][0].legend(fontsize=7)
    fig.suptitle(f"{title} on Zipf (100,000 users, 20 items, alpha = 2): n = SR x users, mean of {reps} repetitions")
    fig.tight_layout()
    path = folder / f"ipldp2023-{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def main(folder: Path = FIGURES) -> list[Path]:
    return [figure((1, 2, 3), "fig2", "Fig. 2: IPRR, KRR, URR", folder),
            figure((4,), "fig3", "Fig. 3: IPRR and URR against NR", folder),
            figure((5,), "fig4", "Fig. 4: IPRR and IDUE (opt0, opt1, opt2)", folder)]


if __name__ == "__main__":
    for written in main():
        print(f"wrote {written}")
