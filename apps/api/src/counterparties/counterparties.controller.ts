import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  AddPaymentDetailCommand,
  CreateCounterpartyCommand,
  DeactivateCounterpartyCommand,
  GetCounterpartyQuery,
  UpdateCounterpartyCommand,
} from '@app/application/counterparties';
import type { CommandContext } from '@app/application/command-handling';
import type { ProfilePatch } from '@app/domain';
import { ListCounterpartiesQuery as ListCounterparties } from '@app/read-models/counterparties/list-counterparties.query';
import { ListPaymentDetailsQuery as ListPaymentDetails } from '@app/read-models/counterparties/list-payment-details.query';
import { Ctx } from '../http/auth/auth.decorators';
import { entityScope } from '../http/entity-scope';
import { styleA, styleAQuery } from '../http/pagination';
import {
  PatchBusinessCounterpartyDto,
  PatchCounterpartyDto,
  PatchIndividualCounterpartyDto,
} from './counterparty-patch.dto';
import {
  CreateCounterpartyDto,
  DeactivateCounterpartyDto,
  EntityScopeQuery,
  ListCounterpartiesQuery,
  ListPaymentDetailsQuery,
} from './counterparty.dto';
import {
  presentAddedPaymentDetail,
  presentCounterparty,
  presentPaymentDetail,
} from '@app/read-models/counterparties/counterparty.presenter';
import { CreatePaymentDetailDto } from './payment-detail.dto';
import { AsOf } from '../audit/as-of.interceptor';
import { ApiBody, ApiExtraModels, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { BusinessProfileDto, IndividualProfileDto } from './counterparty-profile.dto';
import { ApiRoute } from '../openapi/api-route.decorator';
import { ref, styleAList } from '@app/read-models/schema-dsl';

@ApiTags('Counterparties')
@ApiExtraModels(IndividualProfileDto, BusinessProfileDto, PatchIndividualCounterpartyDto, PatchBusinessCounterpartyDto)
@Controller('counterparties')
export class CounterpartiesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @ApiRoute({
    id: 'createCounterparty',
    summary: 'Create a counterparty',
    ok: { status: 201, schema: 'Counterparty', description: 'The counterparty, active' },
    errors: { 403: 'Another entity, with an entity token (forbidden)', 404: 'No such entity (entity_not_found)' },
  })
  async create(@Ctx() ctx: CommandContext, @Body() body: CreateCounterpartyDto) {
    const state = await this.commands.execute(
      new CreateCounterpartyCommand(ctx, {
        entity_id: entityScope(ctx.actor, body.entity_id),
        type: body.type,
        nickname: body.nickname ?? null,
        profile: { ...body.profile } as ProfilePatch,
        meta: body.meta ?? {},
      }),
    );
    return presentCounterparty(state);
  }

  @Get()
  @ApiRoute({
    id: 'listCounterparties',
    summary: 'List counterparties of an entity',
    ok: { status: 200, schema: styleAList(ref('Counterparty')), description: 'Counterparties, newest first' },
    errors: {
      400: 'entity_id missing with an API key, or a bad filter (validation_error)',
      403: 'Another entity’s (forbidden)',
    },
    readModel: true,
  })
  async list(@Ctx() ctx: CommandContext, @Query() query: ListCounterpartiesQuery) {
    const filter = {
      organization_id: ctx.actor.organizationId,
      mode: ctx.actor.mode,
      entity_id: entityScope(ctx.actor, query.entity_id),
      type: query.type,
      status: query.status,
    };
    return styleA(await this.queries.execute(new ListCounterparties(filter, styleAQuery(query))), presentCounterparty);
  }

  @Get(':id')
  @AsOf()
  @ApiRoute({
    id: 'getCounterparty',
    summary: 'Retrieve a counterparty',
    ok: { status: 200, schema: 'Counterparty', description: 'The counterparty' },
    errors: {
      400: 'A malformed as_of (validation_error)',
      403: 'Another entity’s (forbidden)',
      404: 'No such counterparty, or none yet at as_of (counterparty_not_found)',
    },
  })
  async get(@Ctx() ctx: CommandContext, @Param('id') id: string, @Query() query: EntityScopeQuery) {
    return presentCounterparty(await this.queries.execute(new GetCounterpartyQuery(ctx.actor, id, query.entity_id)));
  }

  @Patch(':id')
  @ApiBody({
    description:
      'The profile follows the counterparty’s type: PatchIndividualCounterpartyDto or PatchBusinessCounterpartyDto',
    // anyOf: the counterparty's stored type picks the schema, not the body, and the two share fields.
    schema: {
      anyOf: [
        { $ref: getSchemaPath(PatchIndividualCounterpartyDto) },
        { $ref: getSchemaPath(PatchBusinessCounterpartyDto) },
      ],
    },
  })
  @ApiRoute({
    id: 'updateCounterparty',
    summary: 'Update a counterparty',
    description: 'Any subset of the profile; omitted fields are unchanged, null clears an optional one.',
    ok: { status: 200, schema: 'Counterparty', description: 'The counterparty after the change' },
    errors: {
      403: 'Another entity’s (forbidden)',
      404: 'No such counterparty or entity (counterparty_not_found, entity_not_found)',
      409: 'Inactive (counterparty_inactive)',
    },
  })
  async update(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: PatchCounterpartyDto) {
    // Another's or a missing counterparty answers 403/404 before the body's entity_id is weighed.
    await this.queries.execute(new GetCounterpartyQuery(ctx.actor, id));
    if (ctx.actor.entityId) entityScope(ctx.actor, body.entity_id);
    const change = {
      entity_id: body.entity_id,
      nickname: body.nickname,
      profile: body.profile ? ({ ...body.profile } as ProfilePatch) : undefined,
      meta: body.meta,
    };
    return presentCounterparty(await this.commands.execute(new UpdateCounterpartyCommand(ctx, id, change)));
  }

  @Post(':id/deactivate')
  @HttpCode(200)
  @ApiRoute({
    id: 'deactivateCounterparty',
    summary: 'Deactivate a counterparty',
    description: 'It can no longer receive transfers; reactivation is through support only.',
    ok: { status: 200, schema: 'Counterparty', description: 'The counterparty, inactive' },
    errors: {
      403: 'Another entity’s (forbidden)',
      404: 'No such counterparty (counterparty_not_found)',
      409: 'Already inactive (counterparty_inactive)',
    },
  })
  async deactivate(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: DeactivateCounterpartyDto) {
    if (ctx.actor.entityId) entityScope(ctx.actor, body.entity_id);
    return presentCounterparty(await this.commands.execute(new DeactivateCounterpartyCommand(ctx, id, body.entity_id)));
  }

  @Post(':id/payment-details')
  @ApiRoute({
    id: 'createPaymentDetail',
    summary: 'Add payment details to a counterparty',
    description:
      'Bank, mobile-money, wallet or book coordinates; formats are checked (IBAN mod-97, ABA checksum, EVM and Solana addresses).',
    ok: {
      status: 201,
      schema: 'PaymentDetail',
      description: 'The payment details: their id is a transfer’s payment_detail_id',
    },
    errors: {
      400: 'The block does not match payment_method, or its coordinates fail their format (validation_error)',
      403: 'Another entity’s (forbidden)',
      404: 'No such counterparty or book account (counterparty_not_found, account_not_found)',
      409: 'The counterparty is inactive (counterparty_inactive)',
      422: 'A business rule (invalid_destination_account, …)',
    },
  })
  async addPaymentDetail(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: CreatePaymentDetailDto) {
    const { payment_method, currency, country, bank, momo, wallet, book } = body;
    const detail = await this.commands.execute(
      new AddPaymentDetailCommand(ctx, id, { payment_method, currency, country, bank, momo, wallet, book }),
    );
    return presentAddedPaymentDetail(detail);
  }

  @Get(':id/payment-details')
  @ApiRoute({
    id: 'listPaymentDetails',
    summary: 'List payment details of a counterparty',
    ok: { status: 200, schema: styleAList(ref('PaymentDetail')), description: 'Payment details, newest first' },
    errors: { 403: 'Another entity’s (forbidden)', 404: 'No such counterparty (counterparty_not_found)' },
    readModel: true,
  })
  async listPaymentDetails(
    @Ctx() ctx: CommandContext,
    @Param('id') id: string,
    @Query() query: ListPaymentDetailsQuery,
  ) {
    await this.queries.execute(new GetCounterpartyQuery(ctx.actor, id));
    return styleA(
      await this.queries.execute(
        new ListPaymentDetails(ctx.actor.organizationId, ctx.actor.mode, id, styleAQuery(query)),
      ),
      presentPaymentDetail,
    );
  }
}
