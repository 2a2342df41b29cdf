"""Every registered mechanism's exact channel pinned, entry by entry, by a derivation that shares none of its code.

Each expected channel below is written from the formula the paper (or the mechanism's source) prints, with plain
``fractions.Fraction`` at budgets whose ``e^eps`` is rational (``log(2)``, ``log(4)``, ``log(16)``), and with the
kernel's ``Exact.exp`` at ``eps = 1`` (the kernel's numbers, built here from the formula, not from the mechanism's
probability functions). Compositions (padding and sampling, the Sample variants, suGRR's independent items, the
padding of Sec. 3.3) are derived by direct enumeration of the random choices. No function of ``ldpspec.reference``
other than the registry's ``build`` is called, so a wrong probability in a mechanism's own functions cannot agree
with itself here (as it does in the stated-moments test, which enumerates the mechanism's own channel).

Channels with densities (PM, Laplace, graded Laplace, Wheel, suWheel) are pinned by their density's value at every
breakpoint of either side and at interior points of every cell between them: two piecewise densities that agree there
agree everywhere.
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

import pytest

from ldpspec.reference.registry import MECHANISMS
from ldpspec.spec import Exact, Infinity, compare_points

# --- budgets: the text the mechanism takes, and e^(eps / k) derived here -----------------------------------------

RATIONAL_ROOTS = {"log(2)": {1: Fraction(2)}, "log(3)": {1: Fraction(3)}, "log(4)": {1: Fraction(4), 2: Fraction(2)},
                  "log(16)": {1: Fraction(16), 2: Fraction(4), 4: Fraction(2)}}


def exp_of(eps: str, divisor: int = 1):
    """``e^(eps / divisor)``: a Fraction for ``log(a)`` budgets (a perfect power), ``Exact.exp`` for a rational
    ``eps``."""
    if eps in RATIONAL_ROOTS:
        return RATIONAL_ROOTS[eps][divisor]
    return Exact.exp(Fraction(eps) / divisor)


def build(name: str, **parameters):
    return MECHANISMS[name].build(**parameters)


def assert_channel(channel, expected: dict) -> None:
    """``channel``'s explicit matrix equals ``expected`` (``{x: {y: P[y|x]}}``, absent entries 0) exactly."""
    explicit = channel.explicit()
    assert set(explicit.inputs) == set(expected), (explicit.inputs, list(expected))
    for x in explicit.inputs:
        row = dict(zip(explicit.outputs, explicit.row(x)))
        for y in set(row) | set(expected[x]):
            got, want = row.get(y, 0), expected[x].get(y, 0)
            assert got == want, f"P[{y!r}|{x!r}] = {got} (expected {want})"


def bits_probability(vector, ones) -> object:
    """``prod_k P[bit k]`` for independent bits with ``P[bit k = 1] = ones[k]``."""
    total = Fraction(1)
    for bit, one in zip(vector, ones):
        total = total * (one if bit else 1 - one)
    return total


def add(table: dict, key, value) -> None:
    table[key] = table[key] + value if key in table else value


# --- shared mechanisms ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("eps", ["log(2)", "log(3)", "1"])
def test_rr(eps):
    # Warner 1965, as Gu et al. Sec. III-C: the true bit with p = e^eps / (1 + e^eps), the other with 1 - p.
    E = exp_of(eps)
    assert_channel(build("rr", epsilon=eps).channel(),
                   {x: {y: E / (1 + E) if y == x else 1 / (1 + E) for y in (0, 1)} for x in (0, 1)})


@pytest.mark.parametrize("eps, d", [("log(2)", 3), ("log(3)", 2), ("1", 4)])
def test_grr(eps, d):
    # Kairouz et al. 2014, Wang et al. 2017, Gu et al. Sec. III-C: p = E / (E + d - 1), q = 1 / (E + d - 1), E = e^eps.
    E = exp_of(eps)
    assert_channel(build("grr", epsilon=eps, d=d).channel(),
                   {x: {y: E / (E + d - 1) if y == x else 1 / (E + d - 1) for y in range(d)} for x in range(d)})


def test_krr():
    # IPLDP preprint Sec. 5.1: GRR over all d items at the smallest budget of the sensitive items.
    E = Fraction(2)  # min(log 3, log 2)
    assert_channel(build("krr", budgets=["log(3)", "log(2)", None]).channel(),
                   {x: {y: E / (E + 2) if y == x else 1 / (E + 2) for y in range(3)} for x in range(3)})


