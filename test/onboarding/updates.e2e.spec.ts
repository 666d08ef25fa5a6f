import { tokenFor } from '../support/fixtures';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { businessBody, createIndividual, readyIndividual, uploadDocument } from './fixtures';

describe('entity updates', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const patchIndividual = (id: string, body: object, key: string = KEYS.sandbox) =>
    t.http.patch(`/individual-entities/${id}`).set(bearer(key)).send(body);
  const patchBusiness = (id: string, body: object, key: string = KEYS.sandbox) =>
    t.http.patch(`/business-entities/${id}`).set(bearer(key)).send(body);
  const createBusiness = async () =>
    (
      await t.http
        .post('/business-entities')
        .set(bearer(KEYS.sandbox))
        .send(businessBody({ meta: { tax_id: 'T-1' } }))
        .expect(201)
    ).body as { id: string };

  describe('PATCH /individual-entities/{id}', () => {
    it('applies the changes and reports them by group', async () => {
      const entity = await createIndividual(t);
      const doc = await uploadDocument(t, entity.person_id, 'address').expect(201);
      const res = await patchIndividual(entity.id, {
        name: 'Ada O.',
        person: { first_name: 'Ada', email: 'ada.o@example.com', phonenumber: '+2348012345678', nationality: 'NG' },
        address: { line_1: '12 Marina', city: 'Lagos', country_code: 'NG' },
        identification: {
          document: { type: 'passport', number: 'A123', expiry_date: '2031-05-01' },
          proof_of_address: { type: 'utility', document_id: doc.body.id },
        },
      }).expect(200);
      expect(res.body).toMatchObject({ status: 'success', message: expect.any(String) });
      expect(res.body.data.changes_applied).toEqual({
        entity_fields: ['name'],
        person_fields: ['email', 'nationality', 'phonenumber'],
        address_fields: ['address.line_1', 'address.city', 'address.country_code'],
        identification_fields: [
          'document.type',
          'document.number',
          'document.expiry_date',
          'proof_of_address.type',
          'proof_of_address.document_id',
        ],
      });
      expect(res.body.data).toMatchObject({
        address: { line_1: '12 Marina', city: 'Lagos', country_code: 'NG' },
        entity: {
          id: entity.id,
          type: 'individual',
          status: 'pending',
          name: 'Ada O.',
          is_root: true,
          user_id: entity.person_id,
          creation_context: 'api',
        },
        person: {
          person_id: entity.person_id,
          first_name: 'Ada',
          last_name: 'Okafor',
          email: 'ada.o@example.com',
          phonenumber: '+2348012345678',
        },
        identification: {
          document: { type: 'passport', number: 'A123' },
          verification_status: 'not_started',
          proof_of_address: { type: 'utility', document_id: doc.body.id, verification_status: 'pending' },
        },
      });
      const got = await t.http.get(`/entities/${entity.id}`).set(bearer(KEYS.sandbox)).expect(200);
      expect(got.body).toMatchObject({
        name: 'Ada O.',
        profile: { email: 'ada.o@example.com' },
        address: { city: 'Lagos' },
      });
      expect(got.body.updated).toBeGreaterThanOrEqual(got.body.created);
    });

    it('reports nothing when the values are already current', async () => {
      const entity = await createIndividual(t);
      const res = await patchIndividual(entity.id, { person: { first_name: 'Ada' } }).expect(200);
      expect(res.body.data.changes_applied).toEqual({
        entity_fields: [],
        person_fields: [],
        address_fields: [],
        identification_fields: [],
      });
    });

    it.each([
      ['null for a required field', { person: { first_name: null } }, 'person.first_name'],
      ['a bad birth date', { person: { date_of_birth: '2001-13-01' } }, 'person.date_of_birth'],
      ['a bad phone number', { person: { phonenumber: '0801' } }, 'person.phonenumber'],
      ['an unknown nested field', { person: { shoe_size: 9 } }, 'person.shoe_size'],
      ['an incomplete first address', { address: { line_1: '1 Road' } }, 'address.city'],
      ['a bad address country', { address: { line_1: '1', city: 'x', country_code: 'XX' } }, 'address.country_code'],
      [
        'a document of another kind',
        { identification: { proof_of_address: { document_id: 'doc_01ARZ3NDEKTSV4RRFFQ69G5FAV' } } },
        'identification.proof_of_address.document_id',
      ],
      ['an unknown parent', { parent_entity: 'ent_01ARZ3NDEKTSV4RRFFQ69G5FAV' }, 'parent_entity'],
      ['a business block', { business: { legal_name: 'x' } }, 'business'],
    ])('refuses %s with 400 and changes nothing', async (_case, body, field) => {
      const entity = await createIndividual(t);
      const before = await t.http.get(`/entities/${entity.id}`).set(bearer(KEYS.sandbox)).expect(200);
      const res = await patchIndividual(entity.id, body).expect(400);
      expect(res.body).toMatchObject({ status: 'error', code: 'validation_error' });
      expect(res.body.errors[0].field).toBe(field);
      const after = await t.http.get(`/entities/${entity.id}`).set(bearer(KEYS.sandbox)).expect(200);
      expect(after.body).toEqual(before.body);
    });

    it('links a parent entity of the organization and clears it with null', async () => {
      const parent = await createBusiness();
      const entity = await createIndividual(t);
      const linked = await patchIndividual(entity.id, {
        parent_entity: parent.id,
        parent_relationship: 'director',
      }).expect(200);
      expect(linked.body.data.entity).toMatchObject({
        parent_entity: parent.id,
        parent_relationship: 'director',
        is_root: false,
      });
      const cleared = await patchIndividual(entity.id, { parent_entity: null }).expect(200);
      expect(cleared.body.data.entity.is_root).toBe(true);
    });

    it('answers 409 while under review, 404 for a business id or another organization, 403 for another entity token', async () => {
      const entity = await readyIndividual(t);
      await t.http.post('/onboarding-submissions').set(bearer(KEYS.sandbox)).send({ entity_id: entity.id }).expect(200);
      expect((await patchIndividual(entity.id, { name: 'x' }).expect(409)).body.code).toBe('entity_under_review');
      const business = await createBusiness();
      await patchIndividual(business.id, { name: 'x' }).expect(404);
      await patchIndividual(entity.id, { name: 'x' }, KEYS.other).expect(404);
      const other = await createIndividual(t);
      const token = await tokenFor(t, other.id);
      expect((await patchIndividual(entity.id, { name: 'x' }, token).expect(403)).body.code).toBe('forbidden');
      await patchIndividual(other.id, { name: 'Mine' }, token).expect(200);
    });
  });

  describe('PATCH /business-entities/{id}', () => {
    it('updates business fields, addresses and meta, and manages officers', async () => {
      const business = await createBusiness();
      const director = await createIndividual(t);
      const added = await patchBusiness(business.id, {
        business: {
          trade_name: 'Acme',
          website: 'https://acme.test',
          incorporation_meta: { year: 2015, month: 6, country: 'IE' },
        },
        operating_address: { line_1: '9 Dock Rd', city: 'Dublin', country_code: 'IE' },
        meta: { annual_turnover: '5000000', tax_id: '' },
        business_officers: [
          { person_id: director.person_id, job_title: 'Director', is_control_person: true },
          {
            action: 'add',
            person: { first_name: 'Bo', last_name: 'Owner', nationality: 'GB' },
            is_beneficial_owner: true,
            ownership_percentage: 60,
          },
        ],
      }).expect(200);
      const data = added.body.data;
      expect(data.changes_applied).toEqual({
        meta_fields: ['annual_turnover', 'tax_id'],
        entity_fields: [],
        address_fields: ['operating_address.line_1', 'operating_address.city', 'operating_address.country_code'],
        officers_added: [expect.stringMatching(/^off_/), expect.stringMatching(/^off_/)],
        business_fields: [
          'trade_name',
          'website',
          'incorporation_meta.country',
          'incorporation_meta.year',
          'incorporation_meta.month',
        ],
        officers_removed: [],
        officers_updated: [],
      });
      expect(data).toMatchObject({
        address: businessBody().registered_address,
        operating_address: { city: 'Dublin' },
        entity: { id: business.id, type: 'business', status: 'pending', business_id: business.id, is_root: true },
        business: {
          legal_name: 'Acme Trading Ltd',
          trade_name: 'Acme',
          type: 'llc',
          website: 'https://acme.test',
          incorporation_meta: { year: 2015, month: 6, country: 'IE' },
        },
        business_meta: { annual_turnover: '5000000' },
      });
      expect(data.business_officers).toHaveLength(2);
      const [first, second] = data.changes_applied.officers_added;
      const changed = await patchBusiness(business.id, {
        business_officers: [
          { id: first, action: 'update', job_title: 'Chair' },
          { id: second, action: 'remove' },
        ],
      }).expect(200);
      expect(changed.body.data.changes_applied).toMatchObject({
        officers_updated: [first],
        officers_removed: [second],
        officers_added: [],
      });
      expect(changed.body.data.business_officers).toEqual([
        expect.objectContaining({ id: first, person_id: director.person_id, job_title: 'Chair' }),
      ]);
      const got = await t.http.get(`/entities/${business.id}`).set(bearer(KEYS.sandbox)).expect(200);
      expect(got.body).toMatchObject({
        profile: { trading_name: 'Acme', country_of_incorporation: 'IE' },
        meta: { annual_turnover: '5000000' },
      });
    });

    it.each([
      [
        'an unknown officer',
        { business_officers: [{ id: 'off_01ARZ3NDEKTSV4RRFFQ69G5FAV', job_title: 'x' }] },
        400,
        'business_officers[0].id',
      ],
      ['an officer with no person', { business_officers: [{ job_title: 'x' }] }, 400, 'business_officers[0].person_id'],
      [
        'a person_id of no entity',
        { business_officers: [{ person_id: 'per_01ARZ3NDEKTSV4RRFFQ69G5FAV' }] },
        400,
        'business_officers[0].person_id',
      ],
      [
        'an ownership above 100',
        { business_officers: [{ person: { first_name: 'a', last_name: 'b' }, ownership_percentage: 101 }] },
        400,
        'business_officers[0].ownership_percentage',
      ],
      [
        'owners above 100% together',
        {
          business_officers: [1, 2].map(() => ({
            person: { first_name: 'a', last_name: 'b' },
            is_beneficial_owner: true,
            ownership_percentage: 60,
          })),
        },
        422,
        undefined,
      ],
      ['a bad website', { business: { website: 'acme' } }, 400, 'business.website'],
      ['a bad business type', { business: { type: 'trust' } }, 400, 'business.type'],
      ['a bad month', { business: { incorporation_meta: { month: 13 } } }, 400, 'business.incorporation_meta.month'],
      ['non-string meta', { meta: { turnover: 5 } }, 400, 'meta'],
    ])('refuses %s and changes nothing', async (_case, body, status, field) => {
      const business = await createBusiness();
      const before = await t.http.get(`/entities/${business.id}`).set(bearer(KEYS.sandbox)).expect(200);
      const res = await patchBusiness(business.id, body).expect(status);
      if (field) expect(res.body.errors[0].field).toBe(field);
      else expect(res.body.code).toBe('ownership_exceeds_total');
      expect((await t.http.get(`/entities/${business.id}`).set(bearer(KEYS.sandbox)).expect(200)).body).toEqual(
        before.body,
      );
    });

    it("answers 404 for an individual's id and for another organization", async () => {
      const individual = await createIndividual(t);
      await patchBusiness(individual.id, { name: 'x' }).expect(404);
      const business = await createBusiness();
      await patchBusiness(business.id, { name: 'x' }, KEYS.other).expect(404);
    });
  });
});
