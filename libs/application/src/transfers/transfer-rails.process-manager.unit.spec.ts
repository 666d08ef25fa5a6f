import type { CommandBus } from '@nestjs/cqrs';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { transferRailsManager } from './transfer-rails.process-manager';

const created = (mode: 'sandbox' | 'live') =>
  ({
    id: 'evt_1',
    streamId: 'transfer-trf_1',
    type: 'TransferCreated',
    data: { transfer: { id: 'trf_1', payment_type: 'bank-transfer', updated: 0 } },
    metadata: { organization_id: 'org_a', correlation_id: 'req_1', mode },
    revision: 0,
    position: 10,
  }) as unknown as RecordedEvent;

describe('the simulated transfer network (a sandbox simulator)', () => {
  const signal = new AbortController().signal;

  it('moves a sandbox transfer, acting in its mode', async () => {
    const execute = jest.fn().mockResolvedValue(undefined);
    await transferRailsManager({ execute } as unknown as CommandBus, 0).handle(created('sandbox'), signal);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(execute.mock.calls[0][0]).toMatchObject({
      transferId: 'trf_1',
      to: 'processing',
      context: { actor: { mode: 'sandbox' } },
    });
  });

  it('never moves a live transfer: the operator does', async () => {
    const execute = jest.fn();
    await transferRailsManager({ execute } as unknown as CommandBus, 0).handle(created('live'), signal);
    expect(execute).not.toHaveBeenCalled();
  });
});
