import { Query } from '@nestjs/cqrs';
import type { ExistingWebhook } from '@app/domain';
import type { Actor } from '../../command-handling';

/** One webhook's settings, folded from its stream (read-your-writes). */
export class GetWebhookQuery extends Query<ExistingWebhook> {
  constructor(
    readonly actor: Actor,
    readonly entityId: string,
    readonly webhookId: string,
  ) {
    super();
  }
}
