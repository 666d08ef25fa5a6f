import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { AuditCheckpointConfig } from './audit-checkpoint-config';

/** The checkpoints' Ed25519 key: the private half signs, the public half is served to auditors. */
export interface AuditSigningKey {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  /** SubjectPublicKeyInfo PEM, as served by GET /admin/audit/checkpoints and inside each proof. */
  readonly publicKeyPem: string;
  /** Lowercase hex SHA-256 of the public key's DER SubjectPublicKeyInfo: names the key in each checkpoint. */
  readonly keyId: string;
  /** Where it came from: `AUDIT_SIGNING_KEY`, or the file generated into DATA_DIR. */
  readonly source: 'AUDIT_SIGNING_KEY' | 'generated';
}

/** PKCS#8 DER of an Ed25519 private key is this prefix and the 32-byte seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * `AUDIT_SIGNING_KEY` (a PKCS#8 PEM or a base64 32-byte seed) when set. Otherwise the key in
 * `DATA_DIR/audit-signing.key`, generated on first use when `create` (the writer), as the master
 * key is: owner-only, never overwritten (a second process starting at once reads the first's).
 * Without `create` (replay --verify) a missing key is null: nothing to verify against.
 */
export function loadSigningKey(
  config: Pick<AuditCheckpointConfig, 'signingKey' | 'signingKeyFile'>,
  options: { create: boolean },
): AuditSigningKey | null {
  if (config.signingKey) return describe(parsePrivateKey(config.signingKey, 'AUDIT_SIGNING_KEY'), 'AUDIT_SIGNING_KEY');
  if (!existsSync(config.signingKeyFile)) {
    if (!options.create) return null;
    const { privateKey } = generateKeyPairSync('ed25519');
    try {
      writeFileSync(config.signingKeyFile, privateKey.export({ format: 'pem', type: 'pkcs8' }), {
        mode: 0o600,
        flag: 'wx',
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return describe(parsePrivateKey(readFileSync(config.signingKeyFile, 'utf8'), config.signingKeyFile), 'generated');
}

export function parsePrivateKey(value: string, name: string): KeyObject {
  const text = value.trim();
  let key: KeyObject;
  try {
    if (text.startsWith('-----BEGIN')) {
      key = createPrivateKey({ key: text, format: 'pem' });
    } else {
      const seed = Buffer.from(text, 'base64');
      if (seed.length !== 32) throw new Error('a base64 seed must be 32 bytes');
      key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
    }
  } catch (error) {
    throw new Error(
      `${name} must be an Ed25519 private key (PKCS#8 PEM, or a base64 32-byte seed): ${(error as Error).message}`,
    );
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new Error(`${name} must be an Ed25519 key, not ${key.asymmetricKeyType}`);
  return key;
}

/** The id a checkpoint names its key by. */
export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ format: 'der', type: 'spki' }))
    .digest('hex');
}

function describe(privateKey: KeyObject, source: AuditSigningKey['source']): AuditSigningKey {
  const publicKey = createPublicKey(privateKey);
  return {
    privateKey,
    publicKey,
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    keyId: keyIdOf(publicKey),
    source,
  };
}