def unary_expected(a, b, d: int) -> dict:
    """Unary encoding (Wang et al. 2017; Gu et al. eq. (5) and Sec. V-B): item x is e_x, bit k set with a[k] when
    k = x, with b[k] otherwise, independently; the whole vector released."""
    vectors = list(itertools.product((0, 1), repeat=d))
    return {x: {v: bits_probability(v, [a[k] if k == x else b[k] for k in range(d)]) for v in vectors}
            for x in range(d)}


def test_ue():
    # Unary encoding with any (p, q) (Wang et al. 2017, Sec. 4.2): p on the own bit, q on every other.
    p, q = Fraction(3, 4), Fraction(1, 5)
    assert_channel(build("ue", p="3/4", q="1/5", d=3).channel(), unary_expected([p] * 3, [q] * 3, 3))


@pytest.mark.parametrize("eps", ["log(4)", "1"])
def test_sue(eps):
    # Basic RAPPOR (Erlingsson et al. 2014), SUE of Wang et al. 2017: p = s / (s + 1), q = 1 / (s + 1), s = e^(eps/2).
    s = exp_of(eps, 2)
    assert_channel(build("sue", epsilon=eps, d=3).channel(), unary_expected([s / (s + 1)] * 3, [1 / (s + 1)] * 3, 3))


@pytest.mark.parametrize("eps", ["log(2)", "1"])
def test_oue(eps):
    # OUE (Wang et al. 2017, Sec. 4.3): p = 1/2, q = 1 / (e^eps + 1).
    E = exp_of(eps)
    assert_channel(build("oue", epsilon=eps, d=3).channel(), unary_expected([Fraction(1, 2)] * 3, [1 / (E + 1)] * 3, 3))


def urr_row(E, d: int, sensitive, x: int) -> dict:
    """uRR (Murakami and Kawamoto 2019; Cao et al. Sec. 2.2), D = E + k - 1: a sensitive x keeps itself with E / D,
    each other sensitive item 1 / D; a non-sensitive x keeps itself with (E - 1) / D, each sensitive item 1 / D."""
    D = E + len(sensitive) - 1
    row = {y: 1 / D for y in sensitive if y != x}
    row[x] = E / D if x in sensitive else (E - 1) / D
    return row


@pytest.mark.parametrize("eps, d, sensitive", [("log(2)", 3, [0, 1]), ("log(3)", 4, [1]), ("1", 4, [0, 2])])
def test_urr(eps, d, sensitive):
    E = exp_of(eps)
    assert_channel(build("urr", epsilon=eps, d=d, sensitive=sensitive).channel(),
                   {x: urr_row(E, d, sensitive, x) for x in range(d)})


def urap_bits(s, d: int, sensitive):
    """uRAP (Murakami and Kawamoto 2019; Cao et al. eq. (18)) at s = e^(eps'/2): a sensitive bit is set with
    s / (s + 1) by its holder, 1 / (s + 1) otherwise; a non-sensitive bit with (s - 1) / s by its holder, never
    otherwise. Returns (a, b) per bit."""
    a = [s / (s + 1) if j in sensitive else (s - 1) / s for j in range(d)]
    b = [1 / (s + 1) if j in sensitive else Fraction(0) for j in range(d)]
    return a, b


@pytest.mark.parametrize("eps, sensitive", [("log(4)", [0, 1]), ("1", [2])])
def test_urap(eps, sensitive):
    a, b = urap_bits(exp_of(eps, 2), 3, sensitive)
    assert_channel(build("urap", epsilon=eps, d=3, sensitive=sensitive).channel(), unary_expected(a, b, 3))


def olh_hash(j: int, x: int, g: int, k: int) -> int:
    """The project's family (page "Optimized local hashing"): the inner product of the base-g digits of j and x."""
    total = 0
    for _ in range(k):
        total += (j % g) * (x % g)
        j, x = j // g, x // g
    return total % g


@pytest.mark.parametrize("eps, d, g", [("log(2)", 3, 2), ("log(3)", 3, 3), ("1", 5, 2)])
def test_olh(eps, d, g):
    # OLH (Wang et al. 2017, Sec. 4.4): h uniform on the family, then GRR over g values on h(x); (h, y) released:
    # P[(j, y) | x] = p / |H| if y = h_j(x), else q' / |H|, p = E / (E + g - 1), q' = 1 / (E + g - 1).
    E = exp_of(eps)
    k = next(k for k in itertools.count(1) if g ** k >= d)
    hashes = g ** k
    expected = {x: {(j, y): (E if y == olh_hash(j, x, g, k) else 1) / (E + g - 1) / hashes
                    for j in range(hashes) for y in range(g)} for x in range(d)}
    assert_channel(build("olh", epsilon=eps, d=d, g=g).channel(), expected)


