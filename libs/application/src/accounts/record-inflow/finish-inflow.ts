import { accountDecider } from '@app/domain/accounts';
import {
  inflowReferenceDecider,
  type InflowReferenceState,
  type RecordedInflow,
} from '@app/domain/accounts/inflow-reference/inflow-reference';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { handleCommand, type CommandContext } from '../../command-handling';
import { accountStream } from '../streams';
import { inflowCreditReader } from './inflow-credit-reader';
import { inflowReferenceStream } from './inflow-streams';

/** Every credit on one account contends for its stream; enough retries that a burst all lands. */
const MONEY_ATTEMPTS = 200;

/**
 * Drives a reserved inflow to its credit, once: the request that reserved it, a duplicate arriving
 * meanwhile and a retry after a crash may all run this. The account command is built per attempt
 * from the log read after the fold (`already_credited`), and the append carries the fold's
 * revision, so two drivers never both credit. The credit is then noted on the reservation, so a
 * later duplicate reads that stream only. `now`: the caller's clock.
 */
export async function finishInflow(
  store: EventStore,
  context: CommandContext,
  reservation: Exclude<InflowReferenceState, { status: 'free' }>,
  now: number,
): Promise<RecordedInflow> {
  if (reservation.status === 'recorded') return reservation.recorded;
  const { inflow } = reservation;
  const credit = inflowCreditReader(store, inflow.account_id, inflow.transaction_id, reservation.account_revision + 1);
  await handleCommand(
    store,
    accountStream(inflow.account_id),
    accountDecider,
    async () => ({ type: 'RecordInflow' as const, ...inflow, already_credited: (await credit()) !== null, now }),
    context,
    {
      maxAttempts: MONEY_ATTEMPTS,
    },
  );
  const landed = await credit();
  if (!landed)
    throw new Error(`inflow ${inflow.transaction_id} not found on account ${inflow.account_id} after crediting it`);
  const { revision, balance_after, funded } = landed;
  const mark = {
    type: 'MarkInflowRecorded' as const,
    transaction_id: inflow.transaction_id,
    revision,
    balance_after,
    funded,
  };
  await handleCommand(
    store,
    inflowReferenceStream(inflow.account_id, inflow.reference),
    inflowReferenceDecider,
    mark,
    context,
  );
  return { ...inflow, revision, balance_after, funded };
}
