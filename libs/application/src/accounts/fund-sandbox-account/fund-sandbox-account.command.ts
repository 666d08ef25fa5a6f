import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../command-handling';

export interface SandboxCredit {
  readonly transaction_id: string;
  readonly account_id: string;
  readonly amount: number;
  readonly currency: string;
  readonly funded: number;
}

/** A settled sandbox credit to an account. */
export class FundSandboxAccountCommand extends Command<SandboxCredit> {
  constructor(
    readonly context: CommandContext,
    readonly accountId: string,
    readonly input: { readonly amount: number; readonly currency: string },
  ) {
    super();
  }
}
