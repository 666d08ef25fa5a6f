import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { conflict, notFound } from '@app/domain';
import { AuditCheckpoints } from '@app/platform/audit-checkpoints/audit-checkpoints';
import { modeOf } from '@app/platform/event-store/event-mode';
import { DomainException } from '../../command-handling/domain-exception';
import { visibility } from '../../command-handling/tenancy';
import { publicEvent } from '../../admin/list-organization-events/public-event';
import { GetEventProofQuery, type EventProof } from './get-event-proof.query';

const EVENT_ID = /^evt_([0-9A-HJKMNP-TV-Z]{26})$/;

/**
 * An event of the caller's organization and mode, as GET /events lists them (resource events
 * only): anything else, an unknown id, or an event no longer where the checkpoint writer indexed
 * it answers 404 like any unknown event. An event newer than the latest checkpoint answers 409
 * `event_not_checkpointed` (ownership checked first, so that says nothing of other worlds).
 */
@QueryHandler(GetEventProofQuery)
export class GetEventProofHandler implements IQueryHandler<GetEventProofQuery> {
  constructor(private readonly checkpoints: AuditCheckpoints) {}

  async execute({ actor, eventId }: GetEventProofQuery): Promise<EventProof> {
    const missing = () => new DomainException(notFound('event', eventId));
    const id = EVENT_ID.exec(eventId)?.[1];
    const located = id ? await this.checkpoints.locate(id) : null;
    if (!located || !publicEvent(located.event)) throw missing();
    const { metadata, data } = located.event;
    if (visibility({ ...metadata, mode: modeOf(metadata, data) }, actor) !== 'visible') throw missing();
    const latest = this.checkpoints.latest();
    if (!latest || latest.tree_size <= located.indexed.index) {
      const seconds = Math.ceil(this.checkpoints.intervalMs / 1000);
      throw new DomainException(
        conflict(
          'event_not_checkpointed',
          `Event ${eventId} is newer than the latest signed checkpoint${latest ? ` (tree_size ${latest.tree_size}, up to position ${latest.last_position})` : ''}; one is signed within ${seconds} s of a write: retry then`,
        ),
      );
    }
    const proof = this.checkpoints.prove(located, latest);
    return {
      object: 'event_proof',
      event_id: eventId,
      leaf: proof.leaf,
      leaf_hash: proof.leafHash,
      leaf_index: proof.leafIndex,
      audit_path: proof.auditPath,
      checkpoint: proof.checkpoint,
      public_key: this.checkpoints.key.publicKeyPem,
    };
  }
}
