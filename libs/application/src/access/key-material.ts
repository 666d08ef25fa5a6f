import type { KeyMaterial } from '@app/domain/access';
import type { Mode } from '@app/platform/event-store/event-mode';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { newEncryptionKeyPair, sha256 } from '@app/platform/security/credentials';
import type { SecretBox } from '@app/platform/security/secret-box';
import { toAppend, type CommandContext } from '../command-handling';
import { apiKeyHashStream } from './streams';

/** What the log keeps of a key: its hash and last four characters, never the key itself. */
export async function newKeyMaterial(box: SecretBox, key: string): Promise<KeyMaterial> {
  const pair = await newEncryptionKeyPair();
  return {
    key_hash: sha256(key),
    key_last4: key.slice(-4),
    encryption_public_key: pair.publicKey,
    encrypted_private_key: box.seal(pair.privateKey),
  };
}

/** The lookup stream is a reservation: a second key with the same hash cannot exist. It has its key's mode. */
export async function registerKeyHash(
  store: EventStore,
  hash: string,
  apiKeyId: string,
  context: CommandContext,
  mode: Mode,
): Promise<void> {
  await store.append(
    apiKeyHashStream(hash),
    [
      toAppend(
        { type: 'ApiKeyHashRegistered', data: { api_key_id: apiKeyId, key_hash: hash } },
        context,
        null,
        1,
        mode,
      ),
    ],
    'no_stream',
  );
}
