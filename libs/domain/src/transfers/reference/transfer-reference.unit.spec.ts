import { specFor } from '../../shared/testing/given-when-then';
import type { TransferIntent } from '../transfer/transfer.events';
import { transferReferenceDecider, type TransferReferenceEvent } from './transfer-reference';

const spec = specFor(transferReferenceDecider);
const intent = (id: string): TransferIntent => ({
  id,
  account_id: 'acc_1',
  entity_id: 'ent_1',
  counterparty_id: 'cpt_1',
  payment_detail_id: 'pmd_1',
  currency: 'USD',
  amount: 100,
  fee: 1,
  payment_type: 'bank-transfer',
  description: null,
  unique_reference: 'ref-1',
  metadata: {},
  created: 1,
  destination_account_id: null,
});
const reserved = (id: string): TransferReferenceEvent => ({
  type: 'TransferReferenceReserved',
  data: { account_id: 'acc_1', unique_reference: 'ref-1', transfer_id: id, intent: intent(id), reserved: 5 },
});
const released = (id: string): TransferReferenceEvent => ({
  type: 'TransferReferenceReleased',
  data: { account_id: 'acc_1', unique_reference: 'ref-1', transfer_id: id, released: 6 },
});

describe('transfer reference reservation', () => {
  it('reserves a free reference for a transfer id, carrying the whole intent', () => {
    spec([])
      .when({ type: 'ReserveTransferReference', intent: intent('trf_a'), now: 5 })
      .then([reserved('trf_a')]);
  });

  it('appends nothing when the reference is taken, so the caller finds the first id', () => {
    spec([reserved('trf_a')])
      .when({ type: 'ReserveTransferReference', intent: intent('trf_b'), now: 7 })
      .thenState((s, events) => {
        expect(events).toEqual([]);
        expect(s).toMatchObject({ status: 'reserved', transfer_id: 'trf_a' });
      });
  });

  it('releases only the id it holds', () => {
    spec([reserved('trf_a')])
      .when({ type: 'ReleaseTransferReference', transfer_id: 'trf_a', now: 6 })
      .then([released('trf_a')]);
    spec([reserved('trf_a')])
      .when({ type: 'ReleaseTransferReference', transfer_id: 'trf_b', now: 6 })
      .then([]);
    spec([reserved('trf_a'), released('trf_a')])
      .when({ type: 'ReleaseTransferReference', transfer_id: 'trf_a', now: 7 })
      .then([]);
  });

  it('can be reserved again once released', () => {
    spec([reserved('trf_a'), released('trf_a')])
      .when({ type: 'ReserveTransferReference', intent: intent('trf_b'), now: 8 })
      .thenState((s) => expect(s).toMatchObject({ transfer_id: 'trf_b' }));
  });
});
