import { Inject, Injectable } from '@nestjs/common';
import { ulid } from '@app/platform/ids/ulid';
import { apiKeyDecider, type ApiKeyHashRegistered, type ApiKeyState, type KeyMaterial } from '@app/domain/access';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { SECRET_BOX, SecretBox } from '@app/platform/security/secret-box';
import { modeOfKey, newApiKey, newEncryptionKeyPair, sha256 } from '@app/platform/security/credentials';
import { foldStream, handleCommand, loadAggregate, toAppend, type Actor, type CommandContext } from '../command-handling';
import { apiKeyHashStream, apiKeyStream } from './streams';

export type ActiveApiKey = Extract<ApiKeyState, { status: 'active' | 'revoked' }>;

@Injectable()
export class ApiKeysService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  /** Creates a key in the caller's organization; the clear key is returned once, here. */
  async create(
    context: CommandContext,
    input: { name: string | null; mode: 'sandbox' | 'live'; key?: string; bootstrap?: boolean },
  ): Promise<{ key: string; state: ActiveApiKey }> {
    const id = `key_${ulid()}`;
    const key = input.key ?? newApiKey(input.mode);
    const material = await this.material(key);
    await this.registerHash(material.key_hash, id, context);
    const { state } = await handleCommand(
      this.store,
      apiKeyStream(id),
      apiKeyDecider,
      {
        type: 'CreateApiKey',
        api_key_id: id,
        organization_id: context.actor.organizationId,
        name: input.name,
        mode: input.mode,
        bootstrap: input.bootstrap ?? false,
        material,
        now: Date.now(),
      },
      context,
    );
    return { key, state: state as ActiveApiKey };
  }

  async rotate(context: CommandContext, id: string): Promise<{ key: string; state: ActiveApiKey }> {
    const current = await this.get(context, id);
    const key = newApiKey(current?.mode ?? 'sandbox');
    const material = await this.material(key);
    if (current) await this.registerHash(material.key_hash, id, context);
    const { state } = await handleCommand(this.store, apiKeyStream(id), apiKeyDecider, { type: 'RotateApiKey', api_key_id: id, material, now: Date.now() }, context);
    return { key, state: state as ActiveApiKey };
  }

  async revoke(context: CommandContext, id: string): Promise<ActiveApiKey> {
    const { state } = await handleCommand(this.store, apiKeyStream(id), apiKeyDecider, { type: 'RevokeApiKey', api_key_id: id, now: Date.now() }, context);
    return state as ActiveApiKey;
  }

  async get(context: Pick<CommandContext, 'actor'>, id: string): Promise<ActiveApiKey | null> {
    const loaded = await loadAggregate(this.store, apiKeyStream(id), apiKeyDecider, context);
    return loaded && loaded.state.status !== 'none' ? loaded.state : null;
  }

  /** Resolves a bearer API key to its live state; null when unknown, rotated away or revoked. */
  async resolve(key: string): Promise<ActiveApiKey | null> {
    if (!modeOfKey(key)) return null;
    const hash = sha256(key);
    // Both folds are cached per stream, so a known key costs two short reads per request and a
    // revocation or rotation is seen by the very next request.
    const pointer = await foldStream(this.store, apiKeyHashStream(hash), hashPointer);
    if (!pointer.state) return null;
    const { state } = await foldStream(this.store, apiKeyStream(pointer.state), apiKeyDecider);
    // After a rotation the old hash still points here, but the key's current hash has moved on.
    return state.status === 'active' && state.key_hash === hash ? state : null;
  }

  /** The private half of a key's encryption pair, for decrypting card data sent under it. */
  privateKeyOf(state: ActiveApiKey): string {
    return this.box.open(state.encrypted_private_key).toString('utf8');
  }

  private async material(key: string): Promise<KeyMaterial> {
    const pair = await newEncryptionKeyPair();
    return {
      key_hash: sha256(key),
      key_last4: key.slice(-4),
      encryption_public_key: pair.publicKey,
      encrypted_private_key: this.box.seal(pair.privateKey),
    };
  }

  /** The lookup stream is a reservation: a second key with the same hash cannot exist. */
  private async registerHash(hash: string, apiKeyId: string, context: CommandContext): Promise<void> {
    await this.store.append(
      apiKeyHashStream(hash),
      [toAppend({ type: 'ApiKeyHashRegistered', data: { api_key_id: apiKeyId, key_hash: hash } }, context, null)],
      'no_stream',
    );
  }
}

/** The lookup stream's only event names the key it points at. */
const hashPointer = {
  initialState: null as string | null,
  evolve: (_: string | null, event: ApiKeyHashRegistered): string | null => event.data.api_key_id,
};

export const actorForKey = (state: ActiveApiKey): Actor => ({
  kind: 'api_key',
  organizationId: state.organization_id,
  mode: state.mode,
  id: state.id,
});
