"""A continuous release over the porting stream, ``draws.from_density``, has exactly the density's mass on each cell:
proven by walking every path of its coins, with each coin's exact probability, and multiplying along the path."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ldpspec.reference import plain_draws as draws
from ldpspec.reference.shared.laplace import laplace_density
from ldpspec.reference.shared.pm import pm_density
from ldpspec.reference.stream import Stream
from ldpspec.spec.continuous import Density
from ldpspec.spec.errors import InvalidParameter
from ldpspec.spec.exact import Exact


class Exhausted(Exception):
    pass


class Impossible(Exception):
    """The script answered a certain coin (p = 0 or 1) the other way: a path of probability 0."""


class ScriptedStream(Stream):
    """A stream whose coins follow a script of answers (then raise ``Exhausted``), recording each coin's exact p."""

    def __init__(self, answers):
        super().__init__("00")
        self.answers, self.coins = list(answers), []

    def bernoulli(self, p) -> bool:
        if len(self.coins) == len(self.answers):
            raise Exhausted
        p, answer = Exact.of(p), self.answers[len(self.coins)]
        if p == (0 if answer else 1):
            raise Impossible
        self.coins.append(p)
        return answer


def cell_probabilities(density: Density, bits: int, max_coins: int) -> tuple[dict, int]:
    """``{j: probability}`` of every cell reached within ``max_coins`` coins, each the product of its path's coin
    probabilities, and the number of paths cut off there (the unbounded tails)."""
    reached, cut, paths = {}, 0, [[]]
    while paths:
        answers = paths.pop()
        stream = ScriptedStream(answers)
        try:
            point = draws.from_density(stream, density, bits)
        except Exhausted:
            if len(answers) < max_coins:
                paths += [answers + [True], answers + [False]]
            else:
                cut += 1
            continue
        except Impossible:
            continue
        probability = Exact.of(1)
        for p, answer in zip(stream.coins, answers):
            probability = probability * (p if answer else 1 - p)
        j = point * 2 ** bits
        assert j.denominator == 1, point
        assert int(j) not in reached, f"cell {j} reached by two paths"
        reached[int(j)] = probability
    return reached, cut


def mass(density: Density, j: int, bits: int) -> Exact:
    return density.mass_between(Fraction(j, 2 ** bits), Fraction(j + 1, 2 ** bits))


BOUNDED = {
    "pm at eps = 1, v = 3/10 (irrational ends)": lambda: pm_density(Exact.exp(Fraction(1, 2)), Exact.of("3/10")),
    "pm at eps = 4, v = -1": lambda: pm_density(Exact.exp(2), Exact.of(-1)),
    "uniform on [1/4, 3/4): nothing below 0": lambda: Density.uniform("1/4", "3/4"),
    "uniform on [-3/4, -1/8): nothing above 0": lambda: Density.uniform("-3/4", "-1/8"),
    "two pieces, one of them empty": lambda: Density(["-1", "0", "1/3", "2"], ["1/2", "0", "3/10"]),
}


@pytest.mark.parametrize("bits", [0, 1, 3])
@pytest.mark.parametrize("name", BOUNDED)
def test_each_cell_of_a_bounded_density_has_exactly_its_mass(name, bits):
    density = BOUNDED[name]()
    reached, cut = cell_probabilities(density, bits, max_coins=40)
    assert cut == 0
    low = min(reached)
    for j in range(low - 2, max(reached) + 3):
        assert reached.get(j, 0) == mass(density, j, bits), j
    assert sum(reached.values(), Exact.of(0)) == density.mass


@pytest.mark.parametrize("bits", [0, 2])
@pytest.mark.parametrize("eps, v", [(Fraction(1), Fraction(1, 3)), (Fraction(3, 2), Fraction(-1))])
def test_each_cell_of_a_laplace_density_reached_has_exactly_its_mass(eps, v, bits):
    """The tails are unbounded: every cell reached within 14 coins has its exact mass, and the cells reached hold
    all but a small part of the mass (the farther blocks, whose coins were cut off)."""
    density = laplace_density(eps, v)
    reached, cut = cell_probabilities(density, bits, max_coins=14)
    assert cut > 0
    for j, probability in reached.items():
        assert probability == mass(density, j, bits), j
    assert 1 - sum(reached.values(), Exact.of(0)) < Fraction(1, 20)
    assert set(range(-3 * 2 ** bits, 3 * 2 ** bits)) <= set(reached)


def test_a_release_is_stated_to_release_bits_binary_digits_and_reproducible():
    density = pm_density(Exact.exp(Fraction(1, 2)), Exact.of(0))
    first = [draws.from_density(Stream("01"), density) for _ in range(2)]
    assert first[0] == first[1]
    assert (first[0] * 2 ** draws.RELEASE_BITS).denominator == 1


@pytest.mark.parametrize("draw", [draws.unit, draws.exponential])
def test_a_float_draw_from_the_stream_is_refused_by_name(draw):
    with pytest.raises(InvalidParameter, match="float draw.*from_density"):
        draw(Stream("00"))


@pytest.mark.parametrize("name", ["pm", "laplace", "two pieces"])
def test_the_mass_between_two_points_is_the_integral_of_the_density(name):
    """``Density.mass_between``, which every coin's ratio uses, against mpmath's numerical integral of the density
    (the walk above cannot tell a wrong but additive mass, since its ratios telescope)."""
    import mpmath

    density = {"pm": BOUNDED["pm at eps = 1, v = 3/10 (irrational ends)"],
               "laplace": lambda: laplace_density(Fraction(3, 2), Fraction(-1, 3)),
               "two pieces": BOUNDED["two pieces, one of them empty"]}[name]()
    mpmath.mp.dps = 40

    def f(y):
        for low, high, c, rate in density.pieces():
            if (float(low) <= y) and (y < float(high)):
                return mpmath.mpf(c.approximation()) * mpmath.exp(mpmath.mpf(rate.numerator) / rate.denominator * y)
        return mpmath.mpf(0)

    ends = ["-inf", Fraction(-7, 2), Fraction(-1), Fraction(-1, 3), Fraction(0), Fraction(1, 8), Fraction(5, 2), "inf"]
    for i, low in enumerate(ends):
        for high in ends[i + 1:]:
            a = -mpmath.inf if low == "-inf" else mpmath.mpf(low.numerator) / low.denominator
            b = mpmath.inf if high == "inf" else mpmath.mpf(high.numerator) / high.denominator
            points = [a, *sorted({mpmath.mpf(float(p)) for p in density.breakpoints
                                  if not isinstance(p, str) and str(p) not in ("inf", "-inf")
                                  and a < float(p) < b}), b]
            integral = mpmath.quad(f, points)
            assert abs(float(density.mass_between(low, high)) - float(integral)) < 1e-12, (low, high)
