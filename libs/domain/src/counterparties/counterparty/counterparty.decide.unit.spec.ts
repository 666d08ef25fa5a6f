import { specFor } from '../../shared/testing/given-when-then';
import type { CounterpartyEvent } from './counterparty.events';
import { counterpartyDecider, type CounterpartyCommand } from './counterparty.decide';

const spec = specFor(counterpartyDecider);
const T0 = 1_700_000_000_000;
const CPT = 'cpt_01J00000000000000000000000';
const ENT = 'ent_01J00000000000000000000000';
const ENT2 = 'ent_01J00000000000000000000001';
const PROFILE = {
  first_name: 'Grace',
  last_name: 'Hopper',
  relationship: null,
  email: null,
  address: null,
  identification: [],
  phone: null,
};

const create = (
  over: Partial<Extract<CounterpartyCommand, { type: 'CreateCounterparty' }>> = {},
): CounterpartyCommand => ({
  type: 'CreateCounterparty',
  counterparty_id: CPT,
  entity_id: ENT,
  counterparty_type: 'individual',
  nickname: null,
  profile: { first_name: 'Grace', last_name: 'Hopper' },
  meta: {},
  now: T0,
  ...over,
});
const created: CounterpartyEvent = {
  type: 'CounterpartyCreated',
  data: {
    counterparty_id: CPT,
    entity_id: ENT,
    type: 'individual',
    nickname: 'Grace Hopper',
    profile: PROFILE,
    meta: {},
    created: T0,
  },
};
const detailAdded: CounterpartyEvent = {
  type: 'PaymentDetailAdded',
  data: {
    payment_detail_id: 'pmd_1',
    counterparty_id: CPT,
    entity_id: ENT,
    payment_method: 'momo-transfer',
    momo: { phone_number: '+254712345678', provider: 'mpesa' },
    currency: 'KES',
    country: 'KE',
    added: T0 + 1,
  },
};
const deactivated: CounterpartyEvent = {
  type: 'CounterpartyDeactivated',
  data: { counterparty_id: CPT, entity_id: ENT, payment_detail_ids: [], deactivated: T0 + 2 },
};
const deactivate = (scope: { entity_id: string; kind: 'token' | 'confirm' } | null = null): CounterpartyCommand => ({
  type: 'DeactivateCounterparty',
  counterparty_id: CPT,
  scope,
  now: T0 + 2,
});
const addMomo = (phone = '+254712345678'): CounterpartyCommand => ({
  type: 'AddPaymentDetail',
  counterparty_id: CPT,
  scope: null,
  payment_detail_id: 'pmd_1',
  book: null,
  now: T0 + 1,
  detail: {
    payment_method: 'momo-transfer',
    currency: 'KES',
    country: 'KE',
    momo: { phone_number: phone, provider: 'mpesa' },
  },
});

