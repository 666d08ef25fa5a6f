import { ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { IsOptional, Matches } from 'class-validator';
import {
  GetCheckpointConsistencyQuery,
  ListAuditCheckpointsQuery,
} from '@app/application/audit/list-audit-checkpoints/list-audit-checkpoints.query';
import { Public } from '../http/auth/auth.decorators';
import { LimitField } from '../http/pagination';
import { OperatorGuard } from './operator.guard';
import { ApiRoute } from '../openapi/api-route.decorator';

const TREE_SIZE = /^\d{1,15}$/;

/** Style A over the checkpoints, newest first: the cursor is the tree size of the last one of the previous page. */
export class AuditCheckpointsDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20 })
  @LimitField()
  limit?: number;

  @ApiPropertyOptional({ pattern: '^\\d{1,15}$', description: 'A tree size: next_cursor of the previous page' })
  @IsOptional()
  @Matches(TREE_SIZE, { message: 'cursor must be a next_cursor returned by a previous page' })
  cursor?: string;
}

export class CheckpointConsistencyDto {
  @ApiProperty({ pattern: '^\\d{1,15}$', description: 'The tree_size of the earlier checkpoint' })
  @Matches(TREE_SIZE, { message: 'first must be the tree_size of a checkpoint' })
  first!: string;

  @ApiProperty({ pattern: '^\\d{1,15}$', description: 'The tree_size of the later checkpoint' })
  @Matches(TREE_SIZE, { message: 'second must be the tree_size of a checkpoint' })
  second!: string;
}

/**
 * The signed checkpoints over the log and their public key (issue 23; docs/decisions/audit.md,
 * "Signed checkpoints"), behind the operator token as every /admin route; and the consistency
 * proof between two of them, so an auditor who kept an older checkpoint can check the log only grew.
 */
@ApiTags('Operator')
@Controller('admin/audit')
@Public()
@UseGuards(OperatorGuard)
export class AdminAuditCheckpointsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('checkpoints')
  @ApiRoute({
    id: 'operatorListAuditCheckpoints',
    summary: 'Operator: the signed checkpoints over the log, with their public key',
    ok: { status: 200, schema: 'AuditCheckpoints', description: 'Checkpoints, newest first' },
    errors: { 400: 'A bad limit or cursor (validation_error)' },
  })
  checkpoints(@Query() q: AuditCheckpointsDto) {
    return this.queries.execute(
      new ListAuditCheckpointsQuery(q.limit ?? 20, q.cursor === undefined ? undefined : Number(q.cursor)),
    );
  }

  @Get('checkpoints/consistency')
  @ApiRoute({
    id: 'operatorGetCheckpointConsistency',
    summary: 'Operator: proof that a later checkpoint extends an earlier one',
    ok: { status: 200, schema: 'CheckpointConsistency', description: 'The consistency proof' },
    errors: {
      400: 'first or second missing or not a tree size, or not in order (validation_error)',
      404: 'No signed checkpoint of that tree size (checkpoint_not_found)',
    },
  })
  consistency(@Query() q: CheckpointConsistencyDto) {
    return this.queries.execute(new GetCheckpointConsistencyQuery(Number(q.first), Number(q.second)));
  }
}
