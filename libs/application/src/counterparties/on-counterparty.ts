import { counterpartyDecider, notFound, type CounterpartyCommand, type CounterpartyRecord } from '@app/domain';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException, handleCommand, type CommandContext } from '../command-handling';
import { orgOnly } from './counterparty-scope';
import { counterpartyStream, isCounterpartyId } from './streams';

/** A command on an existing counterparty: ids from a URL are checked before they name a stream. */
export async function onCounterparty(
  store: EventStore,
  context: CommandContext,
  id: string,
  command: CounterpartyCommand,
): Promise<CounterpartyRecord> {
  if (!isCounterpartyId(id)) throw new DomainException(notFound('counterparty', id));
  const { state } = await handleCommand(store, counterpartyStream(id), counterpartyDecider, command, orgOnly(context));
  return state as CounterpartyRecord;
}
