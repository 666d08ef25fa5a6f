import { specFor } from '../../shared/testing/given-when-then';
import type { TransferEvent, TransferIntent, TransferRecord, TransferStatus } from './transfer.events';
import { transferDecider, type AdvanceTarget, type TransferCommand } from './transfer.decide';

const spec = specFor(transferDecider);
const T = 1_700_000_000_000;
const intent: TransferIntent = {
  id: 'trf_01J00000000000000000000000',
  account_id: 'acc_01J00000000000000000000000',
  entity_id: 'ent_01J00000000000000000000000',
  counterparty_id: 'cpt_01J00000000000000000000000',
  payment_detail_id: 'pmd_01J00000000000000000000000',
  currency: 'USD',
  amount: 10_000,
  fee: 25,
  payment_type: 'bank-transfer',
  description: 'Invoice 42',
  unique_reference: 'inv-42',
  metadata: { order: '42' },
  created: T,
  destination_account_id: null,
};
const record = (status: TransferStatus, status_reason: string | null = null, updated = T): TransferRecord => {
  const { destination_account_id: _d, ...fields } = intent;
  return { ...fields, status, status_reason, updated };
};
const created: TransferEvent = {
  type: 'TransferCreated',
  data: { transfer: record('pending'), destination_account_id: null },
};
const processing: TransferEvent = { type: 'TransferProcessing', data: { transfer: record('processing') } };
const succeeded: TransferEvent = { type: 'TransferSucceeded', data: { transfer: record('successful') } };
const failed: TransferEvent = { type: 'TransferFailed', data: { transfer: record('failed', 'processing_error') } };
const reversed: TransferEvent = { type: 'TransferReversed', data: { transfer: record('reversed') } };

const create = (over: Partial<TransferIntent> = {}): TransferCommand => ({
  type: 'CreateTransfer',
  intent: { ...intent, ...over },
  now: T,
});
const advance = (to: AdvanceTarget, status_reason?: string): TransferCommand => ({
  type: 'AdvanceTransfer',
  transfer_id: intent.id,
  to,
  status_reason,
  now: T + 9,
});
const cancel = (reason: string | null = null, entity_id = intent.entity_id): TransferCommand => ({
  type: 'CancelTransfer',
  transfer_id: intent.id,
  entity_id,
  reason,
  now: T + 9,
});
const cancelled: TransferEvent = {
  type: 'TransferCancelled',
  data: { transfer: record('cancelled', 'cancelled_by_request', T + 9) },
};
const voidIt: TransferCommand = {
  type: 'VoidTransfer',
  transfer_id: intent.id,
  account_id: intent.account_id,
  reason: 'insufficient_funds',
  now: T,
};

