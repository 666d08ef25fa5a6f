import { Command } from '@nestjs/cqrs';
import type { IntentActionRecord } from '@app/domain/collections';
import type { CommandContext } from '../../command-handling';

/** How the acquirer backstop runs the step: it may take over a claim older than `takeOverAfterMs`. */
export interface AuthorizationBackstop {
  readonly takeOverAfterMs: number;
  /** Aborts its waiting (shutdown, or the manager's lease lost). */
  readonly signal: AbortSignal;
}

/**
 * Asks the acquirer to authorize a `pending` action (3-D Secure passed or not needed) and settles
 * a decided one. Sent by the confirming, authenticating or verifying request, and by the acquirer
 * process manager as the backstop (`backstop`); whoever claims the call first makes it, the others
 * wait for its outcome (decisions/collections.md "One acquirer call per step").
 */
export class AuthorizeIntentActionCommand extends Command<IntentActionRecord> {
  constructor(
    readonly context: CommandContext,
    readonly intentActionId: string,
    readonly backstop: AuthorizationBackstop | null = null,
  ) {
    super();
  }
}
