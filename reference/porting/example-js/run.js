'use strict';
// Answers every vector of the five mechanisms this port implements, and draws samples with its own generator, as
// an answers file for `ldpspec conform`:
//
//   node run.js > answers.json && ldpspec conform answers.json
//
// It reads from the vectors only what a port is given (options, IDUE's solver output, inputs, seeds, counts,
// populations), never the expected results. A mechanism's vectors of each kind are one file,
// vectors/<kind>/<mechanism>.json; an answer names its test by the mechanism and the test's id in that file.

const fs = require('fs');
const path = require('path');
const { Stream, Sfc32, InvalidParameter } = require('./stream');
const { mechanisms, empirical, normSub, mle } = require('./mechanisms');

const VECTORS = path.join(__dirname, '..', 'vectors');
const SAMPLES = 3000;  // releases per mechanism drawn with the port's own generator

const read = (name) => JSON.parse(fs.readFileSync(path.join(VECTORS, name), 'utf8'));
const MECHANISMS = mechanisms();
const NAMES = Object.keys(MECHANISMS);
// every test of one kind for the mechanisms this port implements, each with its mechanism's name
const testsOf = (kind) => NAMES.flatMap((name) => read(path.join(kind, `${name}.json`)).tests
  .map((test) => ({ name, test })));

// the stream: its first 64 bytes, then the script of draws from a fresh stream
const stream = read('stream.json').tests.map((test) => {
  const head = new Stream(test.seed);
  const firstBytes = Buffer.from(Array.from({ length: 64 }, () => head.bits(8))).toString('hex');
  const source = new Stream(test.seed);
  const draws = test.draws.map((draw) => {
    const value = draw.draw === 'bits' ? source.bitsBig(draw.k)
      : draw.draw === 'below' ? source.below(draw.n)
        : source.bernoulli(draw.p === '0' ? 0 : draw.p === '1' ? 1 : draw.digits);  // p exact: digits, or 0 or 1
    return { value, bits_read: source.bitsRead };
  });
  return { id: test.id, first_bytes: firstBytes, draws };
});

// parameters: valid (the channel's probabilities and the privacy section's parameters) or invalid
const parameters = testsOf('parameters').map(({ name, test }) => {
  const answer = { mechanism: name, id: test.id };
  try {
    const channel = MECHANISMS[name].channel(MECHANISMS[name].parse(test.options, test.solution));
    Object.assign(answer, { result: 'valid', probabilities: channel.rows, privacy: channel.privacy });
  } catch (error) {
    if (!(error instanceof InvalidParameter)) throw error;
    answer.result = 'invalid';
  }
  return answer;
});

// estimators: the estimate from the counts, the exact variance over the population; a direct encoding's three
// estimates of the distribution
const estimators = testsOf('estimators').map(({ name, test }) => {
  const mechanism = MECHANISMS[name];
  const params = mechanism.parse(test.options, test.solution);
  const answer = { mechanism: name, id: test.id, estimate: mechanism.estimate(params, test.counts, test.n),
    variance: mechanism.variance(params, test.population) };
  if (mechanism.structure) {
    const structure = mechanism.structure(params);
    const frequencies = empirical(structure, test.counts);
    answer.direct = { empirical: frequencies, norm_sub: normSub(frequencies), mle: mle(structure, test.counts) };
  }
  return answer;
});

// sampling: 16 releases from the stream of the test's seed, one after another
const sampling = testsOf('sampling').map(({ name, test }) => {
  const mechanism = MECHANISMS[name];
  const params = mechanism.parse(test.options, test.solution);
  const source = new Stream(test.seed);
  const releases = Array.from({ length: test.releases.length }, () => mechanism.perturb(params, test.input, source));
  return { mechanism: name, id: test.id, releases, bits_read: source.bitsRead };
});

// samples: the port's own generator, for the goodness-of-fit test (the example options, the first input)
const samples = NAMES.map((name, k) => {
  const example = read(path.join('parameters', `${name}.json`)).tests.find((test) => test.id === 'example');
  const mechanism = MECHANISMS[name];
  const params = mechanism.parse(example.options, example.solution);
  const input = mechanism.channel(params).inputs[0];
  const source = new Sfc32(20261124 + k);
  const releases = Array.from({ length: SAMPLES }, () => mechanism.perturb(params, input, source));
  return { mechanism: name, options: example.options, input, releases };
});

const answers = { format: 'ldpspec-answers/2', port: 'example-js', stream, parameters, estimators, sampling, samples };
// BigInt (bits(64)) is written as its digits; NaN and infinities become null, which conform reports as wrong
const text = JSON.stringify(answers, (key, value) => (typeof value === 'bigint' ? `#big#${value}` : value));
process.stdout.write(`${text.replace(/"#big#(\d+)"/g, '$1')}\n`);