def sylvester(K: int) -> list[list[int]]:
    """Sylvester's Hadamard matrix H_K by its recursion H_2m = [[H_m, H_m], [H_m, -H_m]]."""
    H = [[1]]
    while len(H) < K:
        H = [row + row for row in H] + [row + [-v for v in row] for row in H]
    return H


@pytest.mark.parametrize("eps, d, K", [("log(2)", 3, 4), ("1", 4, 8), ("log(3)", 2, 4)])
def test_hr(eps, d, K):
    # Acharya, Sun, Zhang 2019: item x takes row x + 1 of H_K (K the least power of 2 above d); an output y in
    # C_x = {y : H_K[x+1][y] = +1} has 2E / (K (E + 1)), any other 2 / (K (E + 1)).
    E, H = exp_of(eps), sylvester(K)
    expected = {x: {y: (2 * E if H[x + 1][y] == 1 else 2) / (K * (E + 1)) for y in range(K)} for x in range(d)}
    assert_channel(build("hr", epsilon=eps, d=d).channel(), expected)


@pytest.mark.parametrize("eps", ["log(3)", "1"])
def test_harmony(eps):
    # Hao et al. Algorithm 1: v_bar = +1 w.p. (1 + v)/2, kept w.p. E/(E + 1); the output is the sign of v*.
    E, grid = exp_of(eps), ["-1", "-1/2", "0", "1/3", "1"]
    keep = E / (E + 1)
    expected = {}
    for text in grid:
        v = Fraction(text)
        plus = (1 + v) / 2 * keep + (1 - v) / 2 * (1 - keep)
        expected[Exact.of(text).text()] = {1: plus, -1: 1 - plus}
    assert_channel(build("harmony", epsilon=eps, grid=grid).channel(), expected)


# --- densities --------------------------------------------------------------------------------------------------

def _cmp(a, b) -> int:
    return compare_points(a, b)


def _finite(points) -> list:
    return [p for p in points if not isinstance(p, Infinity)]


def density_value(density, y):
    """The value at ``y`` of a ``spec.Density`` (0 outside its pieces): the piece holding y, ``c e^(rate y)``."""
    if density is None:
        return 0
    for low, high, c, rate in density.pieces():
        if _cmp(low, y) <= 0 < _cmp(high, y):
            return c * Exact.exp(rate * y.as_rational()) if rate else c
    return 0


def assert_densities(channel, expected: dict) -> None:
    """Every input's density of every component equals ``expected[x][label] = (breakpoints, f)`` (absent: 0) at
    every breakpoint of either side, at two interior points of every cell between them, and at two points beyond
    each end (a piece ``c e^(rate y)`` is fixed by two points)."""
    assert set(channel.inputs) == set(expected)
    for x in channel.inputs:
        components = channel.components[x]
        for label in set(components) | set(expected[x]):
            mine = expected[x].get(label)
            density = components.get(label)
            points = list(mine[0]) if mine else []
            if density is not None:
                points += _finite(density.breakpoints)
            points = [Exact.of(p) for p in points]
            unique = []
            for p in sorted(points, key=functools.cmp_to_key(lambda a, b: a.compare(b))):
                if not unique or unique[-1] != p:
                    unique.append(p)
            probes = list(unique) + [unique[0] - 1, unique[0] - 2, unique[-1] + 1, unique[-1] + 2]
            for low, high in zip(unique, unique[1:]):
                probes += [(low + high) / 2, (2 * low + high) / 3]
            for y in probes:
                got = density_value(density, y)
                want = mine[1](y) if mine else 0
                assert got == want, f"density of {label!r} given {x!r} at {y}: {got} (expected {want})"


