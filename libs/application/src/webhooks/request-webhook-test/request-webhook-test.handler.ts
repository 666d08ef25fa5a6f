import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { refuseTestEvent, webhookDecider } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { ulid } from '@app/platform/ids/ulid';
import { CLOCK, type Clock } from '@app/platform/clock';
import { DomainException, handleCommand } from '../../command-handling';
import { webhookStream } from '../streams';
import { loadWebhook } from '../webhook';
import { RequestWebhookTestCommand } from './request-webhook-test.command';
import { WEBHOOK_TEST_SAMPLES, type WebhookTestSamples } from './test-samples.port';

/** Recorded on the webhook's stream; the worker delivers it to that webhook with `test: true`. */
@CommandHandler(RequestWebhookTestCommand)
export class RequestWebhookTestHandler implements ICommandHandler<RequestWebhookTestCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(WEBHOOK_TEST_SAMPLES) private readonly samples: WebhookTestSamples,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, entityId, input }: RequestWebhookTestCommand): Promise<string> {
    const refused = refuseTestEvent(input.event_group, input.event_name);
    if (refused) throw new DomainException(refused);
    await loadWebhook(this.store, context.actor, entityId, input.webhook_id);
    const data = await this.samples.sample(input.event_group, input.event_name, entityId, context);
    const event_id = `evt_${ulid()}`;
    const command = { type: 'RequestWebhookTest' as const, ...input, event_id, data, now: this.clock.now() };
    await handleCommand(this.store, webhookStream(input.webhook_id), webhookDecider, command, context);
    return event_id;
  }
}