describe('counterparty decider', () => {
  describe('no counterparty yet', () => {
    it('creates an active counterparty with the default nickname', () => {
      spec([]).when(create()).then([created]);
      spec([])
        .when(create())
        .thenState((s) => expect(s).toMatchObject({ status: 'active', payment_details: [] }));
    });
    it('defaults a business nickname to its legal name', () => {
      spec([])
        .when(create({ counterparty_type: 'business', profile: { legal_name: 'Acme Ltd' } }))
        .thenState((s) => expect(s).toMatchObject({ nickname: 'Acme Ltd' }));
    });
    it('refuses a profile without its names, and an address without line1', () => {
      spec([])
        .when(create({ profile: { first_name: 'Grace' } }))
        .thenError('validation_error', (e) => expect(e.errors![0].field).toBe('profile.last_name'));
      spec([])
        .when(create({ profile: { first_name: 'G', last_name: 'H', address: { city: 'X', country: 'US' } } }))
        .thenError('validation_error', (e) => expect(e.errors![0].field).toBe('profile.address.line1'));
    });
    it('refuses a nickname over 255 characters', () => {
      spec([])
        .when(create({ nickname: 'n'.repeat(256) }))
        .thenError('validation_error');
    });
    it('answers not found for anything else', () => {
      spec([]).when(deactivate()).thenError('counterparty_not_found');
    });
  });

  describe('active', () => {
    it('deactivates, naming its payment details', () => {
      spec([created, detailAdded])
        .when(deactivate())
        .then([
          {
            type: 'CounterpartyDeactivated',
            data: { counterparty_id: CPT, entity_id: ENT, payment_detail_ids: ['pmd_1'], deactivated: T0 + 2 },
          },
        ]);
    });
    it('refuses another entity: 403 for its token, 404 for an API key naming it', () => {
      spec([created])
        .when(deactivate({ entity_id: ENT2, kind: 'token' }))
        .thenError('forbidden');
      spec([created])
        .when(deactivate({ entity_id: ENT2, kind: 'confirm' }))
        .thenError('counterparty_not_found');
    });
    it('adds a payment detail, and refuses a near-miss phone number', () => {
      spec([created]).when(addMomo()).then([detailAdded]);
      spec([created])
        .when(addMomo('+25471234'))
        .thenError('validation_error', (e) => expect(e.errors![0].field).toBe('momo.phone_number'));
    });
    it('merges a profile patch and records nothing when nothing changes', () => {
      const update = (over: object): CounterpartyCommand => ({
        type: 'UpdateCounterparty',
        counterparty_id: CPT,
        scope: null,
        reassign_to: null,
        now: T0 + 3,
        ...over,
      });
      spec([created])
        .when(update({ profile: { email: 'g@example.com' } }))
        .thenState((s) => expect(s).toMatchObject({ profile: { first_name: 'Grace', email: 'g@example.com' } }));
      spec([created])
        .when(update({ nickname: 'Grace Hopper', profile: { first_name: 'Grace' } }))
        .then([]);
    });
    it('refuses a profile patch of the other type (an individual has no legal_name, no L identification)', () => {
      const update = (profile: Readonly<Record<string, unknown>>): CounterpartyCommand => ({
        type: 'UpdateCounterparty',
        counterparty_id: CPT,
        scope: null,
        reassign_to: null,
        now: T0 + 3,
        profile,
      });
      spec([created])
        .when(update({ legal_name: 'Acme' }))
        .thenError('validation_error', (e) =>
          expect(e.errors).toEqual([
            { field: 'profile.legal_name', message: 'profile.legal_name is not an accepted field' },
          ]),
        );
      spec([created])
        .when(update({ identification: [{ type: 'L', number: '1', issuing_country: 'GB' }] }))
        .thenError('validation_error', (e) => expect(e.errors![0].field).toBe('profile.identification[0].type'));
    });
    it('reassigns to another entity, its details following', () => {
      spec([created, detailAdded])
        .when({ type: 'UpdateCounterparty', counterparty_id: CPT, scope: null, reassign_to: ENT2, now: T0 + 3 })
        .thenState((s, events) => {
          expect(events[0]).toMatchObject({
            type: 'CounterpartyUpdated',
            data: { entity_id: ENT2, previous_entity_id: ENT, changed: ['entity_id'], payment_detail_ids: ['pmd_1'] },
          });
          expect(s).toMatchObject({ entity_id: ENT2, payment_details: [{ entity_id: ENT2 }] });
        });
    });
  });

  describe('inactive', () => {
    it('answers 409 to a second deactivation', () => {
      spec([created, deactivated])
        .when(deactivate())
        .thenError('counterparty_inactive', (e) => expect(e.kind).toBe('conflict'));
    });
    it('refuses new payment details (422)', () => {
      spec([created, deactivated])
        .when(addMomo())
        .thenError('counterparty_inactive', (e) => expect(e.kind).toBe('rule'));
    });
  });
});
