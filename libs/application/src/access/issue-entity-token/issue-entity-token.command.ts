import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../command-handling';

export const MAX_TOKEN_SECONDS = 86_400;

export interface IssuedEntityToken {
  /** `etk_…` in clear: returned once, here; only its hash is stored. */
  readonly token: string;
  readonly entity_id: string;
  readonly expires_at: number;
}

/** Issues a token that acts for one entity of the caller's organization. */
export class IssueEntityTokenCommand extends Command<IssuedEntityToken> {
  constructor(
    readonly context: CommandContext,
    readonly input: { readonly entityId: string; readonly expiresInSeconds: number },
  ) {
    super();
  }
}
