import { Body, Controller, Get, HttpCode, Inject, Param, Patch, Post, Query } from '@nestjs/common';
import { CounterpartiesService } from '@app/application/counterparties';
import { PAYMENT_DETAILS, type PaymentDetailDocument } from '@app/read-models/counterparties/payment-detail.projection';
import type { CommandContext } from '@app/application/command-handling';
import type { ProfilePatch } from '@app/domain';
import { READ_STORE, type ReadStore } from '@app/platform/read-store/read-store.port';
import { Ctx } from '../http/auth/auth.decorators';
import { entityScope } from '../http/entity-scope';
import { styleA, styleAQuery } from '../http/pagination';
import { strictValidationPipe } from '../http/validation.pipe';
import { PatchBusinessCounterpartyDto, PatchIndividualCounterpartyDto } from './counterparty-patch.dto';
import { CreateCounterpartyDto, DeactivateCounterpartyDto, EntityScopeQuery, ListCounterpartiesQuery, ListPaymentDetailsQuery } from './counterparty.dto';
import type { CounterpartyDocument } from '@app/read-models/counterparties/counterparty.projection';
import { presentAddedPaymentDetail, presentCounterparty, presentPaymentDetail } from '@app/read-models/counterparties/counterparty.presenter';
import { CreatePaymentDetailDto } from './payment-detail.dto';

@Controller('counterparties')
export class CounterpartiesController {
  constructor(
    private readonly counterparties: CounterpartiesService,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  @Post()
  async create(@Ctx() ctx: CommandContext, @Body() body: CreateCounterpartyDto) {
    const state = await this.counterparties.create(ctx, {
      entity_id: entityScope(ctx.actor, body.entity_id),
      type: body.type,
      nickname: body.nickname ?? null,
      profile: { ...body.profile } as ProfilePatch,
      meta: body.meta ?? {},
    });
    return presentCounterparty(state);
  }

  /** Lists trail the log by milliseconds; GET /counterparties/{id} is the read-your-writes path. */
  @Get()
  async list(@Ctx() ctx: CommandContext, @Query() query: ListCounterpartiesQuery) {
    const filter = { organization_id: ctx.actor.organizationId, entity_id: entityScope(ctx.actor, query.entity_id), type: query.type, status: query.status };
    const page = await this.readStore.find<CounterpartyDocument>('counterparties', styleAQuery(query, filter));
    return styleA(page, presentCounterparty);
  }

  @Get(':id')
  async get(@Ctx() ctx: CommandContext, @Param('id') id: string, @Query() query: EntityScopeQuery) {
    return presentCounterparty(await this.counterparties.get(ctx, id, query.entity_id));
  }

  /** The body's profile shape depends on the stored type, so it is validated once that is known. */
  @Patch(':id')
  async update(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: Record<string, unknown>) {
    const current = await this.counterparties.get(ctx, id);
    const metatype = current.type === 'business' ? PatchBusinessCounterpartyDto : PatchIndividualCounterpartyDto;
    const dto = (await strictValidationPipe().transform(body ?? {}, { type: 'body', metatype })) as PatchIndividualCounterpartyDto;
    if (ctx.actor.entityId) entityScope(ctx.actor, dto.entity_id);
    const state = await this.counterparties.update(ctx, id, {
      entity_id: dto.entity_id,
      nickname: dto.nickname,
      profile: dto.profile ? ({ ...dto.profile } as ProfilePatch) : undefined,
      meta: dto.meta,
    });
    return presentCounterparty(state);
  }

  @Post(':id/deactivate')
  @HttpCode(200)
  async deactivate(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: DeactivateCounterpartyDto) {
    if (ctx.actor.entityId) entityScope(ctx.actor, body.entity_id);
    return presentCounterparty(await this.counterparties.deactivate(ctx, id, body.entity_id));
  }

  @Post(':id/payment-details')
  async addPaymentDetail(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: CreatePaymentDetailDto) {
    const { payment_method, currency, country, bank, momo, wallet, book } = body;
    const detail = await this.counterparties.addPaymentDetail(ctx, id, { payment_method, currency, country, bank, momo, wallet, book });
    return presentAddedPaymentDetail(detail);
  }

  @Get(':id/payment-details')
  async listPaymentDetails(@Ctx() ctx: CommandContext, @Param('id') id: string, @Query() query: ListPaymentDetailsQuery) {
    await this.counterparties.get(ctx, id);
    const page = await this.readStore.find<PaymentDetailDocument>(PAYMENT_DETAILS, styleAQuery(query, { organization_id: ctx.actor.organizationId, counterparty_id: id }));
    return styleA(page, presentPaymentDetail);
  }
}
