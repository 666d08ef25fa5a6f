import { specFor } from '../../shared/testing/given-when-then';
import { entityDecider, type EntityCommand } from './entity.decide';
import type { DocumentRecord, EntityEvent } from './entity.events';

const spec = specFor(entityDecider);
const ID = 'ent_01J0000000000000000000000A';
const PERSON = 'per_01J0000000000000000000000A';
const T0 = 1_700_000_000_000;

const individual = (last_name = 'Okafor'): EntityEvent => ({
  type: 'EntityCreated',
  data: {
    entity_id: ID,
    type: 'individual',
    person_id: PERSON,
    profile: {
      first_name: 'Ada',
      last_name,
      email: 'ada@example.com',
      date_of_birth: '1990-01-31',
      country_of_residence: 'NG',
    },
    address: null,
    meta: {},
    mode: 'sandbox',
    creation_context: 'api',
    created: T0,
  },
});

const business = (legal_name = 'Acme Ltd'): EntityEvent => ({
  type: 'EntityCreated',
  data: {
    entity_id: ID,
    type: 'business',
    person_id: null,
    profile: {
      legal_name,
      trading_name: null,
      email: 'ops@acme.test',
      business_type: 'llc',
      country_of_incorporation: 'GB',
    },
    address: { line_1: '1 High St', city: 'London', state: 'LDN', postal_code: 'N1', country_code: 'GB' },
    meta: { tax_id: 'T1' },
    mode: 'sandbox',
    creation_context: 'api',
    created: T0,
  },
});

const doc = (key: 'identity' | 'address', n = 1): DocumentRecord => ({
  document_id: `doc_01J000000000000000000000${key === 'identity' ? 'I' : 'A'}${n}`,
  key,
  person_id: PERSON,
  content_type: 'image/png',
  size: 12,
  sha256: 'ab'.repeat(32),
  filename: `${key}.png`,
  uploaded: T0 + 10,
});
const uploaded = (key: 'identity' | 'address'): EntityEvent => ({
  type: 'DocumentUploaded',
  data: { ...doc(key), entity_id: ID },
});
const submitted: EntityEvent = { type: 'OnboardingSubmitted', data: { entity_id: ID, submitted: T0 + 100 } };
const ready = [individual(), uploaded('identity'), uploaded('address')];
const underReview = [...ready, submitted];

const submit: EntityCommand = { type: 'SubmitOnboarding', entity_id: ID, now: T0 + 100 };
const autoReview: EntityCommand = { type: 'CompleteAutomaticReview', entity_id: ID, now: T0 + 1100 };
const review = (
  decision: 'approved' | 'rejected',
  reason: string | null = null,
  reviewer: 'sandbox_review' | 'operator' = 'sandbox_review',
): EntityCommand => ({
  type: 'ReviewEntity',
  entity_id: ID,
  decision,
  reason,
  reviewer,
  now: T0 + 500,
});

describe('entity with no stream', () => {
  const create = (overrides: Partial<Extract<EntityCommand, { type: 'CreateEntity' }>> = {}): EntityCommand => {
    const { type: _t, ...data } = (individual() as Extract<EntityEvent, { type: 'EntityCreated' }>).data;
    const { created: _c, ...rest } = data;
    return { type: 'CreateEntity', ...rest, entity_type: 'individual', now: T0, ...overrides };
  };

  it('creates a pending individual', () => spec([]).when(create()).then([individual()]));

  it('approves a sandbox quick start at once', () =>
    spec([])
      .when(create({ creation_context: 'quick_start' }))
      .thenState((state, events) => {
        expect(events.map((e) => e.type)).toEqual(['EntityCreated', 'EntityApproved']);
        expect(state.status).toBe('approved');
      }));

  it('leaves a live quick start pending', () =>
    spec([])
      .when(create({ creation_context: 'quick_start', mode: 'live' }))
      .thenState((state) => expect(state.status).toBe('pending')));

  it.each([
    submit,
    review('approved'),
    { type: 'UploadDocument', entity_id: ID, document: doc('identity') } as EntityCommand,
  ])('answers not found to %s', (command) => spec([]).when(command).thenError('entity_not_found'));

  it('decides nothing on an automatic review trigger', () => spec([]).when(autoReview).then([]));
});

