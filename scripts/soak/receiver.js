'use strict';
/**
 * The webhook receiver of the soak: HTTPS on 127.0.0.1 with the test-only certificate
 * (test/fixtures/tls; the API and its worker trust its CA through NODE_EXTRA_CA_CERTS). Each
 * delivery is verified with the `standardwebhooks` package against the signing secret of its path
 * and recorded in arrival order; some first attempts are answered 500 (chosen from the delivery id
 * and the seed), so retries and the order behind a retried delivery are exercised too.
 */
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const { createServer } = require('node:https');
const { join } = require('node:path');
const { Webhook } = require('standardwebhooks');

class Receiver {
  /** @param {{ tlsDir: string, seed: string, failFirstAttempts: number }} options */
  constructor(options) {
    this.tlsDir = options.tlsDir;
    this.seed = options.seed;
    this.failFirstAttempts = options.failFirstAttempts;
    /** path → Webhook verifier */
    this.verifiers = new Map();
    /** path → [{ id, event, dataId }] in arrival order (duplicates included) */
    this.received = new Map();
    this.rejected = [];
    this.requests = 0;
    this.failedOnPurpose = 0;
    this.attempted = new Set();
  }

  start() {
    this.server = createServer(
      {
        key: readFileSync(join(this.tlsDir, 'server.key')),
        cert: readFileSync(join(this.tlsDir, 'server.crt')),
      },
      (req, res) => {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => {
          this.requests += 1;
          const path = (req.url || '/').split('?')[0];
          const body = Buffer.concat(chunks).toString('utf8');
          const verifier = this.verifiers.get(path);
          let payload;
          try {
            if (!verifier) throw new Error(`no webhook registered for ${path}`);
            payload = verifier.verify(body, req.headers);
          } catch (err) {
            this.rejected.push({ path, reason: err.message });
            res.writeHead(400).end('rejected');
            return;
          }
          // Some first attempts fail on purpose: the delivery is retried, and later ones about the same resource wait.
          const first = !this.attempted.has(payload.id);
          this.attempted.add(payload.id);
          if (first && this.failFirstAttempts > 0 && unit(`${this.seed}:${payload.id}`) < this.failFirstAttempts) {
            this.failedOnPurpose += 1;
            res.writeHead(500).end('try again');
            return;
          }
          if (!this.received.has(path)) this.received.set(path, []);
          this.received.get(path).push({
            id: payload.id,
            event: payload.event,
            dataId: payload.data && payload.data.id,
          });
          res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        });
      },
    );
    return new Promise((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  /** Deliveries to `path` must verify with `signingSecret` (the creation answer's `signing_secret`). */
  register(path, signingSecret) {
    this.verifiers.set(path, new Webhook(signingSecret));
  }

  url(path) {
    return `https://127.0.0.1:${this.server.address().port}${path}`;
  }

  on(path) {
    return this.received.get(path) || [];
  }

  get delivered() {
    let n = 0;
    for (const list of this.received.values()) n += list.length;
    return n;
  }

  close() {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A number in [0, 1) from a string. */
function unit(text) {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 4294967296;
}

module.exports = { Receiver };
