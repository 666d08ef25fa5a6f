import { Inject, Injectable } from '@nestjs/common';
import { apiKeyDecider, type ApiKeyHashRegistered } from '@app/domain/access';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { SECRET_BOX, SecretBox } from '@app/platform/security/secret-box';
import { modeOfKey, sha256 } from '@app/platform/security/credentials';
import { foldStream } from '../command-handling';
import type { ActiveApiKey } from './api-key';
import { apiKeyHashStream, apiKeyStream } from './streams';

/** Authentication of API keys for the auth guard; the key's use cases are commands in this folder. */
@Injectable()
export class ApiKeysService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

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
}

/** The lookup stream's only event names the key it points at. */
const hashPointer = {
  initialState: null as string | null,
  evolve: (_: string | null, event: ApiKeyHashRegistered): string | null => event.data.api_key_id,
};