describe('pending entity being prepared', () => {
  it('refuses a second creation', () => {
    const { type: _t, created, ...data } = (individual() as Extract<EntityEvent, { type: 'EntityCreated' }>).data;
    spec([individual()])
      .when({ type: 'CreateEntity', ...data, entity_type: 'individual', now: created })
      .thenError('entity_exists');
  });

  it('names every missing document', () =>
    spec([individual(), uploaded('address')])
      .when(submit)
      .thenError('documents_missing', (e) => {
        expect(e.errors).toEqual([{ field: 'documents.identity', message: expect.stringContaining(PERSON) }]);
        expect(e.details).toEqual({ missing_documents: ['identity'] });
      }));

  it('submits an individual with identity and address documents', () => spec(ready).when(submit).then([submitted]));

  it('submits a business with its registered address', () => spec([business()]).when(submit).then([submitted]));

  it('records an upload and ignores the same document twice', () => {
    spec([individual()])
      .when({ type: 'UploadDocument', entity_id: ID, document: doc('identity') })
      .then([uploaded('identity')]);
    spec([individual(), uploaded('identity')])
      .when({ type: 'UploadDocument', entity_id: ID, document: doc('identity') })
      .then([]);
  });

  it('refuses a document linked to another person', () =>
    spec([individual()])
      .when({ type: 'UploadDocument', entity_id: ID, document: { ...doc('identity'), person_id: 'per_X' } })
      .thenError('validation_error'));

  it('refuses documents for a business', () =>
    spec([business()])
      .when({ type: 'UploadDocument', entity_id: ID, document: doc('identity') })
      .thenError('validation_error'));

  it('refuses a review before submission', () =>
    spec(ready).when(review('approved')).thenError('entity_not_under_review'));

  it('updates only what changed and reports it', () =>
    spec([individual()])
      .when({
        type: 'UpdateIndividualEntity',
        entity_id: ID,
        patch: {
          name: 'Ada O.',
          person: { first_name: 'Ada', email: 'new@example.com' },
          address: { line_1: '2 Road', city: 'Lagos', country_code: 'NG' },
        },
        now: T0 + 5,
      })
      .thenState((state, events) => {
        expect(events[0]).toMatchObject({
          type: 'EntityUpdated',
          data: {
            changes_applied: {
              entity_fields: ['name'],
              person_fields: ['email'],
              address_fields: ['address.line_1', 'address.city', 'address.country_code'],
              identification_fields: [],
            },
          },
        });
        expect(state).toMatchObject({
          name: 'Ada O.',
          profile: { first_name: 'Ada', email: 'new@example.com' },
          address: { city: 'Lagos' },
          updated: T0 + 5,
        });
      }));

  it('decides nothing when an update repeats the current values', () =>
    spec([individual()])
      .when({ type: 'UpdateIndividualEntity', entity_id: ID, patch: { person: { last_name: 'Okafor' } }, now: T0 + 5 })
      .then([]));

  it('refuses a first address without a city', () =>
    spec([individual()])
      .when({
        type: 'UpdateIndividualEntity',
        entity_id: ID,
        patch: { address: { line_1: 'x', country_code: 'NG' } },
        now: 1,
      })
      .thenError('validation_error', (e) => expect(e.errors?.[0].field).toBe('address.city')));

  it('refuses identification pointing at a document it does not have', () =>
    spec([individual(), uploaded('address')])
      .when({
        type: 'UpdateIndividualEntity',
        entity_id: ID,
        patch: { identification: { proof_of_address: { type: 'utility', document_id: doc('identity').document_id } } },
        now: 1,
      })
      .thenError('validation_error'));

  it('answers not found when updating an individual as a business', () =>
    spec([individual()])
      .when({ type: 'UpdateBusinessEntity', entity_id: ID, patch: { name: 'x' }, new_officer_ids: [], now: 1 })
      .thenError('entity_not_found'));

  describe('business officers', () => {
    const officerUpdate = (
      patch: Extract<EntityCommand, { type: 'UpdateBusinessEntity' }>['patch'],
      ids: string[] = [],
    ): EntityCommand => ({
      type: 'UpdateBusinessEntity',
      entity_id: ID,
      patch,
      new_officer_ids: ids,
      now: T0 + 9,
    });
    const withOfficer = (): EntityEvent[] => {
      const events: EntityEvent[] = [business()];
      spec(events)
        .when(
          officerUpdate(
            {
              business_officers: [
                { person_id: PERSON, job_title: 'CEO', is_beneficial_owner: true, ownership_percentage: 60 },
              ],
            },
            ['off_1'],
          ),
        )
        .thenState((_s, e) => events.push(...e));
      return events;
    };

    it('adds, updates and removes officers, renaming business fields', () =>
      spec(withOfficer())
        .when(
          officerUpdate(
            {
              business: { trade_name: 'Acme', type: 'corporation' },
              meta: { tax_id: '', annual_turnover: '1000' },
              business_officers: [
                { id: 'off_1', job_title: 'Chair' },
                { person: { first_name: 'B', last_name: 'C' } },
                { id: 'off_1', action: 'remove' },
              ],
            },
            ['', 'off_2', ''],
          ),
        )
        .thenState((state, events) => {
          expect(events[0]).toMatchObject({
            data: {
              changes_applied: {
                business_fields: ['trade_name', 'type'],
                meta_fields: ['tax_id', 'annual_turnover'],
                officers_added: ['off_2'],
                officers_updated: ['off_1'],
                officers_removed: ['off_1'],
              },
            },
          });
          expect(state).toMatchObject({
            profile: { trading_name: 'Acme', business_type: 'corporation' },
            meta: { annual_turnover: '1000' },
            officers: [{ id: 'off_2', person_id: null }],
          });
        }));

    it('refuses an update of an unknown officer', () =>
      spec([business()])
        .when(officerUpdate({ business_officers: [{ id: 'off_9', job_title: 'x' }] }))
        .thenError('validation_error'));

    it('refuses an officer with neither person_id nor a named person', () =>
      spec([business()])
        .when(officerUpdate({ business_officers: [{ job_title: 'x' }] }, ['off_3']))
        .thenError('validation_error'));

    it('refuses beneficial ownership above 100%', () =>
      spec(withOfficer())
        .when(
          officerUpdate(
            {
              business_officers: [
                { person: { first_name: 'B', last_name: 'C' }, is_beneficial_owner: true, ownership_percentage: 41 },
              ],
            },
            ['off_4'],
          ),
        )
        .thenError('ownership_exceeds_total'));
  });
});

