import type { AccountReservationEvent } from '@app/domain/accounts';
import { WrongExpectedRevisionError, type EventStore } from '@app/platform/event-store/event-store.port';
import { retry } from '@app/platform/retry/retry';
import { toAppend, type CommandContext } from '../command-handling';

export const MAX_RESERVATION_DRAWS = 25;

/**
 * Draws values until one can be claimed: its reservation stream is appended with "no stream"
 * expected, so a value another writer already holds fails the append and another is drawn.
 */
export async function reserveUnique(
  store: EventStore,
  context: CommandContext,
  entityId: string,
  draw: () => string,
  reservation: (value: string) => { stream: string; event: AccountReservationEvent },
): Promise<string> {
  const claim = async () => {
    const value = draw();
    const { stream, event } = reservation(value);
    await store.append(stream, [toAppend(event, context, entityId)], 'no_stream');
    return value;
  };
  return retry(claim, { attempts: MAX_RESERVATION_DRAWS, retryOn: taken }).catch((error: unknown) => {
    // Only reachable if the number space is nearly exhausted or the random source is broken.
    throw taken(error) ? new Error(`no free value after ${MAX_RESERVATION_DRAWS} draws`) : error;
  });
}

const taken = (error: unknown) => error instanceof WrongExpectedRevisionError;
