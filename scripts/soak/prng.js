'use strict';
/**
 * A seeded PRNG (sfc32, seeded through a string hash) with the few draws the soak needs. Every
 * choice the soak makes (operations, amounts, references, the fault schedule) comes from a stream
 * forked from the run's seed by a label, so one stream's draws never shift another's: the fault
 * schedule is the same whatever the workload did, and each client's operations are the same
 * whatever the other clients did.
 */

/** cyrb53-style 32-bit hashes of a string, four of them, to seed sfc32. */
function seeds(text) {
  const out = [];
  for (let salt = 0; salt < 4; salt++) {
    let h1 = 0xdeadbeef ^ salt;
    let h2 = 0x41c6ce57 ^ salt;
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    out.push(h1 >>> 0);
  }
  return out;
}

class Prng {
  constructor(label) {
    this.label = label;
    [this.a, this.b, this.c, this.d] = seeds(label);
    for (let i = 0; i < 12; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next() {
    this.a >>>= 0;
    this.b >>>= 0;
    this.c >>>= 0;
    this.d >>>= 0;
    let t = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    t = (t + this.d) | 0;
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min, max) {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p) {
    return this.next() < p;
  }

  pick(list) {
    return list[Math.floor(this.next() * list.length)];
  }

  /** A key of `weights` ({name: weight}), drawn in proportion to its weight. */
  weighted(weights) {
    const entries = Object.entries(weights).filter(([, w]) => w > 0);
    let r = this.next() * entries.reduce((s, [, w]) => s + w, 0);
    for (const [name, w] of entries) {
      if ((r -= w) < 0) return name;
    }
    return entries[entries.length - 1][0];
  }

  digits(n) {
    let s = '';
    for (let i = 0; i < n; i++) s += String(this.int(0, 9));
    return s;
  }

  /** A stream of its own, named: `root.fork('client-3')`. */
  fork(name) {
    return new Prng(`${this.label}/${name}`);
  }
}

/** A Luhn-valid 16-digit Visa-range number that is none of the sandbox's decline cards. */
function luhnPan(prng) {
  for (;;) {
    const body = `4${prng.digits(14)}`;
    let sum = 0;
    for (let i = 0; i < body.length; i++) {
      let d = Number(body[body.length - 1 - i]);
      if (i % 2 === 0) d *= 2;
      if (d > 9) d -= 9;
      sum += d;
    }
    const pan = body + String((10 - (sum % 10)) % 10);
    if (!['4000000000000002', '4000000000009995', '4242424242424242'].includes(pan)) return pan;
  }
}

module.exports = { Prng, luhnPan };
