import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { AddPaymentDetailCommand, CreateCounterpartyCommand, DeactivateCounterpartyCommand, GetCounterpartyQuery, UpdateCounterpartyCommand } from '@app/application/counterparties';
import type { CommandContext } from '@app/application/command-handling';
import type { ProfilePatch } from '@app/domain';
import { ListCounterpartiesQuery as ListCounterparties } from '@app/read-models/counterparties/list-counterparties.query';
import { ListPaymentDetailsQuery as ListPaymentDetails } from '@app/read-models/counterparties/list-payment-details.query';
import { Ctx } from '../http/auth/auth.decorators';
import { entityScope } from '../http/entity-scope';
import { styleA, styleAQuery } from '../http/pagination';
import { strictValidationPipe } from '../http/validation.pipe';
import { PatchBusinessCounterpartyDto, PatchIndividualCounterpartyDto } from './counterparty-patch.dto';
import { CreateCounterpartyDto, DeactivateCounterpartyDto, EntityScopeQuery, ListCounterpartiesQuery, ListPaymentDetailsQuery } from './counterparty.dto';
import { presentAddedPaymentDetail, presentCounterparty, presentPaymentDetail } from '@app/read-models/counterparties/counterparty.presenter';
import { CreatePaymentDetailDto } from './payment-detail.dto';
import { AsOf } from '../audit/as-of.interceptor';

@Controller('counterparties')
export class CounterpartiesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
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
  async list(@Ctx() ctx: CommandContext, @Query() query: ListCounterpartiesQuery) {
    const filter = { organization_id: ctx.actor.organizationId, mode: ctx.actor.mode, entity_id: entityScope(ctx.actor, query.entity_id), type: query.type, status: query.status };
    return styleA(await this.queries.execute(new ListCounterparties(filter, styleAQuery(query))), presentCounterparty);
  }

  @Get(':id')
  @AsOf()
  async get(@Ctx() ctx: CommandContext, @Param('id') id: string, @Query() query: EntityScopeQuery) {
    return presentCounterparty(await this.queries.execute(new GetCounterpartyQuery(ctx.actor, id, query.entity_id)));
  }

  /** The body's profile shape depends on the stored type, so it is validated once that is known. */
  @Patch(':id')
  async update(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: Record<string, unknown>) {
    const current = await this.queries.execute(new GetCounterpartyQuery(ctx.actor, id));
    const metatype = current.type === 'business' ? PatchBusinessCounterpartyDto : PatchIndividualCounterpartyDto;
    const dto = (await strictValidationPipe().transform(body ?? {}, { type: 'body', metatype })) as PatchIndividualCounterpartyDto;
    if (ctx.actor.entityId) entityScope(ctx.actor, dto.entity_id);
    const change = { entity_id: dto.entity_id, nickname: dto.nickname, profile: dto.profile ? ({ ...dto.profile } as ProfilePatch) : undefined, meta: dto.meta };
    return presentCounterparty(await this.commands.execute(new UpdateCounterpartyCommand(ctx, id, change)));
  }

  @Post(':id/deactivate')
  @HttpCode(200)
  async deactivate(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: DeactivateCounterpartyDto) {
    if (ctx.actor.entityId) entityScope(ctx.actor, body.entity_id);
    return presentCounterparty(await this.commands.execute(new DeactivateCounterpartyCommand(ctx, id, body.entity_id)));
  }

  @Post(':id/payment-details')
  async addPaymentDetail(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: CreatePaymentDetailDto) {
    const { payment_method, currency, country, bank, momo, wallet, book } = body;
    const detail = await this.commands.execute(new AddPaymentDetailCommand(ctx, id, { payment_method, currency, country, bank, momo, wallet, book }));
    return presentAddedPaymentDetail(detail);
  }

  @Get(':id/payment-details')
  async listPaymentDetails(@Ctx() ctx: CommandContext, @Param('id') id: string, @Query() query: ListPaymentDetailsQuery) {
    await this.queries.execute(new GetCounterpartyQuery(ctx.actor, id));
    return styleA(await this.queries.execute(new ListPaymentDetails(ctx.actor.organizationId, ctx.actor.mode, id, styleAQuery(query))), presentPaymentDetail);
  }
}