@pytest.mark.parametrize("eps", ["log(4)", "1"])
def test_pm(eps):
    # PM (Wang et al. 2019), Hao et al. Algorithm 2, s = e^(eps/2): C = (s + 1)/(s - 1), l(v) = (C + 1) v / 2 -
    # (C - 1) / 2, r(v) = l(v) + C - 1; density pr on [l, r], pr / s^2 on the rest of [-C, C], pr = s(s-1)/(2(s+1)).
    s = exp_of(eps, 2)
    C = (s + 1) / (s - 1)
    pr = s * (s - 1) / (2 * (s + 1))
    grid = ["-1", "0", "1/2", "1"]
    expected = {}
    for text in grid:
        v = Fraction(text)
        low = (C + 1) * v / 2 - (C - 1) / 2
        high = low + C - 1

        def f(y, low=low, high=high):
            if y < -C or y >= C:
                return 0
            return pr if low <= y < high else pr / (s * s)
        expected[Exact.of(text).text()] = {None: ([-C, low, high, C], f)}
    assert_densities(build("pm", epsilon=eps, grid=grid).channel(), expected)


def laplace_expected(v: Fraction, eps: Fraction):
    """y = v + Lap(2 / eps) (Hao et al. Sec. 3.1): f(y) = (eps / 4) e^(-eps |y - v| / 2)."""
    return ([v], lambda y: eps / 4 * Exact.exp(-eps * abs(y.as_rational() - v) / 2))


@pytest.mark.parametrize("eps", ["1", "2"])
def test_laplace(eps):
    grid = ["-1", "-1/3", "0", "1"]
    expected = {Exact.of(t).text(): {None: laplace_expected(Fraction(t), Fraction(eps))} for t in grid}
    assert_densities(build("laplace", epsilon=eps, grid=grid).channel(), expected)


def test_graded_laplace():
    # Hao et al. Sec. 3.1: the Laplace mechanism at the budget of the input's level, levels [b_{j-1}, b_j), the last
    # closed.
    boundaries, budgets, grid = ["-1", "0", "1/2", "1"], ["2", "1", "3"], ["-1", "-1/2", "0", "1/4", "1/2", "1"]
    expected = {}
    for t in grid:
        v = Fraction(t)
        level = 0 if v < 0 else 1 if v < Fraction(1, 2) else 2
        expected[Exact.of(t).text()] = {None: laplace_expected(v, Fraction(budgets[level]))}
    channel = build("graded-laplace", boundaries=boundaries, budgets=budgets, grid=grid).channel()
    assert_densities(channel, expected)


# --- Gu et al.: IDUE and padding-and-sampling ---------------------------------------------------------------------

def test_idue():
    # Gu et al. Sec. V-B and eq. (5): unary encoding with each level's (a_t, b_t) (here a recorded solution).
    a, b = [Fraction(3, 5), Fraction(3, 5), Fraction(4, 5)], [Fraction(1, 4), Fraction(1, 4), Fraction(1, 7)]
    mechanism = build("idue", budgets=[1, 1, 2], solution={"a": [str(v) for v in a], "b": [str(v) for v in b]})
    assert_channel(mechanism.channel(), unary_expected(a, b, 3))


def ps_expected(m: int, padding: int, a, b, release: str) -> dict:
    """Padding-and-sampling (Wang, Li, Jha 2018; Gu et al. Algorithm 1 and Algorithm 2) by enumeration: pad with
    distinct dummies m .. m+l-1 drawn uniformly (or keep l of the items, uniformly), sample one of the l items
    uniformly, one-hot encode it over m + l bits, set bit k with a[k] if it is the sampled one, else b[k]; release
    every bit or the m real ones."""
    total = m + padding
    released = total if release == "all" else m
    expected = {}
    for size in range(m + 1):
        for items in itertools.combinations(range(m), size):
            if size <= padding:
                fills = [items + dummies for dummies in itertools.combinations(range(m, total), padding - size)]
            else:
                fills = list(itertools.combinations(items, padding))
            sampled = {}
            for filled in fills:
                for v in filled:
                    add(sampled, v, Fraction(1, len(fills) * len(filled)))
            row = {}
            for vector in itertools.product((0, 1), repeat=total):
                probability = sum((w * bits_probability(vector, [a[k] if k == v else b[k] for k in range(total)])
                                   for v, w in sampled.items()), Fraction(0))
                add(row, vector[:released], probability)
            expected[items] = row
    return expected


