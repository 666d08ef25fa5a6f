import { specFor } from '../../shared/testing/given-when-then';
import { apiKeyDecider, type ApiKeyCommand } from './api-key.decide';
import type { ApiKeyEvent, KeyMaterial } from './api-key.events';
import { evolveApiKey, initialApiKeyState } from './api-key';
import { FIRST_API_VERSION } from './api-version';

const material = (n: number): KeyMaterial => ({
  key_hash: `hash-${n}`,
  key_last4: `000${n}`,
  encryption_public_key: `public-${n}`,
  encrypted_private_key: `sealed-${n}`,
});
const create: ApiKeyCommand = {
  type: 'CreateApiKey',
  api_key_id: 'key_1',
  organization_id: 'org_1',
  name: 'ci',
  mode: 'sandbox',
  bootstrap: false,
  api_version: '2026-11-27',
  material: material(1),
  now: 1000,
};
const created: ApiKeyEvent = {
  type: 'ApiKeyCreated',
  data: {
    api_key_id: 'key_1',
    organization_id: 'org_1',
    name: 'ci',
    mode: 'sandbox',
    bootstrap: false,
    api_version: '2026-11-27',
    ...material(1),
    created: 1000,
  },
};
const revoked: ApiKeyEvent = { type: 'ApiKeyRevoked', data: { api_key_id: 'key_1', revoked: 3000 } };
const given = specFor(apiKeyDecider);

describe('api key', () => {
  describe('when none exists', () => {
    it('creates it with hashed and sealed material only', () => given([]).when(create).then([created]));
    it('cannot be rotated', () =>
      given([])
        .when({ type: 'RotateApiKey', api_key_id: 'key_1', material: material(2), now: 2000 })
        .thenError('api_key_not_found'));
    it('cannot be revoked', () =>
      given([]).when({ type: 'RevokeApiKey', api_key_id: 'key_1', now: 2000 }).thenError('api_key_not_found'));
  });

  describe('when active', () => {
    it('is pinned to the API version it was created under', () =>
      expect(evolveApiKey(initialApiKeyState, created)).toMatchObject({ api_version: '2026-11-27' }));
    it('created before versions existed, is on the first version (upcast)', () => {
      const { api_version: _v, ...older } = (created as Extract<ApiKeyEvent, { type: 'ApiKeyCreated' }>).data;
      expect(evolveApiKey(initialApiKeyState, { type: 'ApiKeyCreated', data: older })).toMatchObject({
        api_version: FIRST_API_VERSION,
      });
    });
    it('is not created twice', () => given([created]).when(create).thenError('api_key_exists'));
    it('rotates to new material', () =>
      given([created])
        .when({ type: 'RotateApiKey', api_key_id: 'key_1', material: material(2), now: 2000 })
        .thenState((state) =>
          expect(state).toMatchObject({
            status: 'active',
            key_hash: 'hash-2',
            encryption_public_key: 'public-2',
            updated: 2000,
          }),
        ));
    it('is revoked', () =>
      given([created]).when({ type: 'RevokeApiKey', api_key_id: 'key_1', now: 3000 }).then([revoked]));
  });

  describe('when revoked', () => {
    it('is not revoked again', () =>
      given([created, revoked])
        .when({ type: 'RevokeApiKey', api_key_id: 'key_1', now: 4000 })
        .thenError('api_key_revoked'));
    it('is not rotated', () =>
      given([created, revoked])
        .when({ type: 'RotateApiKey', api_key_id: 'key_1', material: material(2), now: 4000 })
        .thenError('api_key_revoked'));
  });
});
