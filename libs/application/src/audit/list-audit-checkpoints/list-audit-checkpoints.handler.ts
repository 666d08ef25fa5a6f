import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { domainError, invalid } from '@app/domain';
import { AuditCheckpoints } from '@app/platform/audit-checkpoints/audit-checkpoints';
import { CHECKPOINT_FORMAT } from '@app/platform/audit-checkpoints/checkpoint';
import { DomainException } from '../../command-handling/domain-exception';
import {
  GetCheckpointConsistencyQuery,
  ListAuditCheckpointsQuery,
  type AuditCheckpointsPage,
  type CheckpointConsistency,
  type CheckpointKey,
} from './list-audit-checkpoints.query';

const keyOf = (checkpoints: AuditCheckpoints): CheckpointKey => ({
  public_key: checkpoints.key.publicKeyPem,
  key_id: checkpoints.key.keyId,
  algorithm: 'Ed25519',
  format: CHECKPOINT_FORMAT,
});

@QueryHandler(ListAuditCheckpointsQuery)
export class ListAuditCheckpointsHandler implements IQueryHandler<ListAuditCheckpointsQuery> {
  constructor(private readonly checkpoints: AuditCheckpoints) {}

  async execute({ limit, before }: ListAuditCheckpointsQuery): Promise<AuditCheckpointsPage> {
    const page = this.checkpoints.list(limit, before);
    const last = page.items[page.items.length - 1];
    return {
      key: keyOf(this.checkpoints),
      data: page.items,
      meta: {
        pagination: { has_more: page.hasMore, next_cursor: page.hasMore && last ? String(last.tree_size) : null },
      },
    };
  }
}

@QueryHandler(GetCheckpointConsistencyQuery)
export class GetCheckpointConsistencyHandler implements IQueryHandler<GetCheckpointConsistencyQuery> {
  constructor(private readonly checkpoints: AuditCheckpoints) {}

  async execute({ first, second }: GetCheckpointConsistencyQuery): Promise<CheckpointConsistency> {
    if (first > second)
      throw new DomainException(
        invalid('first', 'must be at most second (tree sizes of two checkpoints, older first)'),
      );
    const proof = this.checkpoints.consistency(first, second);
    if (!proof) {
      throw new DomainException(
        domainError(
          'not_found',
          'checkpoint_not_found',
          `No signed checkpoints of tree sizes ${first} and ${second}: both must be tree_size values of GET /admin/audit/checkpoints`,
        ),
      );
    }
    return { key: keyOf(this.checkpoints), ...proof };
  }
}