@pytest.mark.parametrize("release", ["all", "real"])
@pytest.mark.parametrize("dummy_level", [0, 1])
def test_idue_ps(release, dummy_level):
    # Gu et al. Sec. VI: the dummies take the (a, b) of level dummy_level; item 0 has budget 1 (level 0), item 1
    # budget 2 (level 1).
    levels = [(Fraction(3, 5), Fraction(1, 4)), (Fraction(4, 5), Fraction(1, 7))]
    a = [levels[0][0], levels[1][0]] + [levels[dummy_level][0]] * 2
    b = [levels[0][1], levels[1][1]] + [levels[dummy_level][1]] * 2
    solution = {"a": [str(a[0]), str(a[1])], "b": [str(b[0]), str(b[1])]}
    mechanism = build("idue-ps", budgets=[1, 2], padding=2, dummy_level=dummy_level, release=release,
                      solution=solution)
    assert_channel(mechanism.channel(), ps_expected(2, 2, a, b, release))


@pytest.mark.parametrize("eps, m, padding, release", [("log(2)", 2, 2, "all"), ("1", 2, 1, "real"),
                                                      ("log(3)", 3, 2, "all")])
def test_oue_ps(eps, m, padding, release):
    # Gu et al. Sec. VII-B (Wang et al. 2018): OUE (p = 1/2, q = 1/(E + 1)) on every bit after padding-and-sampling.
    E = exp_of(eps)
    total = m + padding
    expected = ps_expected(m, padding, [Fraction(1, 2)] * total, [1 / (E + 1)] * total, release)
    assert_channel(build("oue-ps", epsilon=eps, m=m, padding=padding, release=release).channel(), expected)


@pytest.mark.parametrize("eps, m, padding, release", [("log(4)", 2, 2, "all"), ("1", 3, 2, "real")])
def test_rappor_ps(eps, m, padding, release):
    # Gu et al. Sec. VII-B: basic RAPPOR (p = s/(s + 1), q = 1/(s + 1), s = e^(eps/2)) after padding-and-sampling.
    s = exp_of(eps, 2)
    total = m + padding
    expected = ps_expected(m, padding, [s / (s + 1)] * total, [1 / (s + 1)] * total, release)
    assert_channel(build("rappor-ps", epsilon=eps, m=m, padding=padding, release=release).channel(), expected)


# --- Cao et al.: set-valued mechanisms -----------------------------------------------------------------------------

def set_release(sensitive_outputs, revealed, y0: str, empty: str) -> tuple:
    """Cao et al. Sec. 4.1: (y0, R), y0 the sensitive outputs (as a multiset or a set), R the revealed items; with no
    sensitive output, no protected part (absent) or an empty one."""
    outputs = sorted(sensitive_outputs) if y0 == "multiset" else sorted(set(sensitive_outputs))
    protected = tuple(outputs) if outputs or empty == "empty" else None
    return protected, tuple(sorted(revealed))


def sugrr_expected(E, d: int, sensitive, m: int, y0: str, empty: str) -> dict:
    """suGRR (Cao et al. Sec. 4.1.1, eqs. (12)-(13)): uRR at eps/m (E = e^(eps/m)) on each item, independently."""
    expected = {}
    for s in itertools.combinations(range(d), m):
        row = {}
        rows = [urr_row(E, d, sensitive, x) for x in s]
        for outputs in itertools.product(*(list(r) for r in rows)):
            probability = Fraction(1)
            for r, z in zip(rows, outputs):
                probability = probability * r[z]
            label = set_release([z for z in outputs if z in sensitive], [z for z in outputs if z not in sensitive],
                                y0, empty)
            add(row, label, probability)
        expected[s] = row
    return expected


def sample_expected(E, d: int, sensitive, m: int, empty: str) -> dict:
    """The Sample variant (Cao et al. Sec. 4.1.1): one item of s uniformly, through uRR at eps (E = e^eps)."""
    expected = {}
    for s in itertools.combinations(range(d), m):
        row = {}
        for x in s:
            for z, pz in urr_row(E, d, sensitive, x).items():
                label = set_release([z], [], "multiset", empty) if z in sensitive else set_release([], [z], "multiset",
                                                                                                   empty)
                add(row, label, pz / m)
        expected[s] = row
    return expected


@pytest.mark.parametrize("y0", ["multiset", "set"])
@pytest.mark.parametrize("empty", ["absent", "empty"])
@pytest.mark.parametrize("eps, d, sensitive, m", [("log(4)", 3, [0, 1], 2), ("1", 4, [1], 2), ("log(2)", 3, [2], 1)])
def test_sugrr(eps, d, sensitive, m, y0, empty):
    E = exp_of(eps, m)
    mechanism = build("sugrr", epsilon=eps, d=d, sensitive=sensitive, m=m, y0=y0, empty=empty)
    assert_channel(mechanism.channel(), sugrr_expected(E, d, sensitive, m, y0, empty))


