import { Inject, Injectable } from '@nestjs/common';
import { entityDecider, notFound, type ExistingEntity, type ReviewDecision } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException, handleCommand, type CommandContext } from '../command-handling';
import { ENTITY_ID, entityStream } from './streams';

/** Submission for review, and the sandbox's manual review decision. */
@Injectable()
export class OnboardingService {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async submit(context: CommandContext, entityId: string): Promise<ExistingEntity> {
    const { state } = await handleCommand(this.store, this.stream(entityId), entityDecider, { type: 'SubmitOnboarding', entity_id: entityId, now: Date.now() }, context);
    return state as ExistingEntity;
  }

  async review(context: CommandContext, entityId: string, decision: ReviewDecision, reason: string | null): Promise<ExistingEntity> {
    const { state } = await handleCommand(this.store, this.stream(entityId), entityDecider, { type: 'ReviewEntity', entity_id: entityId, decision, reason, now: Date.now() }, context);
    return state as ExistingEntity;
  }

  private stream(entityId: string): string {
    if (!ENTITY_ID.test(entityId)) throw new DomainException(notFound('entity', entityId));
    return entityStream(entityId);
  }
}
