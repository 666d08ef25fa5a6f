import type { CardEvent, CardStatus, CardType } from '@app/domain/cards';
import { modeOf, type Mode } from '@app/platform/event-store/event-mode';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { Projection } from '@app/platform/read-store/projection';

/** GET /cards: the summary only (last four digits, never the number). */
export interface CardDocument {
  [field: string]: unknown;
  readonly id: string;
  readonly organization_id: string;
  readonly mode: Mode;
  readonly entity_id: string;
  readonly account_id: string;
  readonly name: string;
  readonly type: CardType;
  readonly last_four: string;
  readonly status: CardStatus;
  readonly frozen: boolean;
  readonly fraud: boolean;
  readonly used_up: boolean;
  /** Soft-deleted cards stay in the collection and are filtered out of the list. */
  readonly deleted: boolean;
  readonly created: number;
  readonly updated: number;
}

const statusOf = (d: Pick<CardDocument, 'frozen' | 'fraud' | 'used_up' | 'deleted'>): CardStatus =>
  d.fraud ? 'fraud' : d.frozen || d.used_up || d.deleted ? 'blocked' : 'active';

function apply(current: CardDocument, event: Exclude<CardEvent, { type: 'CardIssued' }>): CardDocument {
  const flags: { -readonly [K in keyof CardDocument]?: CardDocument[K] } = {};
  if (event.type === 'CardFrozen') flags.frozen = true;
  if (event.type === 'CardUnfrozen') flags.frozen = false;
  if (event.type === 'CardMarkedFraud') flags.fraud = true;
  if (event.type === 'CardUsedUp') flags.used_up = true;
  if (event.type === 'CardDeleted') flags.deleted = true;
  if (event.type === 'CardReassigned') flags.account_id = event.data.account_id;
  const next = { ...current, ...flags, updated: (event.data as { at: number }).at };
  return { ...next, status: statusOf(next) };
}

export const cardProjection: Projection<CardDocument> = {
  name: 'cards',
  collection: 'cards',
  // Every filter its list offers, with organization and mode first (see read-index.ts).
  indexes: [
    ['organization_id', 'mode', 'deleted', 'entity_id'],
    ['organization_id', 'mode', 'deleted', 'account_id'],
  ],
  handles: [
    'CardIssued',
    'CardFrozen',
    'CardUnfrozen',
    'CardMarkedFraud',
    'CardDeleted',
    'CardUsedUp',
    'CardReassigned',
  ],
  documentIds: (event) => [String(event.data.card_id)],
  evolve(current, recorded: RecordedEvent) {
    const event = recorded as unknown as CardEvent;
    if (event.type !== 'CardIssued')
      return current ? apply(current, event as Exclude<CardEvent, { type: 'CardIssued' }>) : current;
    const c = event.data;
    const base = { frozen: false, fraud: false, used_up: false, deleted: false };
    return {
      id: c.card_id,
      organization_id: recorded.metadata.organization_id,
      mode: modeOf(recorded.metadata),
      entity_id: c.entity_id,
      account_id: c.account_id,
      name: c.name,
      type: c.type,
      last_four: c.last_four,
      ...base,
      status: 'active',
      created: c.issued,
      updated: c.issued,
    };
  },
};
