import { createEventStore, createReadStore } from '@app/platform/adapters';
import { loadConfig } from '@app/platform/config/platform-config';
import { READ_MODELS } from '@app/read-models/read-models';
import { runReplay } from '../../apps/replay/src/replay';
import { KEYS, bearer, type TestApp } from '../support/test-app';

export interface Figures {
  debits_posted: number;
  credits_posted: number;
  debits_pending: number;
  credits_pending: number;
}
export interface Ledger {
  currencies: Array<Figures & { currency: string }>;
  accounts: Array<Figures & { id: string }>;
}

export const cancel = (t: TestApp, id: string, body: Record<string, unknown>, key: string = KEYS.sandbox) =>
  t.http.post(`/transfers/${id}/cancel`).set(bearer(key)).send(body);

/** The organization's book once the read models hold every event appended so far. */
export async function ledgerOf(t: TestApp, key: string = KEYS.sandbox): Promise<Ledger> {
  await t.settle();
  return (await t.http.get('/ledger').set(bearer(key)).expect(200)).body.data;
}

export const ledgerAccount = (l: Ledger, id: string): Figures =>
  l.accounts.find((a) => a.id === id) ?? { debits_posted: 0, credits_posted: 0, debits_pending: 0, credits_pending: 0 };

/** Every currency's debits equal its credits, posted and pending alike. */
export const balanced = (l: Ledger) =>
  l.currencies.every((c) => c.debits_posted === c.credits_posted && c.debits_pending === c.credits_pending);

export async function historyTypes(t: TestApp, id: string, key: string = KEYS.sandbox): Promise<string[]> {
  const res = await t.http.get(`/transfers/${id}/history`).set(bearer(key)).expect(200);
  return (res.body.data as Array<{ type: string }>).map((e) => e.type);
}

/** `npm run replay -- --verify` in-process on a closed app's DATA_DIR: its exit status and output. */
export async function replayVerify(dataDir: string) {
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    EVENTSTORE_URL: '',
    MONGO_URL: '',
    KAFKA_BROKERS: '',
  });
  const [events, readModels] = [createEventStore(config), createReadStore(config)];
  const lines: string[] = [];
  try {
    const status = await runReplay(
      { events, readModels, projections: READ_MODELS, out: (l) => lines.push(l) },
      { verify: true, rebuild: false },
    );
    return { status, output: lines.join('\n') };
  } finally {
    await Promise.all([events.close(), readModels.close()]);
  }
}
