export const apiKeyStream = (id: string) => `api-key-${id}`;
export const apiKeyHashStream = (hash: string) => `api-key-hash-${hash}`;
export const entityTokenStream = (hash: string) => `entity-token-${hash}`;
/** Marks that the platform has issued its first credential, so the generated key is printed once only. */
export const BOOTSTRAP_STREAM = 'platform-bootstrap';