@pytest.mark.parametrize("empty", ["absent", "empty"])
@pytest.mark.parametrize("eps, d, sensitive, m", [("log(2)", 3, [0, 1], 2), ("1", 4, [1, 3], 3)])
def test_sugrr_sample(eps, d, sensitive, m, empty):
    mechanism = build("sugrr-sample", epsilon=eps, d=d, sensitive=sensitive, m=m, empty=empty)
    assert_channel(mechanism.channel(), sample_expected(exp_of(eps), d, sensitive, m, empty))


@pytest.mark.parametrize("eps, d, m", [("log(4)", 3, 2), ("1", 4, 2)])
def test_grr_set(eps, d, m):
    # Cao et al. Sec. 2.3: GRR at eps/m on every item (uRR with every item sensitive), the outputs as a multiset.
    E = exp_of(eps, m)
    assert_channel(build("grr-set", epsilon=eps, d=d, m=m).channel(),
                   sugrr_expected(E, d, list(range(d)), m, "multiset", "absent"))


@pytest.mark.parametrize("eps, d, m", [("log(2)", 3, 2), ("1", 4, 3)])
def test_grr_sample(eps, d, m):
    # Cao et al. Sec. 2.3: one item sampled, GRR at eps.
    assert_channel(build("grr-sample", epsilon=eps, d=d, m=m).channel(),
                   sample_expected(exp_of(eps), d, list(range(d)), m, "absent"))


def surap_release(vector, sensitive, y0: str) -> tuple:
    """Cao et al. Sec. 4.2: the non-sensitive 1s are revealed; y0 is the whole vector or its sensitive bits."""
    revealed = tuple(j for j, bit in enumerate(vector) if bit and j not in sensitive)
    if y0 == "vector":
        return tuple(vector), revealed
    return tuple(vector[j] for j in sorted(sensitive)), revealed


def surap_expected(s, d: int, sensitive, m: int, y0: str, sample: bool) -> dict:
    """suRAP (Cao et al. eq. (18)): the m-hot vector of the set, every bit through uRAP at s = e^(eps/(2m)); the
    Sample variant: the one-hot vector of one item drawn uniformly, at s = e^(eps/2)."""
    a, b = urap_bits(s, d, sensitive)
    expected = {}
    for items in itertools.combinations(range(d), m):
        row = {}
        hots = [(x,) for x in items] if sample else [items]
        for hot in hots:
            ones = [a[j] if j in hot else b[j] for j in range(d)]
            for vector in itertools.product((0, 1), repeat=d):
                probability = bits_probability(vector, ones) / len(hots)
                if probability:
                    add(row, surap_release(vector, sensitive, y0), probability)
        expected[items] = row
    return expected


@pytest.mark.parametrize("y0", ["vector", "sensitive-bits"])
@pytest.mark.parametrize("eps, d, sensitive, m", [("log(16)", 3, [0, 1], 2), ("1", 4, [1], 2)])
def test_surap(eps, d, sensitive, m, y0):
    mechanism = build("surap", epsilon=eps, d=d, sensitive=sensitive, m=m, y0=y0)
    assert_channel(mechanism.channel(), surap_expected(exp_of(eps, 2 * m), d, sensitive, m, y0, False))


@pytest.mark.parametrize("y0", ["vector", "sensitive-bits"])
@pytest.mark.parametrize("eps, d, sensitive, m", [("log(4)", 3, [0, 1], 2), ("1", 4, [0, 3], 3)])
def test_surap_sample(eps, d, sensitive, m, y0):
    mechanism = build("surap-sample", epsilon=eps, d=d, sensitive=sensitive, m=m, y0=y0)
    assert_channel(mechanism.channel(), surap_expected(exp_of(eps, 2), d, sensitive, m, y0, True))


@pytest.mark.parametrize("eps, d, m", [("log(16)", 3, 2), ("1", 3, 1)])
def test_rappor_set(eps, d, m):
    # Cao et al. Sec. 2.3: basic RAPPOR of the m-hot vector at eps/m (every item sensitive).
    expected = surap_expected(exp_of(eps, 2 * m), d, list(range(d)), m, "vector", False)
    assert_channel(build("rappor-set", epsilon=eps, d=d, m=m).channel(), expected)


