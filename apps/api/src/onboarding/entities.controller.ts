import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { IsIn, IsOptional } from 'class-validator';
import { CreateEntityCommand, GetEntityQuery, UpdateEntityCommand } from '@app/application/onboarding';
import type { CommandContext } from '@app/application/command-handling';
import { presentBusinessUpdate, presentIndividualUpdate } from '@app/read-models/onboarding/entity-update.presenter';
import { presentEntity, presentQuickStart } from '@app/read-models/onboarding/entity.presenter';
import { ListEntitiesQuery } from '@app/read-models/onboarding/list-entities.query';
import { ApiKeyOnly, Ctx } from '../http/auth/auth.decorators';
import { StyleAQuery, styleA, styleAQuery } from '../http/pagination';
import { CreateBusinessEntityDto, CreateIndividualEntityDto, QuickStartEntityDto } from './entity.dto';
import { UpdateBusinessEntityDto, UpdateIndividualEntityDto } from './entity-update.dto';
import { AsOf } from '../audit/as-of.interceptor';

export class ListEntitiesDto extends StyleAQuery {
  @IsOptional()
  @IsIn(['individual', 'business'], { message: 'type must be individual or business' })
  type?: 'individual' | 'business';

  @IsOptional()
  @IsIn(['pending', 'approved', 'rejected', 'suspended'], { message: 'status must be pending, approved, rejected or suspended' })
  status?: string;
}

@Controller()
export class EntitiesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('entities')
  @ApiKeyOnly()
  async quickStart(@Ctx() ctx: CommandContext, @Body() body: QuickStartEntityDto) {
    const profile = { first_name: body.first_name, last_name: body.last_name, email: body.email, date_of_birth: null, country_of_residence: body.country };
    return presentQuickStart(await this.commands.execute(new CreateEntityCommand(ctx, { type: 'individual', profile, address: null, meta: {}, creation_context: 'quick_start' })));
  }

  @Post('individual-entities')
  @ApiKeyOnly()
  async createIndividual(@Ctx() ctx: CommandContext, @Body() body: CreateIndividualEntityDto) {
    const { meta, ...profile } = body;
    return presentEntity(await this.commands.execute(new CreateEntityCommand(ctx, { type: 'individual', profile: { ...profile }, address: null, meta: meta ?? {}, creation_context: 'api' })));
  }

  @Post('business-entities')
  @ApiKeyOnly()
  async createBusiness(@Ctx() ctx: CommandContext, @Body() body: CreateBusinessEntityDto) {
    const { meta, registered_address, trading_name, ...profile } = body;
    const command = new CreateEntityCommand(ctx, {
      type: 'business',
      profile: { ...profile, trading_name: trading_name ?? null },
      address: { ...registered_address },
      meta: meta ?? {},
      creation_context: 'api',
    });
    return presentEntity(await this.commands.execute(command));
  }

  @Get('entities')
  async list(@Ctx() ctx: CommandContext, @Query() query: ListEntitiesDto) {
    const filter = { organization_id: ctx.actor.organizationId, mode: ctx.actor.mode, entity_id: ctx.actor.entityId, type: query.type, status: query.status };
    const page = await this.queries.execute(new ListEntitiesQuery(filter, styleAQuery(query)));
    return styleA(page, (doc) => presentEntity(doc.entity));
  }

  @Get('entities/:id')
  @AsOf()
  async get(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    return presentEntity(await this.queries.execute(new GetEntityQuery(ctx.actor, id)));
  }

  @Patch('individual-entities/:id')
  async updateIndividual(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: UpdateIndividualEntityDto) {
    const { state, applied } = await this.commands.execute(new UpdateEntityCommand(ctx, id, { type: 'individual', patch: body }));
    if (state.type !== 'individual') throw new Error('an individual update returned a business');
    return presentIndividualUpdate(state, applied);
  }

  @Patch('business-entities/:id')
  async updateBusiness(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: UpdateBusinessEntityDto) {
    const { state, applied } = await this.commands.execute(new UpdateEntityCommand(ctx, id, { type: 'business', patch: body }));
    if (state.type !== 'business') throw new Error('a business update returned an individual');
    return presentBusinessUpdate(state, applied);
  }
}
