import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accountDecider, newServiceBan } from '@app/domain/accounts';
import { seededRandom } from '@app/domain/accounts/testing/fixed-random';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { processFolds, withFolds } from '@app/platform/folds/stream-folds';
import { handleCommand, systemActor, type CommandContext } from '../command-handling';
import { accountStream } from '../accounts/streams';

/** The system actor of the sandbox test organization, for specs that drive handlers directly. */
export const TEST_CONTEXT: CommandContext = {
  actor: systemActor('org_test', 'test', 'sandbox'),
  correlationId: 'c',
  causationId: 'c',
};

/** A real SQLite event store in a fresh temporary directory, with a process's folds (cache, queues), and how to remove it. */
export function storeOnDisk(prefix: string): { store: SqliteEventStore; dispose: () => Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const store = withFolds(new SqliteEventStore(join(dir, 'events.db')), processFolds());
  return {
    store,
    dispose: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Opens a USD checking account of the approved entity `ent_1` (service ban from `seed`). */
export async function openUsdAccount(
  store: SqliteEventStore,
  accountId: string,
  seed: number,
  context: CommandContext = TEST_CONTEXT,
): Promise<void> {
  const open = {
    type: 'OpenAccount' as const,
    account_id: accountId,
    entity: { id: 'ent_1', status: 'approved' },
    mode: 'sandbox' as const,
    account_type: 'checking',
    currency: 'USD',
    display_name: 'Ops',
    service_ban: newServiceBan(seededRandom(seed)),
    now: 1,
  };
  await handleCommand(store, accountStream(accountId), accountDecider, open, context, { entityId: 'ent_1' });
}
