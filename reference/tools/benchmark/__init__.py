"""Benchmark: time and peak memory of every registered mechanism's twin, beside the peers its declaration names.

    pip install -e '.[bench]'
    python -m ldpspec.reference.tools.benchmark                 # every table
    python -m ldpspec.reference.tools.benchmark --set-valued    # only the set-valued rows
    python -m ldpspec.reference.tools.benchmark --ipldp         # only the per-item-budget rows and the estimators
    python -m ldpspec.reference.tools.benchmark --numeric       # only the mechanisms for numbers and HierA
    python -m ldpspec.reference.tools.benchmark --kernel        # only the kernel's verdicts on IDUE at 10^5 items

What is measured comes from the mechanisms' declarations (``Mechanism.benchmark``, a ``Benchmark``), and nothing
from names, parameters or type hints: each mechanism brings its **workload** (``workload(n, d, rng)``: the mechanism
at eps = 1 over about ``d`` items, and ``n`` users' inputs), the **group** it is measured in, and its **peers** (the
same mechanism in a peer library, multi-freq-ldpy or pure-ldp: a per-user client, prepared and compiled before it
is timed); what a user holds and what a report is are its ``inputs`` and ``reports``. The workloads: IDUE and
IDUE-PS, three levels {1, 1.2, 2} holding 5%, 5% and 90% of the items, solved by opt0 before timing; IDUE-PS and its
baselines, padding length 4 and sets of 1 to 8 items; Cao et al.'s mechanisms, every user a uniform set of
``m = min(8, d)`` items, the first ``d // 4`` items sensitive (items 0..63 at d = 256), their baselines every item;
``padded``, sets of 1 to ``2m`` items, padded or sampled to ``m``.

The tables, each at sizes of its own (``--sizes NxD`` or ``NxD:KIND``; pinned by default):

* **Every mechanism not for numbers** (``inputs`` other than ``"number"``), at (n, d) = (1e5, 100), (1e6, 100) and
  (1e6, 1000): **reports** (every user's report, kept in memory; ours: the twin's arrays, bit vectors packed eight
  to a byte; a peer's: its client called once per user, the reports kept in a list) and **simulation** (the
  server's counts drawn directly; ours only, the peers have no such operation). A peer library's row stands exactly
  where the mechanism declares that peer (``Benchmark.peers``). The last column is the **cost per released bit**
  of every reports row, nanoseconds per bit the users release in all, by the declared report: ``log2 d`` bits for
  one item of ``d``, the bits of one output for a bit vector (``d``; ``m + l`` for IDUE-PS and its baselines);
  other reports have no such count. A peer's row is divided by the same count as ours, so that the distance to the
  hardware's limit shows.
* **Set-valued mechanisms** (``group == "sets"``: users holding sets of ``m`` items, Cao et al. 2022), also at
  (n, d, m) = (1e6, 256, 8), with ``m`` and the sensitive items. No public Python library implements them: they
  are compared with our own baselines GRR-Sample and RAPPOR-Sample (``report.SET_BASELINES``), measured in the same
  run.
* **Per-item budgets** (``group == "per-item-budgets"``: the IPLDP preprint's IPRR and its baselines KRR and uRR) at
  (n, d) = (1e6, 100) and (1e6, 1e4), reports and simulation, beside the clients GRR declares for its peers at
  eps = 1 (no peer implements per-item budgets). Their workloads: IPRR with half the items non-sensitive and four
  budget levels in [0.1, 10] on the other half, KRR at eps = 0.1 over every item (``Grr.from_budgets``), uRR at
  eps = 1 with the first ``d // 4`` items sensitive, every user's item uniform.
* **Estimators** of a direct encoding (``reference.shared.direct``) at (1e6, 1e4), on the counts of the reports of
  each per-item-budget mechanism and of GRR at eps = 1: the empirical estimate, Norm-Sub (of the empirical
  estimate), the MLE in closed form (``mle_np``, water-filling) and the same MLE by EM to the l1 tolerance 1e-10
  (``em``: at most 100,000 iterations; the iterations and whether it converged are shown), beside multi-freq-ldpy's
  GRR estimators on the same GRR counts: ``MI`` (the inverse clipped at 0 and rescaled) and ``IBU`` (its EM on the
  dense d x d matrix, capped at ``peers.PEER_IBU_ITERATIONS``, since it costs d^2 per iteration). The counts and
  the channel's column structure in floats are made before timing; making the structure (exact) and converting it
  to floats is shown as *preparation*.
* **Mechanisms for a number** of [-1, 1] (``inputs == "number"``: Harmony, PM, Laplace, graded Laplace, LHP) at
  n = 1e6 and 1e7, every user's number uniform on [-1, 1]: **reports** (every user's release), **estimate** (the
  server's estimate from the reports, which are made before timing) and **simulation** (the server's statistic
  drawn directly); and the whole of HierA (``hiera``: LHP's reports drawn a million users at a time and counted,
  then PLC and steps 5-7 with mu = 2, reading A, clipped as printed) on the paper's five levels with eps_0 = 1. No
  package the registries hold implements PM or Harmony (pure-ldp, multi-freq-ldpy and ldp-toolbox 0.1.3 have
  frequency oracles only), so the reference points are plain NumPy versions of the two, written from the papers in
  ``peers`` (``numpy-plain``), measured in the same run.
* **The kernel** (``--kernel``, sizes ``NxD:kernel``): the kernel's verdict, MinID-LDP and AvgID-LDP, on IDUE over
  ``D`` items in the workload's three levels (by default 100,000 items): the channel's items come in classes, which
  the kernel judges a pair of classes at a time. Beside them (sizes ``0xD:profile``), ``ldpspec profile`` of an
  explicit d x d channel file with random rational rows, at d = 50 and 100, and the time extrapolated to d = 2000
  by its d^3 pairwise work (the complete list of every pair's exact loss, ``--full``); and (sizes ``0xD:explicit``,
  d = 2000 by default) an explicit d x d file of random fractions read from its text and checked for LDP, checked
  for MinID-LDP, or profiled as ``ldpspec profile`` prints by default (the summary), beyond d = 2000 checked for LDP
  alone.

Summary lines follow the tables: our reports against the fastest peer's, the set baselines', the peers' GRR
clients' and the plain NumPy versions', the HierA pipeline against its target, and the MLE's times.

Each measurement runs in a fresh subprocess. Time is the wall-clock time of the operation alone (data and parameters
are made first; for bit-vector reports, where Numba is installed, our compiled path of packed bits is loaded first
too, ``twin_sampling.prepare_compiled``, as the peers' clients are compiled first). Peak memory is the growth of the
process's resident set during the operation: the kernel's high-water mark is reset just before it (Linux
``/proc/self/clear_refs``). Library versions and the machine are printed with the tables.

The modules: ``operations`` (each row's operation, its data made first from the declared workload), ``peers`` (the
reference points written here: the plain NumPy Harmony and PM, multi-freq-ldpy's MI and IBU on GRR's counts),
``measure`` (one measurement in a process of its own: time and peak memory), ``report`` (the tables, their headings
and the summary lines) and ``__main__`` (the command line).
"""