describe('pending entity under review', () => {
  it('refuses a second submission', () => spec(underReview).when(submit).thenError('entity_under_review'));
  it('refuses uploads and updates', () => {
    spec(underReview)
      .when({ type: 'UploadDocument', entity_id: ID, document: doc('identity', 2) })
      .thenError('entity_under_review');
    spec(underReview)
      .when({ type: 'UpdateIndividualEntity', entity_id: ID, patch: { name: 'x' }, now: 1 })
      .thenError('entity_under_review');
  });
  it('is approved by a sandbox review', () =>
    spec(underReview)
      .when(review('approved'))
      .then([
        {
          type: 'EntityApproved',
          data: { entity_id: ID, reviewer: 'sandbox_review', reason: null, approved: T0 + 500 },
        },
      ]));
  it('is rejected with a reason', () =>
    spec(underReview)
      .when(review('rejected'))
      .thenState((state) =>
        expect(state).toMatchObject({ status: 'rejected', status_reason: 'Rejected in sandbox review' }),
      ));

  it('records the operator as the reviewer of an operator decision', () =>
    spec(underReview)
      .when(review('approved', 'documents verified', 'operator'))
      .then([
        {
          type: 'EntityApproved',
          data: { entity_id: ID, reviewer: 'operator', reason: 'documents verified', approved: T0 + 500 },
        },
      ]));
  it('is approved automatically for an ordinary name', () =>
    spec(underReview)
      .when(autoReview)
      .thenState((state) => expect(state.status).toBe('approved')));
  it.each(['Reject', 'MCREJECTSON', 'unrejected'])('is rejected automatically when last_name is %s', (name) =>
    spec([individual(name), uploaded('identity'), uploaded('address'), submitted])
      .when(autoReview)
      .thenState((state) => {
        expect(state).toMatchObject({ status: 'rejected', status_reason: expect.stringContaining('last_name') });
      }),
  );
  it('rejects a business by legal_name', () =>
    spec([business('Rejectco Ltd'), submitted])
      .when(autoReview)
      .thenState((state) => expect(state.status).toBe('rejected')));
});

describe('approved entity', () => {
  const approved = [
    ...underReview,
    {
      type: 'EntityApproved',
      data: { entity_id: ID, reviewer: 'auto_review', reason: null, approved: T0 + 1100 },
    } as EntityEvent,
  ];
  it('refuses submission and review', () => {
    spec(approved).when(submit).thenError('entity_already_decided');
    spec(approved).when(review('rejected')).thenError('entity_not_under_review');
  });
  it('ignores a replayed automatic review', () => spec(approved).when(autoReview).then([]));
  it('still accepts profile updates', () =>
    spec(approved)
      .when({
        type: 'UpdateIndividualEntity',
        entity_id: ID,
        patch: { person: { phonenumber: '+2348000000000' } },
        now: 1,
      })
      .thenState((s) => expect(s.status).toBe('approved')));
});

describe('rejected entity', () => {
  const rejected = [
    ...underReview,
    {
      type: 'EntityRejected',
      data: { entity_id: ID, reviewer: 'sandbox_review', reason: 'no', rejected: T0 + 1 },
    } as EntityEvent,
  ];
  it('cannot proceed', () => {
    spec(rejected).when(submit).thenError('entity_already_decided');
    spec(rejected)
      .when({ type: 'UpdateIndividualEntity', entity_id: ID, patch: { name: 'x' }, now: 1 })
      .thenError('entity_rejected');
    spec(rejected)
      .when({ type: 'UploadDocument', entity_id: ID, document: doc('identity', 3) })
      .thenError('entity_rejected');
    spec(rejected).when(autoReview).then([]);
  });
});
