import { money } from '../dom';
import type { CardTransaction } from '../types';

/**
 * Who decided a card transaction (decisions §16): the platform alone, the entity's endpoint, or
 * the card's fallback when the endpoint gave no valid answer; what was approved (a partial
 * approval's amount is the transaction's) and how the endpoint answered. Transactions older than
 * §16 carry no `authorization`: the platform decided them.
 */
export function decidedBy(t: CardTransaction): string {
  const a = t.authorization ?? { source: 'platform', endpoint_status: null, latency_ms: null, reason: null };
  const verdict = t.status === 'declined' ? 'declined' : `approved ${money(t.amount, t.currency)}`;
  const call = [
    a.endpoint_status === null ? null : `HTTP ${a.endpoint_status}`,
    a.latency_ms === null ? null : `${a.latency_ms} ms`,
  ].filter((part) => part !== null);
  return `${a.source}: ${verdict}${call.length ? ` (${call.join(', ')})` : ''}`;
}
