import { tokenFor } from '../support/fixtures';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { FILES, createIndividual, uploadDocument } from './fixtures';

describe('POST /documents/upload', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const storedFiles = () =>
    !existsSync(join(t.dataDir, 'documents'))
      ? 0
      : readdirSync(join(t.dataDir, 'documents'), { recursive: true, withFileTypes: true }).filter((f) => f.isFile())
          .length;

  it.each([
    ['PNG', FILES.png, 'image/png'],
    ['JPEG', FILES.jpeg, 'image/jpeg'],
    ['PDF', FILES.pdf, 'application/pdf'],
  ])('stores a %s judged by its bytes, durably under DATA_DIR/documents', async (_name, file, type) => {
    const entity = await createIndividual(t);
    const res = await uploadDocument(t, entity.person_id, 'identity', KEYS.sandbox, file).expect(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^doc_[0-9A-HJKMNP-TV-Z]{26}$/),
      key: 'identity',
      status: 'uploaded',
      content_type: type,
      size: file.length,
    });
    expect(res.body.created).toEqual(expect.any(Number));
    const entityRes = await t.http.get(`/entities/${entity.id}`).set(bearer(KEYS.sandbox)).expect(200);
    expect(entityRes.body.documents).toEqual([
      { id: res.body.id, key: 'identity', status: 'uploaded', created: res.body.created },
    ]);
    const orgDirs = readdirSync(join(t.dataDir, 'documents'));
    const path = orgDirs
      .map((d) => join(t.dataDir, 'documents', d, res.body.id))
      .find((p) => {
        try {
          return readFileSync(p);
        } catch {
          return false;
        }
      });
    expect(path && readFileSync(path).equals(file)).toBe(true);
  });

  it('records the fingerprint of the file in the log, never its bytes', async () => {
    const entity = await createIndividual(t);
    const bytes = Buffer.concat([FILES.pdf, Buffer.from('secret-passport-content')]);
    const res = await uploadDocument(t, entity.person_id, 'address', KEYS.sandbox, bytes).expect(201);
    const { SqliteEventStore } = await import('@app/platform/event-store/sqlite-event-store');
    const store = new SqliteEventStore(join(t.dataDir, 'events.db'));
    const events = await store.readStream(`entity-${entity.id}`);
    await store.close();
    const uploaded = events.find((e) => e.type === 'DocumentUploaded')!;
    expect(uploaded.data).toMatchObject({
      document_id: res.body.id,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      size: bytes.length,
      content_type: 'application/pdf',
    });
    expect(JSON.stringify(events)).not.toContain('secret-passport-content');
  });

  it.each([
    ['a text file', Buffer.from('hello, this is not a PDF')],
    ['an executable named .png', Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00])],
    ['an empty file', Buffer.alloc(0)],
    ['a truncated PNG signature', FILES.png.subarray(0, 8)],
  ])('refuses %s with 400 and stores nothing', async (_case, file) => {
    const entity = await createIndividual(t);
    const before = storedFiles();
    const res = await t.http
      .post('/documents/upload')
      .set(bearer(KEYS.sandbox))
      .field('key', 'identity')
      .field('link_to_identity[person_id]', entity.person_id)
      .attach('file', file, { filename: 'id.png', contentType: 'image/png' })
      .expect(400);
    expect(res.body).toMatchObject({ status: 'error', code: 'validation_error', errors: [{ field: 'file' }] });
    expect(storedFiles()).toBe(before);
    const got = await t.http.get(`/entities/${entity.id}`).set(bearer(KEYS.sandbox)).expect(200);
    expect(got.body.documents).toEqual([]);
  });

  it('answers 413 in the envelope above 10 MB and stores nothing', async () => {
    const entity = await createIndividual(t);
    const before = storedFiles();
    const big = Buffer.concat([FILES.pdf, Buffer.alloc(10 * 1024 * 1024 + 1 - FILES.pdf.length)]);
    const res = await uploadDocument(t, entity.person_id, 'identity', KEYS.sandbox, big).expect(413);
    expect(res.body).toMatchObject({ status: 'error', code: 'file_too_large', errors: [{ field: 'file' }] });
    expect(storedFiles()).toBe(before);
    const exact = Buffer.concat([FILES.pdf, Buffer.alloc(10 * 1024 * 1024 - FILES.pdf.length)]);
    await uploadDocument(t, entity.person_id, 'identity', KEYS.sandbox, exact).expect(201);
  });

  it('validates the text fields', async () => {
    const entity = await createIndividual(t);
    const badKey = await t.http
      .post('/documents/upload')
      .set(bearer(KEYS.sandbox))
      .field('key', 'selfie')
      .field('link_to_identity[person_id]', entity.person_id)
      .attach('file', FILES.png, 'a.png')
      .expect(400);
    expect(badKey.body.errors[0].field).toBe('key');
    const noPerson = await t.http
      .post('/documents/upload')
      .set(bearer(KEYS.sandbox))
      .field('key', 'identity')
      .attach('file', FILES.png, 'a.png')
      .expect(400);
    expect(noPerson.body.errors[0].field).toBe('link_to_identity[person_id]');
    const badPerson = await t.http
      .post('/documents/upload')
      .set(bearer(KEYS.sandbox))
      .field('key', 'identity')
      .field('link_to_identity[person_id]', 'per_nope')
      .attach('file', FILES.png, 'a.png')
      .expect(400);
    expect(badPerson.body.errors[0].field).toBe('link_to_identity.person_id');
    const noFile = await t.http
      .post('/documents/upload')
      .set(bearer(KEYS.sandbox))
      .field('key', 'identity')
      .field('link_to_identity[person_id]', entity.person_id)
      .expect(400);
    expect(noFile.body.errors[0].field).toBe('file');
    const otherField = await t.http
      .post('/documents/upload')
      .set(bearer(KEYS.sandbox))
      .field('key', 'identity')
      .field('link_to_identity[person_id]', entity.person_id)
      .attach('passport', FILES.png, 'a.png')
      .expect(400);
    expect(otherField.body.errors[0].field).toBe('passport');
  });

  it("answers 404 for an unknown person or another organization's, and 403 for another entity's token", async () => {
    const entity = await createIndividual(t);
    const other = await uploadDocument(t, entity.person_id, 'identity', KEYS.other).expect(404);
    expect(other.body.code).toBe('person_not_found');
    await uploadDocument(t, 'per_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'identity').expect(404);
    const second = await createIndividual(t);
    const token = await tokenFor(t, second.id);
    const res = await uploadDocument(t, entity.person_id, 'identity', token).expect(403);
    expect(res.body.code).toBe('forbidden');
  });

  it('infers the person from an entity token', async () => {
    const entity = await createIndividual(t);
    const token = await tokenFor(t, entity.id);
    await t.http
      .post('/documents/upload')
      .set(bearer(token))
      .field('key', 'address')
      .attach('file', FILES.jpeg, 'bill.jpg')
      .expect(201);
    const got = await t.http.get(`/entities/${entity.id}`).set(bearer(token)).expect(200);
    expect(got.body.documents.map((d: { key: string }) => d.key)).toEqual(['address']);
  });
});
