import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { domainError, entityDecider, entityTokenDecider, type EntityTokenEvent } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { randomToken, sha256 } from '@app/platform/security/credentials';
import { CLOCK, type Clock } from '@app/platform/clock';
import { DomainException, handleCommand, loadAggregate } from '../../command-handling';
import { entityStream } from '../../onboarding/streams';
import { entityTokenStream } from '../streams';
import { IssueEntityTokenCommand, type IssuedEntityToken } from './issue-entity-token.command';

@CommandHandler(IssueEntityTokenCommand)
export class IssueEntityTokenHandler implements ICommandHandler<IssueEntityTokenCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({
    context,
    input: { entityId, expiresInSeconds },
  }: IssueEntityTokenCommand): Promise<IssuedEntityToken> {
    const entity = await loadAggregate(this.store, entityStream(entityId), entityDecider, context);
    if (!entity)
      throw new DomainException(domainError('not_found', 'entity_not_found', `No entity with id ${entityId}`));
    const token = `etk_${randomToken(40)}`;
    const now = this.clock.now();
    const data: EntityTokenEvent['data'] = {
      token_hash: sha256(token),
      entity_id: entityId,
      organization_id: context.actor.organizationId,
      api_key_id: context.actor.id,
      mode: context.actor.mode,
      expires_at: now + expiresInSeconds * 1000,
      created: now,
    };
    await handleCommand(
      this.store,
      entityTokenStream(data.token_hash),
      entityTokenDecider,
      { type: 'IssueEntityToken', data },
      context,
      { entityId },
    );
    return { token, entity_id: entityId, expires_at: data.expires_at };
  }
}
