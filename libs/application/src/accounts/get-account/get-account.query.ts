import { Query } from '@nestjs/cqrs';
import type { OpenAccountState } from '@app/domain/accounts';
import type { Actor } from '../../command-handling';

/** One account with its balance, folded from its stream (read-your-writes). */
export class GetAccountQuery extends Query<OpenAccountState> {
  constructor(
    readonly actor: Actor,
    readonly accountId: string,
  ) {
    super();
  }
}
