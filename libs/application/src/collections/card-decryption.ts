import { constants, privateDecrypt } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { domainError } from '@app/domain';
import { apiKeyDecider } from '@app/domain/access';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { SECRET_BOX, type SecretBox } from '@app/platform/security/secret-box';
import { DomainException, foldStream, type Actor } from '../command-handling';
import { apiKeyStream } from '../access/streams';

const undecryptable = () =>
  new DomainException(
    domainError(
      'validation',
      'invalid_encrypted_data',
      'payment_type_data.data could not be decrypted with this API key',
      {
        errors: [
          {
            field: 'intent_action.payment_type_data.data',
            message: "must be card data encrypted with RSA-OAEP (SHA-256) under this API key's encryption_public_key",
          },
        ],
      },
    ),
  );

/**
 * Card data arrives encrypted under the calling key's own public key (decisions §1): the key
 * itself, or for an entity token the key that issued it. The plaintext is returned to the caller
 * and never stored; what cannot be decrypted or parsed is one error, never a hint of why.
 */
@Injectable()
export class CardDecryption {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async decrypt(actor: Actor, base64: string): Promise<unknown> {
    const key = (await foldStream(this.store, apiKeyStream(actor.id), apiKeyDecider)).state;
    if (key.status !== 'active' || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) throw undecryptable();
    try {
      const privateKey = this.box.open(key.encrypted_private_key).toString('utf8');
      const plain = privateDecrypt(
        { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        Buffer.from(base64, 'base64'),
      );
      return JSON.parse(plain.toString('utf8'));
    } catch {
      throw undecryptable();
    }
  }
}