describe('transfer decider', () => {
  describe('no transfer yet', () => {
    it('creates it pending, with every field of decisions §6', () => spec([]).when(create()).then([created]));

    it("records a book transfer's destination and the revision it was checked on beside the transfer, not in it", () =>
      spec([])
        .when(create({ payment_type: 'book-transfer', destination_account_id: 'acc_dest', destination_revision: 7 }))
        .then([
          {
            type: 'TransferCreated',
            data: {
              transfer: { ...record('pending'), payment_type: 'book-transfer' },
              destination_account_id: 'acc_dest',
              destination_revision: 7,
            },
          },
        ]));

    it('can be voided instead (its hold was refused)', () => {
      spec([])
        .when(voidIt)
        .then([
          {
            type: 'TransferVoided',
            data: { transfer_id: intent.id, account_id: intent.account_id, reason: 'insufficient_funds', voided: T },
          },
        ]);
    });

    it.each<[Partial<TransferIntent>, string]>([
      [{ amount: 0 }, 'amount'],
      [{ amount: 1.5 }, 'amount'],
      [{ fee: -1 }, 'fee'],
      [{ description: 'x'.repeat(101) }, 'description'],
      [{ unique_reference: '' }, 'unique_reference'],
      [{ unique_reference: 'r'.repeat(65) }, 'unique_reference'],
      [{ payment_type: 'book-transfer' }, 'payment_detail_id'],
    ])('refuses %p naming %s', (over, field) => {
      spec([])
        .when(create(over))
        .thenError('validation_error', (e) => expect(e.errors?.[0].field).toBe(field));
    });

    it('cannot be advanced: it does not exist', () =>
      spec([]).when(advance('processing')).thenError('transfer_not_found'));
  });

  describe('pending', () => {
    it('treats creating it again as done, and cannot be voided any more', () => {
      spec([created]).when(create()).then([]);
      spec([created]).when(voidIt).then([]);
    });

    it('on its stream, a second transfer of the same reference is not created, and another id is not this transfer', () => {
      spec([created])
        .when(create({ id: 'trf_other', amount: 1 }))
        .then([]);
      spec([created])
        .when({ type: 'AdvanceTransfer', transfer_id: 'trf_other', to: 'processing', now: T })
        .thenError('transfer_not_found');
    });

    it('moves to processing', () =>
      spec([created])
        .when(advance('processing'))
        .then([{ type: 'TransferProcessing', data: { transfer: record('processing', null, T + 9) } }]));

    it('may fail before execution, with the reason given', () => {
      spec([created])
        .when(advance('failed', 'compliance_hold'))
        .then([{ type: 'TransferFailed', data: { transfer: record('failed', 'compliance_hold', T + 9) } }]);
    });

    it.each<AdvanceTarget>(['successful', 'reversed'])('refuses %s with 409 invalid_transition', (to) => {
      spec([created])
        .when(advance(to))
        .thenError('invalid_transition', (e) => {
          expect(e.kind).toBe('conflict');
          expect(e.details).toEqual({ current_status: 'pending', allowed: ['processing', 'failed', 'cancelled'] });
        });
    });
  });

  describe('processing', () => {
    it('succeeds', () =>
      spec([created, processing])
        .when(advance('successful'))
        .then([{ type: 'TransferSucceeded', data: { transfer: record('successful', null, T + 9) } }]));
    it('fails with processing_error when no reason is given', () => {
      spec([created, processing])
        .when(advance('failed'))
        .then([{ type: 'TransferFailed', data: { transfer: record('failed', 'processing_error', T + 9) } }]);
    });
    it('refuses a reason that is not snake_case', () =>
      spec([created, processing]).when(advance('failed', 'Bad Reason')).thenError('validation_error'));
    it.each<AdvanceTarget>(['processing', 'reversed'])('refuses %s', (to) =>
      spec([created, processing]).when(advance(to)).thenError('invalid_transition'),
    );
  });

  describe('successful', () => {
    it('can be reversed, keeping the reason given', () => {
      spec([created, processing, succeeded])
        .when(advance('reversed', 'returned_by_bank'))
        .then([{ type: 'TransferReversed', data: { transfer: record('reversed', 'returned_by_bank', T + 9) } }]);
    });
    it.each<AdvanceTarget>(['processing', 'successful', 'failed'])('refuses %s', (to) =>
      spec([created, processing, succeeded]).when(advance(to)).thenError('invalid_transition'),
    );
  });

  describe('successful book transfer', () => {
    it('cannot be reversed: the destination already holds the money', () => {
      const book: TransferEvent = {
        type: 'TransferCreated',
        data: { transfer: { ...record('pending'), payment_type: 'book-transfer' }, destination_account_id: 'acc_dest' },
      };
      spec([book, processing, succeeded])
        .when(advance('reversed'))
        .thenError('book_transfer_not_reversible', (e) => expect(e.kind).toBe('conflict'));
    });
  });

  describe.each([
    ['failed', [created, processing, failed]],
    ['reversed', [created, processing, succeeded, reversed]],
  ] as const)('%s (final)', (_, given) => {
    it.each<AdvanceTarget>(['processing', 'successful', 'failed', 'reversed'])('refuses %s', (to) =>
      spec(given).when(advance(to)).thenError('invalid_transition'),
    );
  });

  describe('cancel (decisions §14)', () => {
    it('takes back a pending payout, with the default reason', () => spec([created]).when(cancel()).then([cancelled]));

    it("keeps the customer's reason as given (free text, 1-100 characters)", () => {
      spec([created])
        .when(cancel('Wrong amount, sorry'))
        .then([{ type: 'TransferCancelled', data: { transfer: record('cancelled', 'Wrong amount, sorry', T + 9) } }]);
      spec([created]).when(cancel('')).thenError('validation_error');
      spec([created])
        .when(cancel('x'.repeat(101)))
        .thenError('validation_error');
    });

    it("does not find another entity's transfer, nor one that does not exist", () => {
      spec([created]).when(cancel(null, 'ent_01J99999999999999999999999')).thenError('transfer_not_found');
      spec([]).when(cancel()).thenError('transfer_not_found');
    });

    it.each([
      ['processing', [created, processing]],
      ['successful', [created, processing, succeeded]],
      ['failed', [created, processing, failed]],
      ['reversed', [created, processing, succeeded, reversed]],
      ['cancelled', [created, cancelled]],
    ] as const)('refuses a %s transfer with 409 invalid_state, appending nothing', (status, given) => {
      spec(given)
        .when(cancel())
        .thenError('invalid_state', (e) => {
          expect(e.kind).toBe('conflict');
          expect(e.details).toEqual({ current_status: status });
        });
    });

    it('refuses a book transfer even while pending: it settles at once', () => {
      const book: TransferEvent = {
        type: 'TransferCreated',
        data: { transfer: { ...record('pending'), payment_type: 'book-transfer' }, destination_account_id: 'acc_dest' },
      };
      spec([book]).when(cancel()).thenError('invalid_state');
      spec([book]).when(advance('cancelled')).thenError('book_transfer_not_cancellable');
    });

    it("is the operator's move to cancelled too, with its code or the default", () => {
      spec([created]).when(advance('cancelled')).then([cancelled]);
      spec([created])
        .when(advance('cancelled', 'sanctions_match'))
        .then([{ type: 'TransferCancelled', data: { transfer: record('cancelled', 'sanctions_match', T + 9) } }]);
    });

    it('loses to the rail once it is processing, and the rail loses to it once cancelled (final)', () => {
      spec([created, processing]).when(advance('cancelled')).thenError('invalid_transition');
      for (const to of ['processing', 'successful', 'failed', 'reversed'] as const)
        spec([created, cancelled]).when(advance(to)).thenError('invalid_transition');
    });
  });

  describe('voided', () => {
    const given: TransferEvent[] = [
      {
        type: 'TransferVoided',
        data: { transfer_id: intent.id, account_id: intent.account_id, reason: 'insufficient_funds', voided: T },
      },
    ];
    it('can never be created, and does not exist for the lifecycle', () => {
      spec(given).when(create()).thenError('transfer_voided');
      spec(given).when(advance('processing')).thenError('transfer_not_found');
    });
  });
});

describe('fee schedule', () => {
  const { transferFee, feeScheduleFrom, DEFAULT_FEE_SCHEDULE } = jest.requireActual(
    '../payment-types',
  ) as typeof import('../payment-types');
  it('charges basis points of the amount, rounded up to a whole minor unit', () => {
    const schedule = feeScheduleFrom({ 'bank-transfer': 25 });
    expect(transferFee(schedule, 'bank-transfer', 10_000)).toBe(25);
    expect(transferFee(schedule, 'bank-transfer', 1)).toBe(1);
    expect(transferFee(schedule, 'book-transfer', 10_000)).toBe(DEFAULT_FEE_SCHEDULE['book-transfer']);
    expect(transferFee(schedule, 'bank-transfer', Number.MAX_SAFE_INTEGER)).toBe(22_517_998_136_853);
  });
  it('refuses unknown payment types and out-of-range rates', () => {
    expect(() => feeScheduleFrom({ wire: 10 })).toThrow('unknown payment type');
    expect(() => feeScheduleFrom({ 'bank-transfer': 10_001 })).toThrow('0-10000');
  });
});
