"""The two kinds of direct channel (``reference.shared.direct``): a ``ColumnStructure`` and a ``DirectMatrix`` answer
the estimate path's questions each in its own way, and alike for the same channel; their diagnostics of a singular
channel; the shapes a matrix is refused for."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from ldpspec.reference.ipldp2023.iprr import IPRR
from ldpspec.reference.shared.direct import (
    ClosedFormMLE,
    ColumnStructure,
    DirectMatrix,
    EmpiricalMLE,
    EMResult,
    NotInvertible,
    Singularity,
    column_structure,
    em_np,
    inverse,
    mle,
    mle_np,
)
from ldpspec.reference.shared.grr import Grr
from ldpspec.reference.shared.urr import URR
from ldpspec.spec import Exact, InvalidParameter


def _mechanisms():
    return [IPRR(["0.5", 1, None]), Grr.from_budgets([1, 2, 3]), URR.from_budgets([None, 1, "log(3)"]),
            Grr(Fraction(1, 2), 3)]


@pytest.mark.parametrize("mechanism", _mechanisms(), ids=["iprr", "krr", "urr", "grr"])
def test_both_kinds_answer_alike_for_the_same_channel(mechanism):
    structure, matrix = mechanism.structure(), DirectMatrix(mechanism.channel().rows)
    assert structure.d == matrix.d == 3
    assert structure.rows() == matrix.rows()
    assert column_structure(matrix) == column_structure(structure.rows())
    for channel in (structure, matrix):
        twin = channel.floats()
        assert type(twin) is type(channel) and twin.floats() is twin and channel.floats() is twin
        assert np.allclose(twin.rows(), [[float(v) for v in row] for row in channel.rows()])
        assert channel.reachable() == [True] * 3
        assert channel.evident_singularity() is None
    assert structure.inverse_work() == 0  # nothing to invert
    rational = all(Exact.of(v).as_rational() is not None for row in matrix.rows() for v in row)
    assert matrix.inverse_work() == (27 if rational else 1000)
    counts = [40, 35, 25]
    assert structure.empirical(counts) == matrix.empirical(counts)  # the matrix's O(d) form, found in its rows
    assert np.allclose(structure.empirical_np(counts), matrix.empirical_np(counts))
    closed, exact = structure.maximum_likelihood(counts), structure.maximum_likelihood(counts, exact=True)
    by_em = matrix.maximum_likelihood(counts, 1e-13, 200_000, exact=True)  # EM, in floats whatever is asked
    assert isinstance(closed, ClosedFormMLE) and isinstance(by_em, EMResult)
    assert closed.converged and closed.to_json()["method"] == "closed form (column structure)"
    assert all(isinstance(v, str) for v in exact.to_json()["estimate"])  # decimal strings
    assert np.allclose([float(v) for v in exact.estimate], closed.estimate, atol=1e-12)
    assert by_em.to_json()["method"] == "EM"
    assert np.allclose(by_em.estimate, closed.estimate, atol=1e-4)
    assert np.allclose(structure.em_np(counts, 1e-12).estimate, matrix.em_np(counts, 1e-12).estimate, atol=1e-9)


def test_an_output_no_input_reports_is_unreachable_in_either_kind():
    structure = ColumnStructure([Fraction(1, 2), Fraction(1, 2), 0], [0, 0, 0])
    assert structure.reachable() == [True, True, False]
    matrix = DirectMatrix([[Fraction(1, 2), Fraction(1, 2), 0], [Fraction(1, 3), Fraction(2, 3), 0],
                           [Fraction(1, 4), Fraction(3, 4), 0]])
    assert column_structure(matrix) is None and matrix.reachable() == [True, True, False]


def test_a_zero_extra_is_the_column_structures_evident_singularity():
    grr = Grr(0, 3).structure()  # epsilon = 0: every column constant
    found = Singularity(output=0, value=Exact.rational(1) / 3)
    assert grr.evident_singularity() == grr.singularity() == found
    with pytest.raises(NotInvertible, match="not invertible"):
        grr.empirical([1, 1, 1])
    matrix = DirectMatrix(grr.rows())  # the same channel as a matrix: found singular by trying
    assert matrix.evident_singularity() is None and matrix.singularity() == found
    with pytest.raises(NotInvertible):
        matrix.empirical([1, 1, 1])
    with pytest.raises(NotInvertible):
        matrix.empirical_np([1, 1, 1])


@pytest.mark.parametrize("rows, found", [
    ([["1/2", "1/3", "1/6"], ["1/2", "1/3", "1/6"], ["1/5", "3/5", "1/5"]], Singularity(inputs=(0, 1))),
    ([["1/2", "1/4", "1/4"], [0, "1/2", "1/2"], ["1/4", "3/8", "3/8"]], Singularity()),  # row 2 = (row 0 + row 1)/2
])
def test_a_singular_matrix_says_why(rows, found):
    matrix = DirectMatrix([[Exact.of(v) for v in row] for row in rows])
    assert column_structure(matrix) is None and matrix.singularity() == found
    with pytest.raises(NotInvertible):
        inverse(matrix)
    with pytest.raises(NotInvertible):
        matrix.empirical([1, 1, 1])


@pytest.mark.parametrize("matrix", [np.zeros(3), np.zeros((2, 3)), [[1]], [[1, 0], [0]], 5, np.zeros((2, 2, 2))])
def test_a_matrix_that_is_not_square_is_refused(matrix):
    with pytest.raises(InvalidParameter, match="square matrix"):
        em_np(matrix, [1, 1])


def test_a_column_structure_needs_one_base_and_one_extra_per_item():
    with pytest.raises(InvalidParameter, match="one base and one extra per item, got 3 bases and 2 extras"):
        ColumnStructure([0.1, 0.1, 0.1], [0.7, 0.7])


SWAPPED = [[Fraction(1, 4), Fraction(3, 4)], [Fraction(3, 4), Fraction(1, 4)]]


def test_a_diagonal_below_its_column_is_answered_by_the_documented_fallbacks():
    """extra_y < 0 (issue 35): the closed form does not apply, and ``maximum_likelihood`` says so and answers with the
    empirical estimate where it lies in the simplex (exactly the MLE), else with EM; ``mle`` and ``mle_np``, the closed
    form itself, refuse naming the item."""
    structure = column_structure(SWAPPED)
    assert structure.extra == [Fraction(-1, 2), Fraction(-1, 2)]
    assert structure.reachable() == [True, True] and structure.evident_singularity() is None
    for exact in (True, False):
        inverse_answer = structure.maximum_likelihood([3, 1], exact=exact)
        assert isinstance(inverse_answer, EmpiricalMLE) and list(inverse_answer.estimate) == [0, 1]
        assert "item 0 has extra_y = -0.5" in inverse_answer.to_json()["closed_form"]
        by_em = structure.maximum_likelihood([1, 0], exact=exact)  # the empirical estimate is (-1/2, 3/2)
        assert isinstance(by_em, EMResult) and by_em.converged and by_em.estimate[0] < 1e-9
        assert by_em.to_json()["method"] == "EM" and "extra_y > 0" in by_em.to_json()["closed_form"]
    # the same channel as a matrix: EM, which approaches the same maximum (slowly: it lies on an edge of the simplex)
    assert np.allclose(DirectMatrix(SWAPPED).maximum_likelihood([3, 1], 1e-12, 5000).estimate, [0, 1], atol=1e-2)
    assert "closed_form" not in DirectMatrix(SWAPPED).maximum_likelihood([1, 0]).to_json()
    with pytest.raises(InvalidParameter, match="^mle: the closed form is not applicable.*item 0 has extra_y = -0.5"):
        mle(structure, [3, 1])
    with pytest.raises(InvalidParameter, match="^mle_np: the closed form is not applicable.*item 0"):
        mle_np(structure, [3, 1])


def test_an_output_only_the_others_report_is_reachable():
    """extra_y = -1: only the holders of the other item report y (``reachable`` read only base + extra before)."""
    structure = column_structure([[0, 1], [1, 0]])
    assert structure.reachable() == [True, True]
    assert list(structure.maximum_likelihood([2, 1], exact=True).estimate) == [Fraction(1, 3), Fraction(2, 3)]
