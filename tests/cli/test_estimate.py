"""``ldpspec estimate``: the JSON it prints is what the estimators of ``reference.shared.direct`` compute, in floats
and exactly, from a registered mechanism or from its channel file; bad counts exit 2 naming ``--counts``; an EM run
that stops at the cap says so."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import numpy as np
import pytest

from ldpspec.reference.registry import MECHANISMS
from ldpspec.reference.shared.direct import em_np, empirical, empirical_np, mle, mle_np, norm_sub, norm_sub_np
from ldpspec.reference.tools import cli
from ldpspec.spec.numbers import to_decimal_string
from tests.fuzz.contract import run

BUDGETS = '[0.5, 1, null, 2]'
COUNTS = [30, 50, 20, 0]


def estimate(argv) -> tuple[dict, str]:
    status, out, err = run(["estimate", *argv])
    assert status == 0, err
    return json.loads(out), err


def error_of(argv) -> str:
    status, out, err = run(["estimate", *argv])
    assert status == 2 and out == "", (status, err)
    assert err.startswith("ldpspec: error: ") and err.count("\n") == 1, err
    return err


def test_the_direct_encodings_are_the_square_mechanisms():
    assert {declaration.name for declaration in cli.direct_encodings()} == {"grr", "krr", "urr", "iprr"}


@pytest.mark.parametrize("argv", [["iprr", "--budgets", BUDGETS], ["krr", "--budgets", BUDGETS],
                                  ["urr", "--budgets", BUDGETS], ["grr", "--epsilon", "1", "--d", "4"]])
def test_the_json_is_what_the_estimators_compute(argv):
    mechanism = MECHANISMS[argv[0]].from_options({argv[k][2:]: argv[k + 1] for k in range(1, len(argv), 2)})
    structure = mechanism.structure()
    result, _ = estimate([*argv, "--counts", json.dumps(COUNTS)])
    values = empirical_np(structure, COUNTS)
    closed = mle_np(structure, COUNTS)
    assert result["n"] == sum(COUNTS)
    assert result["empirical"] == [float(v) for v in values]  # the same functions on the same floats
    assert result["norm_sub"] == [float(v) for v in norm_sub_np(values)]
    assert result["mle"] == {"estimate": [float(v) for v in closed], "method": "closed form (column structure)"}
    by_em = em_np(structure, COUNTS, 1e-13, 1_000_000)  # the same maximum, approached slowly
    assert np.allclose(by_em.estimate, closed, atol=1e-6)
    assert sum(result["norm_sub"]) == pytest.approx(1)


def test_options_may_come_before_or_after_the_mechanism():
    before, _ = estimate(["--counts", json.dumps(COUNTS), "--tolerance", "1e-6", "iprr", "--budgets", BUDGETS])
    after, _ = estimate(["iprr", "--budgets", BUDGETS, "--counts", json.dumps(COUNTS), "--tolerance", "1e-6"])
    assert before == after


def test_exact_and_float_forms_agree():
    argv = ["iprr", "--budgets", BUDGETS, "--counts", json.dumps(COUNTS)]
    floats, _ = estimate(argv)
    exact, _ = estimate([*argv, "--exact"])
    mechanism = MECHANISMS["iprr"].from_options({"budgets": BUDGETS})
    values = empirical(mechanism.structure(), COUNTS)
    assert exact["empirical"] == [to_decimal_string(v) for v in values]
    assert exact["norm_sub"] == [to_decimal_string(v) for v in norm_sub(values)]
    assert [float(v) for v in exact["empirical"]] == pytest.approx(floats["empirical"], rel=1e-12, abs=1e-15)
    assert [float(v) for v in exact["norm_sub"]] == pytest.approx(floats["norm_sub"], rel=1e-12, abs=1e-15)
    assert exact["mle"]["estimate"] == [to_decimal_string(v) for v in mle(mechanism.structure(), COUNTS)]
    assert [float(v) for v in exact["mle"]["estimate"]] == pytest.approx(floats["mle"]["estimate"], abs=1e-12)
    assert exact["norm_sub"][2] == "0" or float(exact["norm_sub"][2]) >= 0


@pytest.mark.parametrize("name", ["iprr", "urr", "krr"])
def test_a_channel_file_and_the_registered_mechanism_give_the_same_numbers(tmp_path, name):
    path = tmp_path / f"{name}.json"
    assert run(["channel", name, "--budgets", BUDGETS, "--output", path])[0] == 0
    counts = ["--counts", json.dumps(COUNTS)]
    registered, _ = estimate([name, "--budgets", BUDGETS, *counts])
    from_file, _ = estimate(["--channel", path, *counts])
    assert from_file.pop("items") == [0, 1, 2, 3]
    assert from_file["n"] == registered["n"]
    for key in ("empirical", "norm_sub"):
        assert from_file[key] == pytest.approx(registered[key], rel=1e-9, abs=1e-12)
    assert from_file["mle"]["estimate"] == pytest.approx(registered["mle"]["estimate"], rel=1e-9, abs=1e-12)
    exact_registered, _ = estimate([name, "--budgets", BUDGETS, *counts, "--exact"])
    exact_file, _ = estimate(["--channel", path, *counts, "--exact"])
    assert exact_file["empirical"] == exact_registered["empirical"]
    assert exact_file["norm_sub"] == exact_registered["norm_sub"]


def test_a_channel_file_is_read_in_the_order_of_its_inputs(tmp_path):
    """Outputs listed in another order than the inputs: the columns are matched by label."""
    path = tmp_path / "grr.json"
    path.write_text(json.dumps({"inputs": ["a", "b", "c"], "outputs": ["c", "a", "b"],
                                "probabilities": [["1/4", "1/2", "1/4"], ["1/4", "1/4", "1/2"],
                                                  ["1/2", "1/4", "1/4"]]}), encoding="utf-8")
    result, _ = estimate(["--channel", path, "--counts", "[50, 30, 20]", "--exact"])
    assert result["items"] == ["a", "b", "c"]
    # GRR with p = 1/2, q = 1/4: p_hat = (m_hat - q) / (p - q)
    assert [float(v) for v in result["empirical"]] == pytest.approx([1.0, 0.2, -0.2])


@pytest.mark.parametrize("counts, message", [
    ("[30, 50, 20]", "--counts must have one count per item (4 items); got 3"),
    ("[30, 50, -1, 0]", "--counts[2] must be an integer in [0, 2^53]"),
    ("[30, 50, 2.5, 0]", "--counts[2] must be an integer in [0, 2^53]"),
    ("[30, 50, 20.0, 0]", "--counts[2] must be an integer in [0, 2^53]"),
    ("[30, 50, true, 0]", "--counts[2] must be an integer in [0, 2^53]"),
    ('[30, 50, "20", 0]', "--counts[2] must be an integer in [0, 2^53]"),
    ("[0, 0, 0, 0]", "--counts must count at least one report"),
    (f"[{2 ** 53 + 1}, 0, 0, 0]", "--counts[0] must be an integer in [0, 2^53]"),
    (f"[{2 ** 53}, 1, 0, 0]", "--counts must total at most 2^53"),
    ("[1" + "0" * 400 + ", 0, 0, 0]", "--counts[0] must be an integer in [0, 2^53]"),
    ("{}", "--counts must be"),
    ("30, 50", "--counts must be"),
])
def test_bad_counts_exit_2_naming_counts(counts, message):
    assert message in error_of(["iprr", "--budgets", BUDGETS, "--counts", counts])


@pytest.mark.parametrize("argv, message", [
    (["iprr", "--budgets", BUDGETS], "needs --counts"),
    (["--counts", "[1, 2]"], "needs either a mechanism"),
    (["iprr", "--budgets", "[0.5, -1, null]", "--counts", "[1, 2, 3]"], "--budgets[1]"),
    (["iprr", "--budgets", BUDGETS, "--counts", "[1, 2, 3, 4]", "--tolerance", "0"], "--tolerance"),
    (["iprr", "--budgets", BUDGETS, "--counts", "[1, 2, 3, 4]", "--tolerance", "-1"], "--tolerance"),
    (["iprr", "--budgets", BUDGETS, "--counts", "[1, 2, 3, 4]", "--tolerance", "1e999"], "--tolerance"),
    (["iprr", "--budgets", BUDGETS, "--counts", "[1, 2, 3, 4]", "--max-iterations", "0"], "--max-iterations"),
])
def test_bad_options_exit_2_naming_them(argv, message):
    assert message in error_of(argv)


def test_a_channel_and_a_mechanism_together_are_refused(tmp_path):
    path = tmp_path / "iprr.json"
    run(["channel", "iprr", "--budgets", BUDGETS, "--output", path])
    assert "exactly one of them" in error_of(["--channel", path, "--counts", "[1, 2, 3, 4]", "iprr",
                                              "--budgets", BUDGETS])


def test_a_channel_file_that_is_not_a_direct_encoding_is_refused(tmp_path):
    path = tmp_path / "oue.json"
    run(["channel", "oue", "--epsilon", "1", "--d", "2", "--output", path])
    assert "not a direct encoding" in error_of(["--channel", path, "--counts", "[1, 2]"])


def test_counts_of_an_output_the_channel_never_reports_are_refused(tmp_path):
    path = tmp_path / "never.json"
    path.write_text(json.dumps({"inputs": ["a", "b", "c"], "outputs": ["a", "b", "c"],
                                "probabilities": [["1/2", "1/2", "0"], ["1/2", "1/2", "0"], ["1/2", "1/2", "0"]]}),
                    encoding="utf-8")
    assert '--counts[2] is 1, but the channel never reports "c"' in error_of(["--channel", path,
                                                                           "--counts", "[1, 1, 1]"])


def test_a_channel_file_with_a_column_structure_is_estimated_in_o_d(tmp_path):
    """GRR over 40 items as a file: the exact estimate needs no inverse (each column is base + extra [y = x]); an
    exact inverse of a 40 x 40 matrix of exponentials would not finish."""
    path = tmp_path / "grr.json"
    run(["channel", "grr", "--epsilon", "1", "--d", "40", "--output", path])
    counts = json.dumps([1] * 40)
    result, _ = estimate(["--channel", path, "--counts", counts, "--exact"])
    assert result["norm_sub"] == ["0.025000000000000000000000000000000000000000000000000"] * 40


def test_an_exact_inverse_beyond_the_work_limit_is_refused(tmp_path):
    """A matrix without the column structure: d^3 steps for rational entries, 10^d with exponentials."""
    rational = tmp_path / "rational.json"
    rows = [["1/2", "1/4", "1/4"], ["1/4", "1/2", "1/4"], ["1/8", "1/8", "3/4"]]
    rational.write_text(json.dumps({"inputs": [0, 1, 2], "outputs": [0, 1, 2], "probabilities": rows}),
                        encoding="utf-8")
    argv = ["--channel", rational, "--counts", "[1, 2, 3]", "--exact"]
    assert "--max-work" in error_of([*argv, "--max-work", "26"])
    result, _ = estimate([*argv, "--max-work", "27"])
    floats, _ = estimate(argv[:-1])
    assert [float(v) for v in result["empirical"]] == pytest.approx(floats["empirical"], rel=1e-12)
    irrational = tmp_path / "irrational.json"
    rows = [["exp(1)/(exp(1)+1)", "1/(exp(1)+1)", "0"], ["1/4", "1/2", "1/4"], ["1/8", "1/8", "3/4"]]
    irrational.write_text(json.dumps({"inputs": [0, 1, 2], "outputs": [0, 1, 2], "probabilities": rows}),
                          encoding="utf-8")
    assert "--max-work" in error_of(["--channel", irrational, "--counts", "[1, 2, 3]", "--exact", "--max-work", "999"])
    estimate(["--channel", irrational, "--counts", "[1, 2, 3]", "--exact", "--max-work", "1000"])


def test_a_singular_channel_is_refused(tmp_path):
    path = tmp_path / "singular.json"
    path.write_text(json.dumps({"inputs": ["a", "b"], "outputs": ["a", "b"],
                                "probabilities": [["1/2", "1/2"], ["1/2", "1/2"]]}), encoding="utf-8")
    assert "not invertible" in error_of(["--channel", path, "--counts", "[1, 1]"])
    assert "not invertible" in error_of(["--channel", path, "--counts", "[1, 1]", "--exact"])


def test_a_mechanism_that_is_not_a_direct_encoding_is_not_offered():
    status, out, err = run(["estimate", "--counts", "[1, 2]", "oue", "--epsilon", "1", "--d", "2"])
    assert status == 2 and out == "" and "invalid choice: 'oue'" in err


DENSE = {"inputs": [0, 1, 2], "outputs": [0, 1, 2],  # no column structure: the MLE is found by EM
         "probabilities": [["1/2", "1/3", "1/6"], ["1/5", "3/5", "1/5"], ["1/4", "1/4", "1/2"]]}


def test_non_convergence_is_reported_and_the_result_printed(tmp_path):
    path = tmp_path / "dense.json"
    path.write_text(json.dumps(DENSE), encoding="utf-8")
    result, err = estimate(["--channel", path, "--counts", "[5, 30, 2]", "--max-iterations", "3"])
    assert result["mle"]["method"] == "EM"
    assert result["mle"]["converged"] is False and result["mle"]["iterations"] == 3
    assert result["mle"]["change"] > 1e-10
    assert err.startswith("ldpspec: warning: EM stopped after 3 iterations (--max-iterations)") and "converged" in err
    assert err.count("\n") == 1


def test_convergence_prints_nothing_on_standard_error(tmp_path):
    path = tmp_path / "dense.json"
    path.write_text(json.dumps(DENSE), encoding="utf-8")
    result, err = estimate(["--channel", path, "--counts", "[20, 30, 25]"])
    assert result["mle"]["converged"] is True and err == ""
    _, err = estimate(["iprr", "--budgets", BUDGETS, "--counts", json.dumps(COUNTS)])
    assert err == ""


@pytest.mark.parametrize("rows, message", [
    ([["1/2", "1/3", "1/6"], ["1/2", "1/3", "1/6"], ["1/5", "3/5", "1/5"]],
     'not invertible (inputs "a" and "b" have the same row: no count tells them apart)'),
    ([["1/2", "1/4", "1/4"], ["0", "1/2", "1/2"], ["1/4", "3/8", "3/8"]], "not invertible (its rows are linearly "
                                                                          "dependent)"),
])
def test_a_singular_matrix_is_refused_saying_why(tmp_path, rows, message):
    path = tmp_path / "singular.json"
    path.write_text(json.dumps({"inputs": ["a", "b", "c"], "outputs": ["a", "b", "c"], "probabilities": rows}),
                    encoding="utf-8")
    for exact in ([], ["--exact"]):
        assert message in error_of(["--channel", path, "--counts", "[1, 1, 1]", *exact])


def test_counts_of_an_output_a_matrix_never_reports_are_refused(tmp_path):
    path = tmp_path / "never.json"  # no column structure: the matrix answers
    path.write_text(json.dumps({"inputs": [0, 1, 2], "outputs": [0, 1, 2],
                                "probabilities": [["1/2", "1/2", "0"], ["1/3", "2/3", "0"], ["1/4", "3/4", "0"]]}),
                    encoding="utf-8")
    assert "--counts[2] is 4, but the channel never reports 2" in error_of(["--channel", path,
                                                                          "--counts", "[0, 0, 4]"])


def test_em_runs_in_floats_with_exact(tmp_path):
    path = tmp_path / "dense.json"
    path.write_text(json.dumps(DENSE), encoding="utf-8")
    floats, _ = estimate(["--channel", path, "--counts", "[20, 30, 25]"])
    exact, _ = estimate(["--channel", path, "--counts", "[20, 30, 25]", "--exact"])
    assert exact["mle"] == floats["mle"] and exact["mle"]["method"] == "EM"
    assert [float(v) for v in exact["empirical"]] == pytest.approx(floats["empirical"], rel=1e-12)


# --- a diagonal below the other entries of its columns (issue 35, item 11) ------------------------------------------

SWAPPED = [["1/4", "3/4"], ["3/4", "1/4"]]
"""A 2-item channel that reports the other item with probability 3/4: a column structure with extra_y = -1/2."""
LOW_DIAGONAL = [["1/5", "2/5", "2/5"], ["2/5", "1/5", "2/5"], ["2/5", "2/5", "1/5"]]
"""A 3-item channel with 1/5 on the diagonal and 2/5 off it: extra_y = -1/5."""
METHODS = {"empirical estimate (it lies in the simplex, so it is the MLE)", "EM"}


def _solve(rows: list[list[Fraction]], counts: list[int]) -> list[Fraction]:
    """The p with p Q = counts / n, by Gauss-Jordan elimination on P^T with Fractions (written here, independently of
    ``reference.shared.direct``)."""
    d, n = len(rows), sum(counts)
    system = [[rows[x][y] for x in range(d)] + [Fraction(counts[y], n)] for y in range(d)]  # P^T p = m
    for col in range(d):
        pivot = next(r for r in range(col, d) if system[r][col] != 0)
        system[col], system[pivot] = system[pivot], system[col]
        system[col] = [v / system[col][col] for v in system[col]]
        for r in range(d):
            if r != col:
                system[r] = [a - system[r][col] * b for a, b in zip(system[r], system[col])]
    return [system[x][d] for x in range(d)]


def _log_likelihood(rows, counts, p) -> float:
    d = len(rows)
    law = [sum(p[x] * float(rows[x][y]) for x in range(d)) for y in range(d)]
    return sum(c * math.log(law[y]) for y, c in enumerate(counts) if c)


def _simplex_grid(d: int, steps: int):
    """Every point of the simplex with coordinates in multiples of 1/steps."""
    for cuts in itertools.combinations(range(steps + d - 1), d - 1):  # stars and bars
        bounds = (-1, *cuts, steps + d - 1)
        yield tuple((bounds[k + 1] - bounds[k] - 1) / steps for k in range(d))


def _assert_the_mle(rows: list[list[Fraction]], counts: list[int], p: list[float]) -> None:
    """``p`` maximises sum_y n_y ln (pQ)_y over the simplex: it lies in the simplex, satisfies the KKT conditions
    (the gradient g_x = sum_y n_y Q(y|x) / (pQ)_y equals n where p_x > 0 and is at most n where p_x = 0), and no point
    of a grid over the simplex has a larger likelihood."""
    d, n = len(rows), sum(counts)
    assert all(v >= 0 for v in p) and sum(p) == pytest.approx(1, abs=1e-12)
    law = [sum(p[x] * float(rows[x][y]) for x in range(d)) for y in range(d)]
    gradient = [sum(c * float(rows[x][y]) / law[y] for y, c in enumerate(counts) if c) for x in range(d)]
    for x in range(d):
        assert gradient[x] <= n * (1 + 1e-6), (x, gradient, p)
        if p[x] > 1e-6:
            assert gradient[x] == pytest.approx(n, rel=1e-6), (x, gradient, p)
    best = max(_log_likelihood(rows, counts, point) for point in _simplex_grid(d, 60))
    assert _log_likelihood(rows, counts, p) >= best - 1e-9


def _low_diagonal_file(tmp_path, rows) -> object:
    path = tmp_path / "low-diagonal.json"
    labels = ["a", "b", "c"][:len(rows)]
    path.write_text(json.dumps({"inputs": labels, "outputs": labels, "probabilities": rows}), encoding="utf-8")
    return path


@pytest.mark.parametrize("rows, counts", [
    (SWAPPED, [3, 1]), (SWAPPED, [1, 3]), (SWAPPED, [2, 2]), (SWAPPED, [1, 0]), (SWAPPED, [5, 2]),
    (LOW_DIAGONAL, [3, 1, 1]), (LOW_DIAGONAL, [7, 7, 6]), (LOW_DIAGONAL, [4, 3, 3]), (LOW_DIAGONAL, [1, 2, 2]),
    (LOW_DIAGONAL, [10, 0, 3]), (LOW_DIAGONAL, [0, 4, 1]),
])
@pytest.mark.parametrize("exact", [False, True])
def test_a_diagonal_below_its_column_gets_an_estimate_not_a_refusal(tmp_path, rows, counts, exact):
    """The closed form needs extra_y > 0; these invertible channels have extra_y < 0. They get the empirical estimate
    when it lies in the simplex (then it is the MLE, exactly), else EM; the JSON names which, and why."""
    path = _low_diagonal_file(tmp_path, rows)
    result, err = estimate(["--channel", path, "--counts", json.dumps(counts), *(["--exact"] if exact else [])])
    q = [[Fraction(v) for v in row] for row in rows]
    solution = _solve(q, counts)  # the empirical estimate, exactly
    _assert_equals(result["empirical"], solution, exact)
    mle = result["mle"]
    assert "extra_y > 0" in mle["closed_form"]  # why the closed form did not answer
    if all(v >= 0 for v in solution):
        assert mle["method"] == "empirical estimate (it lies in the simplex, so it is the MLE)"
        _assert_equals(mle["estimate"], solution, exact)
    else:  # EM, in floats either way; these counts have an MLE EM reaches
        assert mle["method"] == "EM" and mle["converged"] and err == "", (mle, err)
    _assert_the_mle(q, counts, [float(v) for v in mle["estimate"]])


def _assert_equals(shown: list, exact_values: list[Fraction], exact: bool) -> None:
    """The numbers printed are ``exact_values``: to the 50 significant digits of ``--exact``, or as doubles."""
    if exact:
        assert all(abs(Fraction(v) - w) <= Fraction(1, 10 ** 48) for v, w in zip(shown, exact_values, strict=True))
    else:
        assert shown == pytest.approx([float(w) for w in exact_values], abs=1e-12)


def test_an_mle_em_approaches_slowly_is_still_printed(tmp_path):
    """Counts whose MLE sits on an edge along which the likelihood is flat to first order: EM stops at the cap, says
    so, and its estimate still beats every point of a grid over the simplex."""
    path = _low_diagonal_file(tmp_path, LOW_DIAGONAL)
    result, err = estimate(["--channel", path, "--counts", "[1, 2, 3]"])  # 100,000 iterations, about a second
    assert result["mle"]["method"] == "EM" and not result["mle"]["converged"] and "EM stopped" in err
    q = [[Fraction(v) for v in row] for row in LOW_DIAGONAL]
    p = result["mle"]["estimate"]
    assert all(v >= 0 for v in p) and sum(p) == pytest.approx(1)
    best = max(_log_likelihood(q, [1, 2, 3], point) for point in _simplex_grid(3, 60))
    assert _log_likelihood(q, [1, 2, 3], p) >= best - 1e-8


@pytest.mark.parametrize("rows", [SWAPPED, LOW_DIAGONAL, [["1/3", "2/3"], ["3/5", "2/5"]], [["0", "1"], ["1", "0"]],
                                  [["1/10", "9/20", "9/20"], ["9/20", "1/10", "9/20"], ["9/20", "9/20", "1/10"]]])
def test_every_invertible_channel_with_a_low_diagonal_gets_an_estimate(tmp_path, rows):
    """Every count vector of up to 3 reports per item of a few such channels: exit 0 and an estimate in the simplex,
    never a refusal (EM capped low: this is about answering, the tests above about the answer)."""
    path = _low_diagonal_file(tmp_path, rows)
    d = len(rows)
    q = [[Fraction(v) for v in row] for row in rows]
    for counts in itertools.product(range(4), repeat=d):
        if not any(counts) or any(c and not any(q[x][y] for x in range(d)) for y, c in enumerate(counts)):
            continue
        result, _ = estimate(["--channel", path, "--counts", json.dumps(list(counts)), "--max-iterations", "500"])
        assert result["mle"]["method"] in METHODS
        assert all(v >= 0 for v in result["mle"]["estimate"])
