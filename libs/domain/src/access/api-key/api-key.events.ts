/** Credentials and key material enter events only hashed (the key) or encrypted (the private key). */
export interface KeyMaterial {
  readonly key_hash: string;
  readonly key_last4: string;
  readonly encryption_public_key: string;
  /** AES-256-GCM under the platform master key. */
  readonly encrypted_private_key: string;
}

export type ApiKeyEvent =
  | {
      readonly type: 'ApiKeyCreated';
      readonly data: KeyMaterial & {
        readonly api_key_id: string;
        readonly organization_id: string;
        readonly name: string | null;
        readonly mode: 'sandbox' | 'live';
        readonly bootstrap: boolean;
        /** The dated API version the key is pinned to; absent in events older than versions (read as FIRST_API_VERSION). */
        readonly api_version?: string;
        readonly created: number;
      };
    }
  | {
      readonly type: 'ApiKeyRotated';
      readonly data: KeyMaterial & { readonly api_key_id: string; readonly rotated: number };
    }
  | { readonly type: 'ApiKeyRevoked'; readonly data: { readonly api_key_id: string; readonly revoked: number } };

/** The lookup stream `api-key-hash-<sha256>` holds one of these, pointing a credential at its key. */
export interface ApiKeyHashRegistered {
  readonly type: 'ApiKeyHashRegistered';
  readonly data: { readonly api_key_id: string; readonly key_hash: string };
}
