'use strict';
// Five mechanisms in doubles: GRR, OUE, IDUE, IPRR and suGRR-Sample. For each: the parameters (validated, with a
// clear error), the exact channel of the whole release in the order the channel-file format states, the sampling
// procedure of the reference's perturb (draw for draw), and the server's estimator with its exact variance.
//
// Budgets enter only as t = e^-eps (and expm1), never as e^eps: at eps = 1000, e^eps overflows a double, while
// e^-eps underflows harmlessly to 0, below anything a probability of the vectors needs.

const { InvalidParameter, SLIP } = require('./stream');

// --- parameters, as typed on the command line ----------------------------------------------------------------------

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const MAX_DOMAIN = 10000000;

function budget(value, name) {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !DECIMAL.test(text.trim())) {
    throw new InvalidParameter(`${name} must be a decimal number, got ${JSON.stringify(value)}`);
  }
  const number = Number(text);
  if (!Number.isFinite(number) || (number < 0 && SLIP !== 'invalid')) {
    throw new InvalidParameter(`${name} must be a finite real number >= 0, got ${JSON.stringify(value)}`);
  }
  return number;
}

function integer(text, name, low, high) {
  if (typeof text !== 'string' || !/^[+-]?\d+$/.test(text.trim())) {
    throw new InvalidParameter(`${name} must be an integer in [${low}, ${high}], got ${JSON.stringify(text)}`);
  }
  const value = Number(text);
  if (!(value >= low && value <= high)) {
    throw new InvalidParameter(`${name} must be an integer in [${low}, ${high}], got ${text}`);
  }
  return value;
}

function json(text, name) {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidParameter(`${name} must be JSON, got ${JSON.stringify(text)}`);
  }
}

function oneOf(text, name, choices, fallback) {
  const value = text === undefined ? fallback : text;
  if (!choices.includes(value)) throw new InvalidParameter(`${name} must be one of ${choices.join(', ')}`);
  return value;
}

function known(options, names) {
  for (const name of Object.keys(options)) {
    if (!names.includes(name)) throw new InvalidParameter(`unknown parameter --${name}`);
  }
}

// 1 - e^-eps without cancellation at tiny budgets.
const oneMinusT = (epsilon) => -Math.expm1(-epsilon);

// --- channels: one row per input, outputs in a stated order --------------------------------------------------------

function bitVectors(d) {  // every vector of d bits, the first item's bit most significant: 0..0, 0..01, ...
  const vectors = [];
  for (let code = 0; code < 2 ** d; code++) {
    vectors.push(Array.from({ length: d }, (_, k) => (code >> (d - 1 - k)) & 1));
  }
  return vectors;
}

function unaryChannel(a, b) {  // bit k is 1 with a[k] on the user's own bit, b[k] on every other bit
  const d = a.length;
  const inputs = [...Array(d).keys()];
  const outputs = bitVectors(d);
  const rows = inputs.map((x) => outputs.map((y) => y.reduce((product, bit, k) => {
    const one = k === x ? a[k] : b[k];
    return product * (bit ? one : 1 - one);
  }, 1)));
  return { inputs, outputs, rows };
}

// --- the count estimator (Wang et al. 2017; Gu et al. eqs. (7) and (8)) ---------------------------------------------
// An item is reported (or its bit set) with p by its holders and q by anyone else:
//   c_hat = (C - n q) / (p - q),   Var[c_hat] = n q (1 - q) / (p - q)^2 + c (1 - p - q) / (p - q)
// with c the item's true count among the n users.

function countEstimate(counts, n, p, q) {
  return counts.map((c, x) => (c - n * q[x]) / (p[x] - q[x]));
}

function countVariance(trueCounts, p, q) {
  const n = trueCounts.reduce((s, c) => s + c, 0);
  return trueCounts.map((c, x) => {
    const gap = p[x] - q[x];
    const perHolder = SLIP === 'moments' ? 0 : c * (1 - p[x] - q[x]) / gap;
    return n * q[x] * (1 - q[x]) / (gap * gap) + perHolder;
  });
}

function tally(population, d) {
  const counts = new Array(d).fill(0);
  for (const x of population) counts[x] += 1;
  return counts;
}

// --- the estimators of a direct encoding with Q(y|x) = base_y + extra_y [y = x] (GRR, IPRR) -------------------------

