'use strict';
// The porting kit's random stream (the site's page "The random stream"), from Node's standard library only.
//
// Block i is SHA-256(seed || i), i as 8 bytes big-endian; the stream is the blocks' bytes in order, each byte read
// from its most significant bit. Every draw a mechanism makes is bits(k), below(n) or bernoulli(p) on it.
//
// PORT_SLIP (an environment variable) plants one of the mistakes the vectors' flags name, so that the tests can see
// `ldpspec conform` catch it; unset, the port is the correct one.

const crypto = require('crypto');

const SLIP = process.env.PORT_SLIP || null;

class InvalidParameter extends Error {}

// The binary digits d1 d2 d3 ... of p, one at a time: p is a double of [0, 1] (its expansion ends after at most
// 1074 digits; doubling and subtracting 1 are exact in doubles), or a string of digits from the vectors.
function* binaryDigits(p) {
  if (typeof p === 'string') {
    for (const digit of p) yield digit === '1' ? 1 : 0;
    throw new Error('a draw read past the binary digits given for its probability');
  }
  let rest = p;
  for (;;) {
    rest *= 2;
    const digit = rest >= 1 ? 1 : 0;
    rest -= digit;
    yield digit;
  }
}

// A probability given as digits, rounded to the nearest double (what the slips that round p use).
function digitsToDouble(digits) {
  let value = 0;
  for (let i = Math.min(digits.length, 64); i > 0; i--) value = (value + (digits[i - 1] === '1' ? 1 : 0)) / 2;
  return value;
}

// Random bits, and the three draws made from them. `bit()` is the only source of randomness, so the same draws run
// over the stream (for the vectors) and over the port's own generator (for samples).
class BitSource {
  constructor() {
    this.bitsRead = 0;
  }

  // The next k bits as an unsigned integer, the first bit the most significant (a BigInt: k may be 64).
  bitsBig(k) {
    let value = 0n;
    for (let i = 0; i < k; i++) value = 2n * value + BigInt(this.bit());
    return value;
  }

  bits(k) {
    if (k > 53) throw new InvalidParameter(`bits(${k}) does not fit a double: use bitsBig`);
    let value = 0;
    for (let i = 0; i < k; i++) value = 2 * value + this.bit();
    return value;
  }

  // A uniform integer of 0 .. n-1 without modulo bias: k = bit length of n - 1 bits, redrawn while >= n.
  below(n) {
    if (!Number.isSafeInteger(n) || n < 1) throw new InvalidParameter(`n must be an integer >= 1, got ${n}`);
    const k = (n - 1).toString(2).length - (n === 1 ? 1 : 0);
    if (SLIP === 'modulo-bias') return n === 1 ? 0 : this.bits(Math.min(k + 8, 53)) % n;
    for (;;) {
      const value = this.bits(k);
      if (value < n) return value;
    }
  }

  // True with probability exactly p: the first stream bit that differs from p's binary digit decides (U < p).
  // p = 0 and p = 1 read nothing. p is a double of [0, 1], or the string of the binary digits of a p strictly
  // between 0 and 1 (all 256 digits the vectors give can be 0 for such a p: 1 / (e^1000 + 1)).
  bernoulli(p) {
    if (p === 0 || p === 1) {
      if (SLIP === 'certain-coin') this.bit();
      return p === 1;
    }
    if (SLIP === 'float-coin') {  // a 53-bit uniform double compared with p as a double
      return this.bits(53) / 2 ** 53 < (typeof p === 'string' ? digitsToDouble(p) : p);
    }
    if (SLIP === 'large-budget' && typeof p === 'string') {
      p = digitsToDouble(p);  // rounded to a double: 0 or 1 at an e^1000 budget
      if (p === 0 || p === 1) return p === 1;
    }
    for (const digit of binaryDigits(p)) {
      const b = this.bit();
      if (b !== digit) return b < digit;
    }
    throw new Error('unreachable');
  }
}

class Stream extends BitSource {
  constructor(seedHex) {
    super();
    if (!/^([0-9a-fA-F]{2})*$/.test(seedHex)) throw new InvalidParameter(`a seed is hexadecimal, got ${seedHex}`);
    this.seed = Buffer.from(seedHex, 'hex');
    this.counter = 0n;
    this.block = Buffer.alloc(0);
    this.position = 0;  // bits read from the current block
  }

  blockBytes(index) {
    const counter = Buffer.alloc(8);
    if (SLIP === 'block-layout') counter.writeBigUInt64LE(index);
    else counter.writeBigUInt64BE(index);
    return crypto.createHash('sha256').update(Buffer.concat([this.seed, counter])).digest();
  }

  bit() {
    if (this.position === 8 * this.block.length) {
      this.block = this.blockBytes(this.counter);
      this.counter += 1n;
      this.position = 0;
    }
    const byte = this.block[this.position >> 3];
    const shift = SLIP === 'bit-order' ? this.position % 8 : 7 - (this.position % 8);
    this.position += 1;
    this.bitsRead += 1;
    return (byte >> shift) & 1;
  }
}

// The port's own generator, for samples tested by goodness of fit: sfc32 (Chris Doty-Humphrey's small fast
// counting generator), 32 bits a step, read most significant bit first. Any good generator would do.
class Sfc32 extends BitSource {
  constructor(seed) {
    super();
    this.state = [0x9e3779b9, 0x243f6a88, 0xb7e15162, seed >>> 0];
    this.word = 0;
    this.left = 0;
    for (let i = 0; i < 15; i++) this.next();
  }

  next() {
    const s = this.state;
    const t = (((s[0] + s[1]) >>> 0) + s[3]) >>> 0;
    s[3] = (s[3] + 1) >>> 0;
    s[0] = s[1] ^ (s[1] >>> 9);
    s[1] = (s[2] + (s[2] << 3)) >>> 0;
    s[2] = ((s[2] << 21) | (s[2] >>> 11)) >>> 0;
    s[2] = (s[2] + t) >>> 0;
    return t;
  }

  bit() {
    if (this.left === 0) {
      this.word = this.next();
      this.left = 32;
    }
    this.left -= 1;
    this.bitsRead += 1;
    return (this.word >>> this.left) & 1;
  }
}

module.exports = { InvalidParameter, Stream, Sfc32, SLIP };
