import { ApiProperty, ApiTags } from '@nestjs/swagger';
import { Controller, Get, Header, Param, Query, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { IsIn, Matches } from 'class-validator';
import { GetLedgerQuery, type LedgerPoint } from '@app/read-models/ledger';
import { Public } from '../http/auth/auth.decorators';
import { AsOfField } from '../audit/as-of.interceptor';
import { exactJson, JSON_CONTENT_TYPE } from '../ledger/exact-json';
import { OperatorGuard } from './operator.guard';
import { ApiRoute } from '../openapi/api-route.decorator';

/** `org_` + a ULID, as BootstrapService makes them (the same check as the operator's event list). */
const ORGANIZATION_ID = /^org_[0-9A-HJKMNP-TV-Z]{26}$/;

export class OrganizationLedgerParams {
  @ApiProperty({ pattern: '^org_[0-9A-HJKMNP-TV-Z]{26}$', description: 'The organization_id of GET /api-keys/current' })
  @Matches(ORGANIZATION_ID, {
    message: 'id must be an organization id (org_…): the organization_id of GET /api-keys/current',
  })
  id!: string;
}

/** A ledger is one organization and mode's (decisions §12): the operator names the mode. */
export class OrganizationLedgerDto {
  @ApiProperty({ enum: ['sandbox', 'live'] })
  @IsIn(['sandbox', 'live'], { message: 'mode must be sandbox or live' })
  mode!: 'sandbox' | 'live';

  @ApiProperty({
    required: false,
    type: 'string',
    description: 'An ISO 8601 date-time, a Unix ms integer, or position:N',
  })
  @AsOfField()
  as_of?: LedgerPoint;
}

/** `GET /admin/organizations/{id}/ledger?mode=` (decisions §12), behind the operator token as every /admin route. */
@ApiTags('Operator')
@Controller('admin')
@Public()
@UseGuards(OperatorGuard)
export class AdminLedgerController {
  constructor(private readonly queries: QueryBus) {}

  @Get('organizations/:id/ledger')
  @ApiRoute({
    id: 'operatorGetLedger',
    summary: 'Operator: the books of an organization and mode',
    ok: { status: 200, schema: 'Ledger', description: 'The ledger' },
    errors: { 400: 'Not an organization id, no mode, or a malformed as_of (validation_error)' },
  })
  @Header('Content-Type', JSON_CONTENT_TYPE)
  async ledger(@Param() params: OrganizationLedgerParams, @Query() q: OrganizationLedgerDto): Promise<string> {
    return exactJson({
      data: await this.queries.execute(new GetLedgerQuery(params.id, q.mode, q.as_of ?? null)),
    });
  }
}
