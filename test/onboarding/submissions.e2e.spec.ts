import { tokenFor } from '../support/fixtures';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { businessBody, createIndividual, readyIndividual, uploadDocument } from './fixtures';

describe('onboarding submission and sandbox review', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const submit = (entityId: string | undefined, key: string = KEYS.sandbox) =>
    t.http
      .post('/onboarding-submissions')
      .set(bearer(key))
      .send(entityId ? { entity_id: entityId } : {});
  const review = (entityId: string, body: object, key: string = KEYS.sandbox) =>
    t.http.post(`/sandbox/entities/${entityId}/review`).set(bearer(key)).send(body);

  it('answers 422 documents_missing naming both documents, then the one still missing', async () => {
    const entity = await createIndividual(t);
    const none = await submit(entity.id).expect(422);
    expect(none.body).toMatchObject({
      status: 'error',
      code: 'documents_missing',
      missing_documents: ['identity', 'address'],
    });
    expect(none.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'documents.identity',
      'documents.address',
    ]);
    await uploadDocument(t, entity.person_id, 'identity').expect(201);
    const one = await submit(entity.id).expect(422);
    expect(one.body.missing_documents).toEqual(['address']);
    expect(one.body.message).toContain('address');
    const got = await t.http.get(`/entities/${entity.id}`).set(bearer(KEYS.sandbox)).expect(200);
    expect(got.body).toMatchObject({ status: 'pending', submitted: null });
  });

  it('submits a ready individual: 200, still pending, then 409 on a second submission', async () => {
    const entity = await readyIndividual(t);
    const res = await submit(entity.id).expect(200);
    expect(res.body).toMatchObject({
      id: entity.id,
      object: 'entity',
      status: 'pending',
      submitted: expect.any(Number),
    });
    const again = await submit(entity.id).expect(409);
    expect(again.body).toMatchObject({ status: 'error', code: 'entity_under_review' });
  });

  it('submits a business without documents', async () => {
    const created = await t.http.post('/business-entities').set(bearer(KEYS.sandbox)).send(businessBody()).expect(201);
    await submit(created.body.id).expect(200);
  });

  it('approves or rejects a submitted entity at once, then refuses to review or submit it again', async () => {
    const approved = await readyIndividual(t);
    await submit(approved.id).expect(200);
    const ok = await review(approved.id, { decision: 'approved' }).expect(200);
    expect(ok.body).toMatchObject({ id: approved.id, status: 'approved', status_reason: null });
    expect((await review(approved.id, { decision: 'rejected' }).expect(409)).body.code).toBe('entity_not_under_review');
    expect((await submit(approved.id).expect(409)).body.code).toBe('entity_already_decided');

    const rejected = await readyIndividual(t);
    await submit(rejected.id).expect(200);
    const no = await review(rejected.id, { decision: 'rejected', reason: 'Document expired' }).expect(200);
    expect(no.body).toMatchObject({ status: 'rejected', status_reason: 'Document expired' });
    const got = await t.http.get(`/entities/${rejected.id}`).set(bearer(KEYS.sandbox)).expect(200);
    expect(got.body).toMatchObject({ status: 'rejected', status_reason: 'Document expired' });
    expect((await submit(rejected.id).expect(409)).body.code).toBe('entity_already_decided');
    expect((await uploadDocument(t, rejected.person_id, 'identity').expect(409)).body.code).toBe('entity_rejected');
  });

  it('gives a rejection a default reason', async () => {
    const entity = await readyIndividual(t);
    await submit(entity.id).expect(200);
    const res = await review(entity.id, { decision: 'rejected' }).expect(200);
    expect(res.body.status_reason).toEqual(expect.any(String));
  });

  it('refuses to review an entity not under review (409) and validates the decision', async () => {
    const entity = await readyIndividual(t);
    expect((await review(entity.id, { decision: 'approved' }).expect(409)).body.code).toBe('entity_not_under_review');
    expect((await review(entity.id, { decision: 'maybe' }).expect(400)).body.errors[0].field).toBe('decision');
    await review('ent_01ARZ3NDEKTSV4RRFFQ69G5FAV', { decision: 'approved' }).expect(404);
  });

  it('keeps the sandbox review to sandbox API keys', async () => {
    const live = await readyIndividual(t, {}, KEYS.live);
    await submit(live.id, KEYS.live).expect(200);
    expect((await review(live.id, { decision: 'approved' }, KEYS.live).expect(403)).body.code).toBe('sandbox_only');
    const entity = await readyIndividual(t);
    await submit(entity.id).expect(200);
    const token = await tokenFor(t, entity.id);
    await review(entity.id, { decision: 'approved' }, token).expect(403);
    await review(entity.id, { decision: 'approved' }, KEYS.other).expect(404);
  });

  it('needs entity_id with an API key, infers it from a token, and forbids another entity', async () => {
    const missing = await submit(undefined).expect(400);
    expect(missing.body.errors[0].field).toBe('entity_id');
    const mine = await readyIndividual(t);
    const theirs = await readyIndividual(t);
    const token = await tokenFor(t, mine.id);
    await submit(theirs.id, token).expect(403);
    const res = await submit(undefined, token).expect(200);
    expect(res.body.id).toBe(mine.id);
  });

  it("answers 404 for another organization's entity and for an unknown one", async () => {
    const entity = await readyIndividual(t);
    expect((await submit(entity.id, KEYS.other).expect(404)).body.code).toBe('entity_not_found');
    await submit('ent_01ARZ3NDEKTSV4RRFFQ69G5FAV').expect(404);
    const got = await t.http.get(`/entities/${entity.id}`).set(bearer(KEYS.sandbox)).expect(200);
    expect(got.body.submitted).toBeNull();
  });
});