function empirical(structure, counts) {  // the IPLDP preprint's eq. (12): (n_y / n - base_y) / extra_y
  const n = counts.reduce((s, c) => s + c, 0);
  return counts.map((c, y) => (c / n - structure.base[y]) / structure.extra[y]);
}

function normSub(values) {  // Norm-Sub (Wang et al., NDSS 2020): clip, shift the positive entries to sum 1, repeat
  let v = values.slice();
  if (SLIP === 'direct') {  // clip and rescale: another post-processing
    v = v.map((x) => Math.max(x, 0));
    const total = v.reduce((s, x) => s + x, 0);
    return v.map((x) => x / total);
  }
  for (;;) {
    v = v.map((x) => (x > 0 ? x : 0));
    const positive = v.map((x, k) => (x > 0 ? k : -1)).filter((k) => k >= 0);
    const delta = (positive.reduce((s, k) => s + v[k], 0) - 1) / positive.length;
    for (const k of positive) v[k] -= delta;
    if (v.every((x) => x >= 0)) return v;
  }
}

function mle(structure, counts) {  // the maximum of sum_y n_y ln(base_y + extra_y p_y) on the simplex: water-filling
  const offsets = structure.base.map((b, y) => b / structure.extra[y]);
  const order = counts.map((c, y) => y).filter((y) => counts[y] > 0)
    .sort((s, t) => offsets[s] / counts[s] - offsets[t] / counts[t]);
  const chosen = [];
  let level = 0;
  for (let k = 0; k < order.length; k++) {
    chosen.push(order[k]);
    level = (1 + chosen.reduce((s, y) => s + offsets[y], 0)) / chosen.reduce((s, y) => s + counts[y], 0);
    const following = order[k + 1];
    if (following === undefined || level * counts[following] <= offsets[following]) break;
  }
  return counts.map((c, y) => (chosen.includes(y) ? level * c - offsets[y] : 0));
}

// --- GRR (Kairouz et al. 2014; Wang et al. 2017) ------------------------------------------------------------------
// p = e^eps / (e^eps + d - 1) = 1 / (1 + (d - 1) t),  q = 1 / (e^eps + d - 1) = t / (1 + (d - 1) t).

function grrProbabilities(epsilon, d) {
  let p, q;
  if (SLIP === 'large-budget') {  // e^eps first: inf / inf at eps = 1000
    const E = Math.exp(epsilon);
    [p, q] = [E / (E + d - 1), 1 / (E + d - 1)];
  } else {
    const t = Math.exp(-epsilon);
    [p, q] = [1 / (1 + (d - 1) * t), t / (1 + (d - 1) * t)];
  }
  return SLIP === 'p-q-swapped' ? [q, p] : [p, q];
}

const grr = {
  parse(options) {
    known(options, ['epsilon', 'd']);
    const epsilon = budget(options.epsilon, '--epsilon');
    const d = integer(options.d, '--d', 2, MAX_DOMAIN);
    const [p, q] = grrProbabilities(epsilon, d);
    return { epsilon, d, p, q };
  },
  channel({ epsilon, d, p, q }) {
    const items = [...Array(d).keys()];
    return { inputs: items, outputs: items, rows: items.map((x) => items.map((y) => (x === y ? p : q))),
      privacy: { epsilon } };
  },
  perturb({ d, p }, item, source) {  // the true item with p, else one of the d - 1 others
    if (source.bernoulli(p)) return item;
    if (SLIP === 'grr-true-item-among-others') return source.below(d);
    const other = source.below(d - 1);
    return other + (other >= item ? 1 : 0);  // skip the true item
  },
  counts: (releases, { d }) => tally(releases, d),
  estimate: ({ d, p, q }, counts, n) => countEstimate(counts, n, Array(d).fill(p), Array(d).fill(q)),
  variance: ({ d, p, q }, population) => countVariance(tally(population, d), Array(d).fill(p), Array(d).fill(q)),
  structure: ({ d, p, q }) => ({ base: Array(d).fill(q), extra: Array(d).fill(p - q) }),
};

// --- unary encoding: OUE (Wang et al. 2017) and IDUE (Gu et al. 2020) ----------------------------------------------

function unaryPerturb(a, b, item, source) {  // bit k is 1 with a[k] if k is the item, else b[k]; bits in order
  const order = [...a.keys()];
  if (SLIP === 'draw-order') order.reverse();
  const bits = new Array(a.length);
  for (const k of order) bits[k] = source.bernoulli(k === item ? a[k] : b[k]) ? 1 : 0;
  return bits;
}

