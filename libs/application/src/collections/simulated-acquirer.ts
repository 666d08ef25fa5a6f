import { Injectable } from '@nestjs/common';
import type { CardData } from '@app/domain/collections';
import type { Mode } from '@app/platform/event-store/event-mode';
import type { Acquirer, Authorization, AuthorizationRequest, Tokenization } from './acquirer.port';

/** Decisions §7's test cards; any other Luhn-valid number is approved. */
const DECLINES: Readonly<Record<string, string>> = {
  '4000000000000002': 'card_declined',
  '4000000000009995': 'insufficient_funds',
};

const TOKEN = /^sim_(approve|card_declined|insufficient_funds)_[a-z0-9]+$/;

/** Authorizations remembered by key; the oldest is forgotten beyond this (see `authorize`). */
export const SIMULATED_ACQUIRER_KEYS = 10_000;

interface Remembered {
  readonly fingerprint: string;
  readonly answer: Promise<Authorization>;
}

/**
 * The sandbox acquirer. It keeps no vault: its token names the outcome its test card scripts
 * (never the card), so any replica can authorize it later. It takes no live money: live intents
 * go through the same path and are refused with `acquirer_unavailable` until a real adapter exists.
 */
@Injectable()
export class SimulatedAcquirer implements Acquirer {
  private readonly byKey = new Map<string, Remembered>();
  /** Every `authorize` call, and those that performed an authorization (a key not seen before). */
  readonly counts = { calls: 0, performed: 0 };

  async tokenize(card: CardData | null, mode: Mode): Promise<Tokenization> {
    if (mode !== 'sandbox') return { declined: 'acquirer_unavailable' };
    const outcome = card ? (DECLINES[card.number] ?? 'approve') : 'approve';
    return { token: `sim_${outcome}_${Math.random().toString(36).slice(2, 12)}` };
  }

  /**
   * Deduplicated by `idempotency_key` as a real acquirer does: the same key (even while the first
   * call is still running) answers the first answer and performs nothing; the same key with other
   * parameters is a caller bug and throws. The memory is this process's and bounded: the answer is
   * a function of the token and mode alone, so a replica, a restarted process or a forgotten key
   * answers the same, and there is no money at the simulator that a second "performance" could
   * move. Only the counts (what tests read) are per process.
   */
  authorize(request: AuthorizationRequest): Promise<Authorization> {
    this.counts.calls++;
    const fingerprint = JSON.stringify([request.token, request.amount, request.currency, request.mode]);
    const seen = this.byKey.get(request.idempotency_key);
    if (seen) {
      if (seen.fingerprint !== fingerprint)
        return Promise.reject(new Error(`idempotency key ${request.idempotency_key} reused with other parameters`));
      return seen.answer;
    }
    this.counts.performed++;
    const answer = Promise.resolve(this.decide(request));
    this.byKey.set(request.idempotency_key, { fingerprint, answer });
    if (this.byKey.size > SIMULATED_ACQUIRER_KEYS) this.byKey.delete(this.byKey.keys().next().value as string);
    return answer;
  }

  private decide({ token, mode }: AuthorizationRequest): Authorization {
    if (mode !== 'sandbox') return { approved: false, reason: 'acquirer_unavailable' };
    const match = token ? TOKEN.exec(token) : null;
    if (!match) return { approved: false, reason: 'invalid_card_token' };
    return match[1] === 'approve' ? { approved: true } : { approved: false, reason: match[1] };
  }
}
