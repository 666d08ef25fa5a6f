import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { IsOptional, Matches } from 'class-validator';
import { GetCheckpointConsistencyQuery, ListAuditCheckpointsQuery } from '@app/application/audit/list-audit-checkpoints/list-audit-checkpoints.query';
import { Public } from '../http/auth/auth.decorators';
import { LimitField } from '../http/pagination';
import { OperatorGuard } from './operator.guard';

const TREE_SIZE = /^\d{1,15}$/;

/** Style A over the checkpoints, newest first: the cursor is the tree size of the last one of the previous page. */
export class AuditCheckpointsDto {
  @LimitField()
  limit?: number;

  @IsOptional()
  @Matches(TREE_SIZE, { message: 'cursor must be a next_cursor returned by a previous page' })
  cursor?: string;
}

export class CheckpointConsistencyDto {
  @Matches(TREE_SIZE, { message: 'first must be the tree_size of a checkpoint' })
  first!: string;

  @Matches(TREE_SIZE, { message: 'second must be the tree_size of a checkpoint' })
  second!: string;
}

/**
 * The signed checkpoints over the log and their public key (issue 23; docs/decisions/audit.md,
 * "Signed checkpoints"), behind the operator token as every /admin route; and the consistency
 * proof between two of them, so an auditor who kept an older checkpoint can check the log only grew.
 */
@Controller('admin/audit')
@Public()
@UseGuards(OperatorGuard)
export class AdminAuditCheckpointsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('checkpoints')
  checkpoints(@Query() q: AuditCheckpointsDto) {
    return this.queries.execute(new ListAuditCheckpointsQuery(q.limit ?? 20, q.cursor === undefined ? undefined : Number(q.cursor)));
  }

  @Get('checkpoints/consistency')
  consistency(@Query() q: CheckpointConsistencyDto) {
    return this.queries.execute(new GetCheckpointConsistencyQuery(Number(q.first), Number(q.second)));
  }
}