function bitCounts(releases, d) {
  const counts = new Array(d).fill(0);
  for (const bits of releases) bits.forEach((bit, k) => { counts[k] += bit; });
  return counts;
}

const unary = {
  channel: ({ a, b, privacy }) => ({ ...unaryChannel(a, b), privacy }),
  perturb: ({ a, b }, item, source) => unaryPerturb(a, b, item, source),
  counts: (releases, { a }) => bitCounts(releases, a.length),
  estimate: ({ a, b }, counts, n) => countEstimate(counts, n, a, b),
  variance: ({ a, b }, population) => countVariance(tally(population, a.length), a, b),
};

// OUE: a = 1/2, b = 1 / (e^eps + 1) = t / (1 + t).
const oue = {
  ...unary,
  parse(options) {
    known(options, ['epsilon', 'd']);
    const epsilon = budget(options.epsilon, '--epsilon');
    const d = integer(options.d, '--d', 2, MAX_DOMAIN);
    const t = Math.exp(-epsilon);
    let [p, q] = [0.5, t / (1 + t)];
    if (SLIP === 'p-q-swapped') [p, q] = [q, p];
    return { epsilon, d, a: Array(d).fill(p), b: Array(d).fill(q), privacy: { epsilon } };
  },
};

// IDUE: the per-item (a_i, b_i) come from a solver (`ldpspec idue solve` prints them under "items"); a port validates
// the levels and takes the solution. The vectors give, for each parameter set the solver solved, its output as
// `solution` ({a: [...], b: [...]}, per item); a set without one is a set the solver refused.
const IDUE_CHOICES = { model: ['opt0', 'opt1', 'opt2'], notion: ['min', 'avg'], 'self-pairs': ['all', 'multi-item'],
  box: ['authors', 'none'] };

function idueBudgets(options) {
  if ((options.budgets === undefined) === (options.levels === undefined)) {
    throw new InvalidParameter('give exactly one of --budgets (one budget per item) and --levels');
  }
  if (options.budgets !== undefined) {
    const budgets = json(options.budgets, '--budgets');
    if (!Array.isArray(budgets) || budgets.length < 2 || budgets.length > 1000000) {
      throw new InvalidParameter('--budgets must give one budget per item for 2 to 1,000,000 items');
    }
    return budgets.map((value, i) => budget(value, `--budgets[${i}]`));
  }
  const levels = json(options.levels, '--levels');
  if (!Array.isArray(levels) || !levels.length) throw new InvalidParameter('--levels must list [budget, items]');
  const pairs = levels.map((pair, t) => {
    if (!Array.isArray(pair) || pair.length !== 2 || !Number.isInteger(pair[1]) || pair[1] < 1) {
      throw new InvalidParameter(`--levels[${t}] must be [budget, number of items >= 1]`);
    }
    return [budget(pair[0], `--levels[${t}]`), pair[1]];
  }).sort((s, t) => s[0] - t[0]);
  return pairs.flatMap(([eps, size]) => Array(size).fill(eps));
}

function validateIdue(options) {  // what the port checks before it takes a solution; the item budgets
  known(options, ['budgets', 'levels', 'model', 'notion', 'self-pairs', 'box', 'starts', 'seed']);
  const budgets = idueBudgets(options);
  for (const [name, choices] of Object.entries(IDUE_CHOICES)) oneOf(options[name], `--${name}`, choices, choices[0]);
  if (options.starts !== undefined) integer(options.starts, '--starts', 0, 100);
  if (options.seed !== undefined) integer(options.seed, '--seed', 0, Number.MAX_SAFE_INTEGER);
  return budgets;
}

const idue = {
  ...unary,
  parse(options, solution) {
    const budgets = validateIdue(options);
    if (solution === undefined) throw new InvalidParameter('the solver gave no solution for these parameters');
    if (solution.a.length !== budgets.length || solution.b.length !== budgets.length) {
      throw new Error(`the solution gives ${solution.a.length} items, the budgets ${budgets.length}`);
    }
    const a = solution.a.map(Number);
    const b = solution.b.map(Number);
    return { a: SLIP === 'p-q-swapped' ? b : a, b: SLIP === 'p-q-swapped' ? a : b, privacy: { budgets } };
  },
};

