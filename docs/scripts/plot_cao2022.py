"""Cao et al. Figs. 1, 3 and 4 on the simulated data set, from the exact MSE the audit decides them with.

    python docs/scripts/plot_cao2022.py

Writes build/figures/cao2022-mse.png (the site's build runs it: docs/hooks/figures.py). The curves are exact
expected MSEs (no sampling): ``verify.cao2022.experiments`` (n = 100,000 users holding uniform sets of m items, a
quarter of the d items sensitive; the MSE summed over items).
"""

from fractions import Fraction
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from ldpspec.verify.cao2022.experiments import (  # noqa: E402
    FIG3_DOMAINS,
    FIG4_SIZES,
    fig1_curves,
    fig3_curves,
    fig4_curves,
)
from ldpspec.verify.cao2022.orders import SU_MECHANISMS, UNBIASED  # noqa: E402
from ldpspec.verify.cao2022.readings import EPS_BUDGETS  # noqa: E402
from ldpspec.verify.claims import complete_reading, reading_context  # noqa: E402

FIGURES = Path(__file__).resolve().parents[2] / "build" / "figures"
MARKERS = dict(zip(SU_MECHANISMS, "osD^v"))


def main(folder: Path = FIGURES) -> list[Path]:
    budgets = EPS_BUDGETS["wide"]
    # the values the figures' claims fix on purpose (the unbiased estimates the paper's variances describe)
    reading = complete_reading("cao2022", {f.choice.name: f.value for f in UNBIASED})
    with reading_context("cao2022", reading, declared=set(reading)):  # a script: it may give any value explicitly
        panels = [
            ("Fig. 1: MSE against eps (d = 256, m = 8)", "eps", [float(Fraction(e)) for e in budgets],
             fig1_curves("Simulated", budgets)),
            ("Fig. 3: MSE against d (eps = 1, m = 8)", "d", list(FIG3_DOMAINS), fig3_curves("sum")),
            ("Fig. 4: MSE against m (eps = 1, d = 256)", "m", list(FIG4_SIZES), fig4_curves()),
        ]
    figure, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    for axis, (title, label, xs, curves) in zip(axes, panels):
        for name in SU_MECHANISMS:
            axis.plot(xs, [float(v) for v in curves[name]], marker=MARKERS[name], ms=4, label=name)
        axis.set_yscale("log")
        if label != "eps":
            axis.set_xscale("log", base=2)
        axis.set_xlabel(label)
        axis.set_ylabel("MSE (sum over items)")
        axis.set_title(title)
        axis.grid(True, which="both", alpha=0.3)
    axes[0].legend()
    figure.suptitle("Cao et al. on the simulated data set: exact expected MSE (n = 100,000, uniform sets, "
                    "a quarter of the items sensitive)")
    figure.tight_layout()
    path = folder / "cao2022-mse.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return [path]


if __name__ == "__main__":
    for written in main():
        print(f"wrote {written}")
