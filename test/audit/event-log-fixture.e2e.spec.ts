import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Decider } from '@app/domain';
import { apiKeyDecider } from '@app/domain/access/api-key/api-key.decide';
import { accountDecider } from '@app/domain/accounts/account/account.decide';
import { cardDecider } from '@app/domain/cards/card/card.decide';
import { intentActionDecider } from '@app/domain/collections/intent-action/intent-action.decide';
import { paymentIntentDecider } from '@app/domain/collections/payment-intent/payment-intent.decide';
import { counterpartyDecider } from '@app/domain/counterparties/counterparty/counterparty.decide';
import { entityDecider } from '@app/domain/onboarding/entity/entity.decide';
import { transferDecider } from '@app/domain/transfers/transfer/transfer.decide';
import { webhookDecider } from '@app/domain/webhooks/webhook/webhook.decide';
import { resourceOf } from '@app/application/admin/list-organization-events/public-event';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { ChainChecker } from '@app/platform/event-store/hash-chain/chain-upcast';
import { canonicalJson } from '@app/platform/event-store/hash-chain/event-hash';
import { upcast } from '@app/platform/event-store/upcasters';
import { READ_MODELS } from '@app/read-models/read-models';
import { project, type ScratchStore } from '../../apps/replay/src/log-pass';
import { startTestApp } from '../support/test-app';
import { auditWorkload } from './audit-workload';

/**
 * A log written by the code of its day (v1) must fold to the same states forever: every resource
 * stream through its decider and the whole log through every projection, after the upcasters.
 * A change that alters a folded state either keeps old events readable with an upcaster or is a
 * deliberate break. `WRITE_EVENT_LOG_FIXTURE=1` writes the files once (never to make this pass).
 */
const FIXTURE = join(__dirname, '..', 'fixtures', 'event-log-v1.jsonl');
const EXPECTED = join(__dirname, '..', 'fixtures', 'event-log-v1.folded.json');

const DECIDERS: Record<string, Pick<Decider<unknown, never, unknown>, 'evolve' | 'initialState'>> = {
  entity: entityDecider,
  account: accountDecider,
  counterparty: counterpartyDecider,
  transfer: transferDecider,
  payment_intent: paymentIntentDecider,
  intent_action: intentActionDecider,
  card: cardDecider,
  webhook: webhookDecider,
  api_key: apiKeyDecider,
} as never;

function fold(events: RecordedEvent[]) {
  const streams: Record<string, unknown> = {};
  const scratch: ScratchStore = new Map();
  for (const stored of events) {
    const event = upcast(stored);
    const resource = resourceOf(event.streamId);
    if (resource) {
      const decider = DECIDERS[resource.resource.type];
      streams[event.streamId] = decider.evolve(streams[event.streamId] ?? decider.initialState, event as never);
    }
    project(scratch, READ_MODELS, event);
  }
  const readModels = Object.fromEntries([...scratch].map(([name, docs]) => [name, Object.fromEntries(docs)]));
  return JSON.parse(canonicalJson({ streams, read_models: readModels }));
}

const readFixture = (): RecordedEvent[] =>
  readFileSync(FIXTURE, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as RecordedEvent);

async function writeFixture(): Promise<void> {
  const t = await startTestApp();
  await auditWorkload(t);
  await t.app.close();
  const db = new Database(join(t.dataDir, 'events.db'), { readonly: true });
  const rows = db.prepare('SELECT * FROM events ORDER BY position').all() as Array<Record<string, string | number>>;
  db.close();
  const events = rows.map((r) => ({
    id: r.event_id,
    streamId: r.stream_id,
    type: r.type,
    data: JSON.parse(String(r.data)),
    metadata: JSON.parse(String(r.metadata)),
    revision: r.revision,
    position: r.position,
  }));
  writeFileSync(FIXTURE, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  writeFileSync(EXPECTED, JSON.stringify(fold(events as RecordedEvent[]), null, 1) + '\n');
  await t.close();
}

describe('the v1 event log fixture', () => {
  beforeAll(async () => {
    if (process.env.WRITE_EVENT_LOG_FIXTURE === '1' && !existsSync(FIXTURE)) await writeFixture();
  });

  it("folds, through today's upcasters, deciders and projections, to the checked-in states", () => {
    const events = readFixture();
    expect(events.length).toBeGreaterThan(30);
    expect(fold(events)).toEqual(JSON.parse(readFileSync(EXPECTED, 'utf8')));
  });

  it('carries whole hash chains', () => {
    const checkers = new Map<string, ChainChecker>();
    const breaks = readFixture().map((e) =>
      (checkers.get(e.streamId) ?? checkers.set(e.streamId, new ChainChecker(e.streamId)).get(e.streamId)!).check(e),
    );
    expect(breaks.filter(Boolean)).toEqual([]);
  });
});