// --- IPRR (the IPLDP preprint, Definitions 4 and 5, in the form of Sec. 5.3) ---------------------------------------
// r_x = 1 / (e^eps_x - 1) for a sensitive item, 0 otherwise; S = 1 / (1 + sum r);  Q(y|x) = S ([y = x] + r_y).

const iprr = {
  parse(options) {
    known(options, ['budgets']);
    const budgets = json(options.budgets, '--budgets');
    if (!Array.isArray(budgets) || budgets.length < 2 || budgets.length > MAX_DOMAIN) {
      throw new InvalidParameter(`--budgets must give one budget per item 0 .. d-1, for 2 to ${MAX_DOMAIN} items`);
    }
    const epsilons = budgets.map((value, x) => (value === null ? null : budget(value, `--budgets[${x}]`)));
    epsilons.forEach((eps, x) => {
      if (eps === 0) throw new InvalidParameter(`--budgets[${x}] must be > 0 (null for a non-sensitive item)`);
    });
    const r = epsilons.map((eps) => (eps === null ? 0 : 1 / Math.expm1(eps)));  // 1 / inf = 0 at large budgets
    const S = 1 / (1 + r.reduce((s, v) => s + v, 0));
    const sensitive = epsilons.map((eps, x) => (eps === null ? -1 : x)).filter((x) => x >= 0);
    return { budgets: epsilons, d: budgets.length, r, S, sensitive };
  },
  channel({ budgets, d, r, S }) {
    const items = [...Array(d).keys()];
    return { inputs: items, outputs: items, rows: items.map((x) => items.map((y) => S * ((x === y ? 1 : 0) + r[y]))),
      privacy: { budgets } };
  },
  perturb({ r, S, sensitive }, item, source) {
    if (source.bernoulli(S)) return item;  // keep the true item with S
    // else a sensitive y with probability r_y / R: a coin per item but the last, w_k / (w_k + ... + w_last)
    let remaining = sensitive.reduce((s, y) => s + r[y], 0);
    for (const y of sensitive.slice(0, -1)) {
      if (source.bernoulli(r[y] / remaining)) return y;
      remaining -= r[y];
    }
    return sensitive[sensitive.length - 1];
  },
  counts: (releases, { d }) => tally(releases, d),
  // a report of x comes from its holders with S (1 + r_x) and from anyone else with S r_x
  estimate: ({ r, S }, counts, n) => countEstimate(counts, n, r.map((v) => S * (1 + v)), r.map((v) => S * v)),
  variance: ({ r, S }, population) => countVariance(tally(population, r.length), r.map((v) => S * (1 + v)),
    r.map((v) => S * v)),
  structure: ({ r, S }) => ({ base: r.map((v) => S * v), extra: r.map(() => S) }),
};

// --- suGRR-Sample (Cao et al. 2022, Sec. 4.1): one item of the set, sampled, through uRR at eps -------------------
// uRR with k sensitive items and D = e^eps + k - 1: a sensitive x is kept with c1 = e^eps / D, a non-sensitive x
// with c3 = (e^eps - 1) / D, and otherwise each sensitive item other than x is reported with c2 = 1 / D.
// The release is (y0, revealed): ([z], []) for a sensitive z, (null, [z]) for another (([], [z]) under
// empty = "empty").

function combinations(d, m) {  // every set of m items of 0 .. d-1, sorted, in lexicographic order
  const result = [];
  const walk = (start, chosen) => {
    if (chosen.length === m) { result.push(chosen); return; }
    for (let x = start; x <= d - (m - chosen.length); x++) walk(x + 1, [...chosen, x]);
  };
  walk(0, []);
  return result;
}

function urrRow(params, x) {  // {z: P[z | x]} over the outputs uRR can give (structurally, not by value)
  const { isSensitive, sensitive, c1, c2, c3, epsilon } = params;
  const row = new Map();
  for (const z of sensitive) row.set(z, z === x ? c1 : c2);
  if (!isSensitive[x] && epsilon > 0) row.set(x, c3);
  return row;
}

function release(params, z) {
  if (params.isSensitive[z]) return [[z], []];
  return [params.empty === 'empty' ? [] : null, [z]];
}

