import { Command } from '@nestjs/cqrs';
import type { AccountDetailsRecord, AssetType, Rail } from '@app/domain/accounts';
import type { CommandContext } from '../../command-handling';

export interface IssuedDetails {
  readonly details: AccountDetailsRecord;
  /** False when the account already had coordinates on this rail (answered 200, not 201). */
  readonly created: boolean;
}

/** Issues an account's coordinates on a rail (the currency's default when none is named); idempotent per rail. */
export class IssueAccountDetailsCommand extends Command<IssuedDetails> {
  constructor(
    readonly context: CommandContext,
    readonly input: { readonly account_id: string; readonly asset_type: AssetType; readonly rail?: Rail },
  ) {
    super();
  }
}
