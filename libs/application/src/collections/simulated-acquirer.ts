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

/**
 * The sandbox acquirer. It keeps no vault: its token names the outcome its test card scripts
 * (never the card), so any replica can authorize it later. It takes no live money: live intents
 * go through the same path and are refused with `acquirer_unavailable` until a real adapter exists.
 */
@Injectable()
export class SimulatedAcquirer implements Acquirer {
  async tokenize(card: CardData | null, mode: Mode): Promise<Tokenization> {
    if (mode !== 'sandbox') return { declined: 'acquirer_unavailable' };
    const outcome = card ? (DECLINES[card.number] ?? 'approve') : 'approve';
    return { token: `sim_${outcome}_${Math.random().toString(36).slice(2, 12)}` };
  }

  async authorize({ token, mode }: AuthorizationRequest): Promise<Authorization> {
    if (mode !== 'sandbox') return { approved: false, reason: 'acquirer_unavailable' };
    const match = token ? TOKEN.exec(token) : null;
    if (!match) return { approved: false, reason: 'invalid_card_token' };
    return match[1] === 'approve' ? { approved: true } : { approved: false, reason: match[1] };
  }
}