const sugrrSample = {
  parse(options) {
    known(options, ['epsilon', 'd', 'sensitive', 'm', 'empty']);
    const epsilon = budget(options.epsilon, '--epsilon');
    const d = integer(options.d, '--d', 2, MAX_DOMAIN);
    const m = integer(options.m, '--m', 1, MAX_DOMAIN);
    if (m > d) throw new InvalidParameter(`--m must be at most d = ${d}`);
    const empty = oneOf(options.empty, '--empty', ['absent', 'empty'], 'absent');
    const sensitive = json(options.sensitive, '--sensitive');
    if (!Array.isArray(sensitive) || !sensitive.length) throw new InvalidParameter('--sensitive must hold an item');
    if (!sensitive.every((x) => Number.isInteger(x) && x >= 0 && x < d)) {
      throw new InvalidParameter(`every item of --sensitive must be an integer in [0, ${d - 1}]`);
    }
    if (new Set(sensitive).size !== sensitive.length) throw new InvalidParameter('--sensitive must not repeat');
    sensitive.sort((s, t) => s - t);
    const isSensitive = Array.from({ length: d }, (_, x) => sensitive.includes(x));
    const k = sensitive.length;
    let c1, c2, c3;
    if (SLIP === 'large-budget') {
      const E = Math.exp(epsilon);
      [c1, c2, c3] = [E / (E + k - 1), 1 / (E + k - 1), (E - 1) / (E + k - 1)];
    } else {
      const t = Math.exp(-epsilon);
      const D = 1 + (k - 1) * t;  // (e^eps + k - 1) e^-eps
      [c1, c2, c3] = [1 / D, t / D, oneMinusT(epsilon) / D];
    }
    if (SLIP === 'p-q-swapped') [c1, c2] = [c2, c1];
    return { epsilon, d, m, empty, sensitive, isSensitive, c1, c2, c3 };
  },
  channel(params) {
    const { d, m, sensitive, epsilon, empty } = params;
    const inputs = combinations(d, m);
    // outputs: the revealed items first (y0 absent, or the empty y0, sorts first), then each sensitive item
    const revealed = epsilon > 0 ? [...Array(d).keys()].filter((z) => !params.isSensitive[z]) : [];
    const labels = [...revealed, ...sensitive];
    const rows = inputs.map((set) => labels.map((z) => set.reduce((sum, i) => sum + (urrRow(params, i).get(z) || 0), 0)
      / m));
    const protectedOutputs = [...(revealed.length && empty === 'empty' ? [[]] : []), ...sensitive.map((z) => [z])];
    return { inputs, outputs: labels.map((z) => release(params, z)), rows,
      privacy: { sensitive_items: sensitive, protected_outputs: protectedOutputs, epsilon } };
  },
  perturb(params, items, source) {
    const x = items[source.below(params.m)];  // the sampled item
    const keep = params.isSensitive[x] ? params.c1 : params.c3;
    if (source.bernoulli(keep)) return release(params, x);
    const others = params.sensitive.filter((z) => z !== x);
    return release(params, others[source.below(others.length)]);
  },
  counts(releases, { d }) {
    const counts = new Array(d).fill(0);
    for (const [y0, revealed] of releases) for (const z of [...(y0 || []), ...revealed]) counts[z] += 1;
    return counts;
  },
  // Eq. (15): m (F_x - n c2) / (c1 - c2) for a sensitive x, m F_x / c3 for another.
  estimate(params, counts, n) {
    const scale = SLIP === 'estimate' ? 1 : params.m;
    return counts.map((F, x) => scale * (params.isSensitive[x] ? (F - n * params.c2) / (params.c1 - params.c2)
      : F / params.c3));
  },
  // F_x sums one Bernoulli per user, with pi_u = (1/m) sum over the user's set of P[z = x | i]; the estimate is an
  // affine function of F_x, so its variance is m^2 sum pi_u (1 - pi_u) / (p - q)^2.
  variance(params, population) {
    return [...Array(params.d).keys()].map((x) => {
      const [p, q] = params.isSensitive[x] ? [params.c1, params.c2] : [params.c3, 0];
      const sum = population.reduce((total, set) => {
        const pi = set.reduce((s, i) => s + (urrRow(params, i).get(x) || 0), 0) / params.m;
        return total + pi * (SLIP === 'moments' ? 1 : 1 - pi);
      }, 0);
      return params.m * params.m * sum / ((p - q) * (p - q));
    });
  },
};

function mechanisms() {
  return { grr, oue, idue, iprr, 'sugrr-sample': sugrrSample };
}

module.exports = { mechanisms, empirical, normSub, mle, validateIdue, InvalidParameter };