@pytest.mark.parametrize("eps, d, m", [("log(4)", 3, 2), ("1", 4, 2)])
def test_rappor_sample(eps, d, m):
    expected = surap_expected(exp_of(eps, 2), d, list(range(d)), m, "vector", True)
    assert_channel(build("rappor-sample", epsilon=eps, d=d, m=m).channel(), expected)


def in_arc(v, p, y) -> bool:
    """Whether y lies on the arc [v, v + p) of the circle [0, 1)."""
    return v <= y < v + p or y < v + p - 1


def wheel_expected(E, d: int, m: int, hashes, sensitive) -> dict:
    """Wheel (Wang et al. PVLDB 2020) and suWheel (Cao et al. Sec. 4.3, Algorithm 1, eq. (8)):
    p = 1/(2m - 1 + m E), Omega = m p E + 1 - m p; y0 has density E / Omega on the covered area C (the union of the
    arcs [h(x), h(x) + p) of the set's items, of length l), (1 - l E / Omega) / (1 - l) elsewhere on [0, 1). suWheel
    (``sensitive`` not None) also reveals every non-sensitive item of the set whose arc misses y0."""
    p = 1 / (2 * m - 1 + m * E)
    omega = m * p * E + 1 - m * p
    expected = {}
    for s in itertools.combinations(range(d), m):
        arcs = [Exact.of(hashes[x]) for x in s]
        ends = [0, 1]
        for v in arcs:
            ends += [v, v + p] if v + p <= 1 else [v, v + p - 1]
        cut = []
        for e in sorted((Exact.of(e) for e in ends), key=functools.cmp_to_key(lambda a, b: a.compare(b))):
            if not cut or cut[-1] != e:
                cut.append(e)
        length = sum(((hi - lo) for lo, hi in zip(cut, cut[1:]) if any(in_arc(v, p, (lo + hi) / 2) for v in arcs)),
                     Fraction(0))
        inside, outside = E / omega, (1 - length * E / omega) / (1 - length)

        def f(y, arcs=arcs, inside=inside, outside=outside):
            if y < 0 or y >= 1:
                return 0
            return inside if any(in_arc(v, p, y) for v in arcs) else outside

        if sensitive is None:
            expected[s] = {(): (cut, f)}
            continue
        labels = {}
        non_sensitive = [(x, v) for x, v in zip(s, arcs) if x not in sensitive]
        for revealed in itertools.chain.from_iterable(itertools.combinations(non_sensitive, k)
                                                      for k in range(len(non_sensitive) + 1)):
            label = tuple(x for x, _ in revealed)

            def g(y, f=f, label=label, non_sensitive=non_sensitive):
                missed = tuple(x for x, v in non_sensitive if not in_arc(v, p, y))
                return f(y) if missed == label else 0
            labels[label] = (cut, g)
        expected[s] = labels
    return expected


@pytest.mark.parametrize("eps, hashes", [("log(2)", None), ("1", None), ("log(3)", ["0", "1/10", "9/10"])])
def test_wheel(eps, hashes):
    d, m = 3, 2
    values = [Fraction(x, d) for x in range(d)] if hashes is None else [Fraction(h) for h in hashes]
    mechanism = build("wheel", epsilon=eps, d=d, m=m, hash_values=hashes)
    assert_densities(mechanism.channel(), wheel_expected(exp_of(eps), d, m, values, None))


@pytest.mark.parametrize("eps, hashes, sensitive", [("log(2)", None, [0, 1]), ("1", None, [0]),
                                                    ("log(3)", ["0", "1/10", "9/10"], [1])])
def test_suwheel(eps, hashes, sensitive):
    d, m = 3, 2
    values = [Fraction(x, d) for x in range(d)] if hashes is None else [Fraction(h) for h in hashes]
    mechanism = build("suwheel", epsilon=eps, d=d, sensitive=sensitive, m=m, hash_values=hashes)
    assert_densities(mechanism.channel(), wheel_expected(exp_of(eps), d, m, values, sensitive))


