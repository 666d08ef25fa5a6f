import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { indexesOf } from '@app/platform/read-store/read-index';
import { MongoClient } from 'mongodb';
import { MongoReadStore } from '@app/platform/read-store/mongo-read-store';
import { SqliteReadStore } from '@app/platform/read-store/sqlite-read-store';
import { READ_MODELS } from '../read-models';
import { issuedFinds, type IssuedFind } from './list-queries';

/**
 * Issue 14: no list query scans a collection. Every list query of the API, with every filter
 * combination its controller can send and every cursor, goes through its real handler; SQLite's
 * plan for the `find` it issues must search one of the collection's declared indexes (never the
 * table, never the primary key's whole-collection range) and never sort the rows in a temp b-tree.
 */
describe('list query plans (SQLite)', () => {
  let dir: string;
  let store: SqliteReadStore;
  let finds: IssuedFind[];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plans-'));
    store = new SqliteReadStore(join(dir, 'read-models.db'));
    await store.ensureIndexes(indexesOf(READ_MODELS));
    finds = await issuedFinds();
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('covers every list (and hundreds of filter combinations)', () => {
    const lists = new Set(finds.map((f) => f.list));
    expect([...lists].sort()).toEqual(
      [
        'accounts',
        'api keys',
        'card transactions',
        'cards',
        'counterparties',
        'entities',
        'events',
        'intent actions',
        'payment details',
        'payment intents',
        'statement',
        'transfers',
        'webhooks',
      ].sort(),
    );
    expect(finds.length).toBeGreaterThan(500);
  });

  it('every find searches a declared index of its collection, and none scans or sorts', () => {
    const bad: string[] = [];
    for (const { list, collection, query } of finds) {
      const plan = store.explainFind(collection, query);
      const searchesIndex = plan.some((step) => step.startsWith(`SEARCH documents USING INDEX cx:${collection}:`));
      const scansOrSorts = plan.some((step) => /^SCAN|TEMP B-TREE|PRIMARY KEY/.test(step));
      if (!searchesIndex || scansOrSorts) bad.push(`${list} ${JSON.stringify(query)}: ${plan.join(' | ')}`);
    }
    expect(bad).toEqual([]);
  });

  it('the check fails on a collection without its indexes (so the test can fail)', async () => {
    await store.ensureIndexes([]);
    const { collection, query } = finds.find((f) => f.list === 'transfers')!;
    expect(store.explainFind(collection, query).join(' ')).not.toMatch(/USING INDEX cx:/);
    await store.ensureIndexes(indexesOf(READ_MODELS));
  });
});

const mongoUrl = process.env.MONGO_URL;
// mongo-java-server (what `npm run test:integration` starts) has no `explain` command.
const mongoExplains = process.env.MONGO_SERVER !== 'mongo-java-server';

if (mongoUrl) {
  describe('list query plans (MongoDB)', () => {
    const database = `plans_${Date.now().toString(36)}`;
    let store: MongoReadStore;
    beforeAll(async () => {
      store = new MongoReadStore(mongoUrl, database);
      await store.ensureIndexes(indexesOf(READ_MODELS));
    });
    afterAll(() => store.close());

    it('drops the indexes the previous version created on first use of a filter', async () => {
      await store.ensureIndexes([]);
      const legacy = new MongoClient(mongoUrl);
      await legacy.db(database).collection('transfers').createIndex({ deleted: 1, 'body.organization_id': 1, _id: -1 });
      await legacy.close();
      await store.ensureIndexes(indexesOf(READ_MODELS));
      expect((await store.indexNames('transfers')).filter((n) => n.startsWith('deleted_1_'))).toEqual([]);
    });

    it('creates every declared index at startup: deleted, the fields, then _id descending', async () => {
      for (const { collection, indexes } of indexesOf(READ_MODELS)) {
        const names = (await store.indexNames(collection)).sort();
        expect(names).toEqual([...indexes.map((f) => `ix:${f.join(',')}`), '_id_', 'tombstones'].sort());
      }
    });

    if (mongoExplains) {
      it('every find walks a declared index (IXSCAN on an ix: index), never a COLLSCAN', async () => {
        const bad: string[] = [];
        for (const { list, collection, query } of await issuedFinds()) {
          const stages = planStages(await store.explainFind(collection, query));
          const ok =
            stages.some((s) => s.stage === 'IXSCAN' && String(s.indexName).startsWith('ix:')) &&
            !stages.some((s) => s.stage === 'COLLSCAN');
          if (!ok)
            bad.push(
              `${list} ${JSON.stringify(query)}: ${stages.map((s) => `${s.stage}(${s.indexName ?? ''})`).join(' ')}`,
            );
        }
        expect(bad).toEqual([]);
      });
    } else {
      console.warn(
        'list query plans (MongoDB): the explain check needs a real MongoDB; mongo-java-server has no explain command. Index creation is still checked.',
      );
    }
  });
} else {
  console.warn('list query plans (MongoDB): not run: MONGO_URL is not set (npm run test:integration sets it)');
}

/** Every stage of the winning plan, whichever explain format the server answers in. */
function planStages(explain: Record<string, unknown>): { stage: string; indexName?: string }[] {
  const planner = explain.queryPlanner as { winningPlan: Record<string, unknown> };
  const found: { stage: string; indexName?: string }[] = [];
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (typeof n.stage === 'string') found.push({ stage: n.stage, indexName: n.indexName as string | undefined });
    for (const value of Object.values(n)) (Array.isArray(value) ? value : [value]).forEach(walk);
  };
  walk(planner.winningPlan);
  return found;
}
