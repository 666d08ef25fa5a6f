import { Inject, Injectable, Optional, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { transferMigrationDecider, transferReferenceDecider, type TransferReferenceEvent } from '@app/domain/transfers';
import { CHECKPOINT_STORE, type CheckpointStore } from '@app/platform/coordination/checkpoint-store.port';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '@app/platform/event-store/event-store.port';
import { logger } from '@app/platform/logging/logger';
import { clockOf, foldStream, handleCommand, reactionContext } from '../command-handling';
import { finishLegacyTransfer } from './legacy-reservations';
import { transferStreamFor } from './streams';

/** How far the log was read for older logs' reservations (a checkpoint: it only moves forward). */
export const LEGACY_MIGRATION_CHECKPOINT = 'migration:legacy-transfer-references';
const PAGE = 1_000;

/**
 * Brings an older log's transfer references to the current shape, once (issue 26, item 7): each
 * reservation an older version wrote (`transfer-reference-…`) is finished as that version would
 * have (legacy-reservations.ts), and its reference's keyed stream records the transfer it went to
 * (`TransferReferenceMigrated`), so a duplicate request finds it on the keyed stream, the one read
 * every creation makes, and no request reads a reservation stream any more. Reads the log from the
 * checkpoint on, so a start after the first reads only what came since; idempotent, so API
 * replicas starting at once each write nothing the other wrote. Returns the references migrated.
 */
export async function migrateLegacyReferences(store: EventStore, checkpoints?: CheckpointStore): Promise<number> {
  let after = (await checkpoints?.getCheckpoint(LEGACY_MIGRATION_CHECKPOINT)) ?? 0;
  const reservations = new Map<string, RecordedEvent>();
  for (
    let page = await store.readAll({ after, limit: PAGE });
    page.length > 0;
    page = await store.readAll({ after, limit: PAGE })
  ) {
    for (const event of page) if (event.type === 'TransferReferenceReserved') reservations.set(event.streamId, event);
    after = page[page.length - 1].position;
  }
  let migrated = 0;
  for (const [streamId, reserved] of reservations) if (await migrateOne(store, streamId, reserved)) migrated++;
  await checkpoints?.saveCheckpoint(LEGACY_MIGRATION_CHECKPOINT, after);
  return migrated;
}

async function migrateOne(store: EventStore, streamId: string, reserved: RecordedEvent): Promise<boolean> {
  const { state } = await foldStream(store, streamId, transferReferenceDecider);
  if (state.status !== 'reserved') return false; // released: its id was voided, the reference is free
  const context = reactionContext(reserved, 'legacy-migration');
  const transfer = await finishLegacyTransfer(store, state.intent, context);
  if (!transfer) return false;
  const { account_id, unique_reference } = (
    reserved.data as Extract<TransferReferenceEvent, { type: 'TransferReferenceReserved' }>['data']
  ).intent;
  const command = { transfer_id: transfer.id, account_id, unique_reference, now: clockOf(store).now() };
  const { newEvents } = await handleCommand(
    store,
    transferStreamFor(account_id, unique_reference),
    transferMigrationDecider,
    command,
    context,
    { entityId: transfer.entity_id },
  );
  return newEvents.length > 0;
}

/**
 * The API migrates before it serves (Nest runs bootstrap hooks before it listens). A log that cannot
 * be read at start (EventStoreDB unreachable) must not keep the API from starting, where its probes
 * say what is wrong: the migration is then retried with a backoff, and until it has run the
 * readiness probe's event store check is down (`done`), so no traffic reaches an unmigrated API.
 */
@Injectable()
export class LegacyReferenceMigration implements OnApplicationBootstrap, OnApplicationShutdown {
  private finished = false;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Optional() @Inject(CHECKPOINT_STORE) private readonly checkpoints?: CheckpointStore,
  ) {}

  get done(): boolean {
    return this.finished;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.attempt(1_000);
  }

  onApplicationShutdown(): void {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
  }

  private async attempt(retryMs: number): Promise<void> {
    try {
      const migrated = await migrateLegacyReferences(this.store, this.checkpoints);
      this.finished = true;
      if (migrated) logger.info({ migrated }, 'older log: transfer references moved to their keyed streams');
    } catch (err) {
      if (this.closed) return;
      logger.warn(
        { err, retry_in_ms: retryMs },
        'older log: could not be read to migrate it; retrying (not ready until it has run)',
      );
      this.retry = setTimeout(() => void this.attempt(Math.min(retryMs * 2, 30_000)), retryMs);
      this.retry.unref();
    }
  }
}