@pytest.mark.parametrize("inner", ["sugrr-sample", "sugrr"])
@pytest.mark.parametrize("dummies", ["sensitive", "non-sensitive"])
def test_padded(inner, dummies):
    # Cao et al. Sec. 3.3: a set of j < m items is padded with m - j of the m fake items d .. d+m-1, drawn uniformly;
    # a set of more keeps m of its items, uniformly; the result goes to the mechanism over d + m items (the fake
    # items sensitive or not). Derived by enumerating the normalisation, then the inner mechanism as derived above.
    d, m, sensitive, eps = 3, 2, [0, 1], "log(4)"
    inner_sensitive = sensitive + ([d, d + 1] if dummies == "sensitive" else [])
    if inner == "sugrr":
        inner_rows = sugrr_expected(exp_of(eps, m), d + m, inner_sensitive, m, "multiset", "absent")
    else:
        inner_rows = sample_expected(exp_of(eps), d + m, inner_sensitive, m, "absent")
    expected = {}
    for size in range(1, m + 2):
        for s in itertools.combinations(range(d), size):
            if size >= m:
                normalised = list(itertools.combinations(s, m))
            else:
                normalised = [s + fake for fake in itertools.combinations(range(d, d + m), m - size)]
            row = {}
            for t in normalised:
                for y, probability in inner_rows[t].items():
                    add(row, y, probability / len(normalised))
            expected[s] = row
    mechanism = build("padded", inner=inner, epsilon=eps, d=d, sensitive=sensitive, m=m, dummies=dummies)
    assert_channel(mechanism.channel(), expected)


# --- the IPLDP preprint ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("budgets", [["log(2)", "log(3)", None], ["log(3)", "log(2)", "log(4)"], ["1", None, "2"]])
def test_iprr(budgets):
    # IPLDP preprint Definition 5 (Definition 4 when D_N is empty), E_y = e^(eps_y):
    # y in D_S: q_y = E_y qbar_y on y = x, qbar_y = 1 / ((E_y - 1)(1 + sum_{D_S} 1/(E_x' - 1))) otherwise;
    # y in D_N: qtilde = 1 / (1 + sum_{D_S} 1/(E_x' - 1)) on y = x, 0 otherwise.
    E = [None if b is None else exp_of(b) for b in budgets]
    total = 1 + sum((1 / (e - 1) for e in E if e is not None), Fraction(0))
    expected = {}
    for x in range(len(budgets)):
        row = {}
        for y, e in enumerate(E):
            if e is not None:
                qbar = 1 / ((e - 1) * total)
                row[y] = e * qbar if y == x else qbar
            elif y == x:
                row[y] = 1 / total
        expected[x] = row
    assert_channel(build("iprr", budgets=budgets).channel(), expected)


# --- Hao et al.: LHP --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("level_budget", ["perturbed", "true", None])
def test_lhp(level_budget):
    # Hao et al. Algorithm 3: the level t by GRR over the k levels at E_t (t* = t with E_t / (E_t + k - 1)); the value
    # discretised to +1 w.p. (1 + v)/2 and kept w.p. p_j = E_j / (E_j + 1), j the perturbed level t* as printed
    # (level_budget = "perturbed", the default) or the true level t ("true"); the pair (t*, v*) released.
    boundaries, budgets = ["-1", "0", "1/2", "1"], ["log(2)", "log(3)", "log(4)"]
    grid = ["-1", "-1/2", "0", "1/4", "1/2", "1"]
    E = [exp_of(b) for b in budgets]
    k = len(E)
    expected = {}
    for text in grid:
        v = Fraction(text)
        t = 1 if v < 0 else 2 if v < Fraction(1, 2) else 3
        row = {}
        for reported in range(1, k + 1):
            level = (E[t - 1] if reported == t else 1) / (E[t - 1] + k - 1)
            j = t if level_budget == "true" else reported
            keep = E[j - 1] / (E[j - 1] + 1)
            plus = (1 + v) / 2 * keep + (1 - v) / 2 * (1 - keep)
            row[(reported, 1)], row[(reported, -1)] = level * plus, level * (1 - plus)
        expected[Exact.of(text).text()] = row
    chosen = {} if level_budget is None else {"level_budget": level_budget}
    channel = build("lhp", boundaries=boundaries, budgets=budgets, grid=grid, **chosen).channel()
    assert_channel(channel, expected)


def test_every_registered_mechanism_is_pinned():
    pinned = {"rr", "grr", "krr", "ue", "sue", "oue", "urr", "urap", "olh", "hr", "harmony", "pm", "laplace", "idue",
              "idue-ps", "oue-ps", "rappor-ps", "sugrr", "sugrr-sample", "grr-set", "grr-sample", "surap",
              "surap-sample", "rappor-set", "rappor-sample", "suwheel", "wheel", "padded", "iprr", "graded-laplace",
              "lhp"}
    assert set(MECHANISMS) == pinned
