'use strict';
// Asks `ldpspec idue solve` for IDUE's per-item (a, b) for every parameter set of IDUE's vectors that the port's own
// validation accepts, and prints what it said as JSON: the solution, or the solver's refusal (exit status 2).
//
//   node solve.js [SOLVER COMMAND ...] > idue-solutions.json      (the command defaults to: ldpspec)
//
// A deployment does the same once: the solver runs where SciPy is, and the port reads its output.

const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { idueKey, validateIdue, InvalidParameter } = require('./mechanisms');

const VECTORS = path.join(__dirname, '..', 'vectors');
const command = process.argv.length > 2 ? process.argv.slice(2) : ['ldpspec'];
const document = JSON.parse(fs.readFileSync(path.join(VECTORS, 'parameters', 'idue.json'), 'utf8'));

const solutions = {};
for (const test of document.tests) {
  try {
    validateIdue(test.options);
  } catch (error) {
    if (error instanceof InvalidParameter) continue;  // refused by the port itself: nothing to solve
    throw error;
  }
  const args = [...command.slice(1), 'idue', 'solve'];
  for (const [name, value] of Object.entries(test.options)) args.push(`--${name}`, value);
  const run = spawnSync(command[0], args, { encoding: 'utf8' });
  if (run.status === 0) {
    solutions[idueKey(test.options)] = JSON.parse(run.stdout);
  } else if (run.status === 2) {
    solutions[idueKey(test.options)] = { refused: run.stderr.trim() };
  } else {
    throw new Error(`the solver failed (${run.error || `exit ${run.status}`}): ${run.stderr}`);
  }
}
process.stdout.write(`${JSON.stringify(solutions, null, 1)}\n`);
