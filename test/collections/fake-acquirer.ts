import type { Acquirer, Authorization, AuthorizationRequest, Tokenization } from '@app/application/collections';
import type { CardData } from '@app/domain/collections';
import type { Mode } from '@app/platform/event-store/event-mode';

/**
 * A controllable acquirer for tests, injected through the ACQUIRER port. It deduplicates by
 * idempotency key as a real one does (a key's first answer, performed once), counts every call,
 * and can hold callers at its door: a held caller has claimed the step but not reached the
 * acquirer yet (nothing counted), which is where a test races it.
 */
export class FakeAcquirer implements Acquirer {
  /** The key of every `authorize` that reached the acquirer, in order. */
  readonly calls: string[] = [];
  private readonly performed = new Map<string, Promise<Authorization>>();
  private gate: Promise<void> | null = null;
  private open: (() => void) | null = null;
  private held = 0;
  private heldWaiters: Array<() => void> = [];
  answer: Authorization = { approved: true };

  async tokenize(_card: CardData | null, mode: Mode): Promise<Tokenization> {
    return mode === 'sandbox'
      ? { token: `fake_${Math.random().toString(36).slice(2, 12)}` }
      : { declined: 'acquirer_unavailable' };
  }

  async authorize(request: AuthorizationRequest): Promise<Authorization> {
    if (this.gate) {
      this.held++;
      this.heldWaiters.splice(0).forEach((wake) => wake());
      await this.gate;
      this.held--;
    }
    this.calls.push(request.idempotency_key);
    let answer = this.performed.get(request.idempotency_key);
    if (!answer) this.performed.set(request.idempotency_key, (answer = Promise.resolve(this.answer)));
    return answer;
  }

  /** From now on callers wait at the door until `release`. */
  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.open?.();
    this.gate = this.open = null;
  }

  /** Resolves once a caller is waiting at the door. */
  async someoneHeld(): Promise<void> {
    while (this.held === 0) await new Promise<void>((wake) => this.heldWaiters.push(wake));
  }

  callsFor(key: string): number {
    return this.calls.filter((k) => k === key).length;
  }

  /** Authorizations actually performed (distinct keys answered). */
  performedFor(key: string): number {
    return this.performed.has(key) ? 1 : 0;
  }
}
