'use strict';
/**
 * The soak's HTTP client: what a careful integrator does while the server is killed under it.
 *
 * - A request refused at connect (ECONNREFUSED: the API is down) was never sent: retried, whatever it is.
 * - A request whose answer is lost (reset, timeout) may or may not have happened: retried only if
 *   it is safe to (a GET, or a write under an Idempotency-Key); otherwise its outcome is unknown,
 *   and the soak never counts on it.
 * - 503 `overloaded` is refused before anything is done: retried. Other 503s and 5xx: retried
 *   for GETs and keyed writes (a 5xx releases the key), reported for the rest.
 * - 409 `idempotency_key_in_use` (the first attempt still holds the key, or died holding it
 *   until its lease lapses): retried.
 *
 * A request that gets no answer within `giveUpMs` is a liveness violation.
 */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** `/transfers/trf_01…?x` → `/transfers/:id`, so statistics group by route. */
const route = (method, path) => `${method} ${path.split('?')[0].replace(/\b[a-z]{2,5}_[0-9A-Za-z]{20,}/g, ':id')}`;

class Client {
  /** @param {{ url: string, apiKey: string, stats: object, onViolation: (what: string) => void, giveUpMs?: number, timeoutMs?: number }} options */
  constructor(options) {
    this.url = options.url;
    this.auth = `Bearer ${options.apiKey}`;
    this.stats = options.stats;
    this.onViolation = options.onViolation;
    this.giveUpMs = options.giveUpMs ?? 150_000;
    this.timeoutMs = options.timeoutMs ?? 20_000;
  }

  /**
   * @param {'GET'|'POST'|'PATCH'|'DELETE'} method
   * @param {string} path
   * @param {object} [body]
   * @param {{ key?: string }} [options] `key`: the Idempotency-Key
   * @returns {Promise<{ status: number, body: any, replayed: boolean, unknown?: boolean }>}
   *   status 0 and `unknown: true` when the outcome of an unkeyed write is unknown
   */
  async call(method, path, body, options = {}) {
    const safe = method === 'GET' || Boolean(options.key);
    const name = route(method, path);
    const s = this.stats;
    const started = Date.now();
    let backoff = 50;
    const wait = async (ms) => {
      s.retries += 1;
      await sleep(ms ?? backoff);
      backoff = Math.min(backoff * 2, 1_000);
    };
    for (let attempt = 1; ; attempt++) {
      if (Date.now() - started > this.giveUpMs) {
        this.onViolation(`${method} ${path} got no answer in ${this.giveUpMs / 1000} s of retries`);
        return { status: 0, body: null, replayed: false, unknown: true };
      }
      s.requests += 1;
      const headers = { authorization: this.auth };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (options.key) headers['idempotency-key'] = options.key;
      let res;
      try {
        res = await fetch(`${this.url}${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (err) {
        const code = (err.cause && err.cause.code) || err.name || 'error';
        if (code === 'ECONNREFUSED') {
          s.refusedConnections += 1;
          await wait();
          continue;
        }
        s.lostAnswers[code] = (s.lostAnswers[code] || 0) + 1;
        if (safe) {
          await wait();
          continue;
        }
        s.unknownOutcomes[name] = (s.unknownOutcomes[name] || 0) + 1;
        return { status: 0, body: null, replayed: false, unknown: true };
      }
      let text = '';
      try {
        text = await res.text();
      } catch (err) {
        // The answer was cut mid-body: as lost as a reset.
        s.lostAnswers.body = (s.lostAnswers.body || 0) + 1;
        if (safe) {
          await wait();
          continue;
        }
        s.unknownOutcomes[name] = (s.unknownOutcomes[name] || 0) + 1;
        return { status: 0, body: null, replayed: false, unknown: true };
      }
      let json = null;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        json = { raw: text };
      }
      const code = json && json.code;
      if (res.status >= 500) {
        const label = `${res.status} ${code || 'no-envelope'}`;
        s.serverErrors[`${name} → ${label}`] = (s.serverErrors[`${name} → ${label}`] || 0) + 1;
        if (!json || json.status !== 'error')
          this.onViolation(
            `${method} ${path} answered ${res.status} outside the error envelope: ${text.slice(0, 200)}`,
          );
        const retryAfter = Number(res.headers.get('retry-after')) * 1000 || undefined;
        if (safe || code === 'overloaded') {
          await wait(retryAfter);
          continue;
        }
        return { status: res.status, body: json, replayed: false };
      }
      if (res.status === 409 && code === 'idempotency_key_in_use') {
        s.keyInUse += 1;
        await wait(500);
        continue;
      }
      if (res.status === 429) {
        s.rateLimited += 1;
        await wait(Number(res.headers.get('retry-after')) * 1000 || 500);
        continue;
      }
      const replayed = res.headers.get('idempotent-replayed') === 'true';
      if (replayed) s.replays += 1;
      const bucket = res.status < 300 ? 'ok' : `${res.status} ${code || ''}`.trim();
      s.answers[`${name} → ${bucket}`] = (s.answers[`${name} → ${bucket}`] || 0) + 1;
      return { status: res.status, body: json, replayed };
    }
  }
}

function newStats() {
  return {
    requests: 0,
    retries: 0,
    refusedConnections: 0,
    keyInUse: 0,
    rateLimited: 0,
    replays: 0,
    lostAnswers: {},
    unknownOutcomes: {},
    serverErrors: {},
    answers: {},
  };
}

module.exports = { Client, newStats, route };
