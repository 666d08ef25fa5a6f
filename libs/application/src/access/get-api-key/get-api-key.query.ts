import { Query } from '@nestjs/cqrs';
import type { Actor } from '../../command-handling';
import type { ActiveApiKey } from '../api-key';

/** One key, folded from its stream (read-your-writes); 404 when the actor cannot see it. */
export class GetApiKeyQuery extends Query<ActiveApiKey> {
  constructor(
    readonly actor: Actor,
    readonly apiKeyId: string,
  ) {
    super();
  }
}
