import type { ApiKeysService } from '@app/application/access';

/**
 * Whether the key a stream was opened with still opens it (decisions §10): a stream outlives the
 * request that authenticated it, so the key is asked again before each write and every
 * `keyCheckMs` while the stream waits, and a revocation or rotation (the old secret no longer
 * resolves) ends it. Asking resolves the credential as the guard does, from the key's streams,
 * so a revocation through any API process is seen.
 */
export class KeyWatch {
  private timer: NodeJS.Timeout | null = null;
  private lost = false;

  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly credential: string,
    private readonly keyId: string,
  ) {}

  /** True while the credential still resolves to the key; once false, false for good. */
  async valid(): Promise<boolean> {
    if (this.lost) return false;
    const key = await this.apiKeys.resolve(this.credential);
    if (key?.id !== this.keyId) this.lost = true;
    return !this.lost;
  }

  /** Calls `onLost` once, within `everyMs` of the key being revoked or rotated. */
  poll(everyMs: number, onLost: () => void): void {
    this.timer = setInterval(() => {
      void this.valid().then(
        (ok) => ok || (this.stop(), onLost()),
        () => undefined,
      );
    }, everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/** The credential of an `Authorization: Bearer …` header (the scheme is case-insensitive, RFC 9110 §11.1). */
export const bearerCredential = (header: string | undefined): string =>
  /^bearer +(\S+)$/i.exec(header ?? '')?.[1] ?? '';
