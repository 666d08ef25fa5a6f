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
import { ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/api-route.decorator';
import { ref, styleAList } from '@app/read-models/schema-dsl';

export class ListEntitiesDto extends StyleAQuery {
  @ApiPropertyOptional({ enum: ['individual', 'business'] })
  @IsOptional()
  @IsIn(['individual', 'business'], { message: 'type must be individual or business' })
  type?: 'individual' | 'business';

  @ApiPropertyOptional({ enum: ['pending', 'approved', 'rejected', 'suspended'] })
  @IsOptional()
  @IsIn(['pending', 'approved', 'rejected', 'suspended'], {
    message: 'status must be pending, approved, rejected or suspended',
  })
  status?: string;
}

@ApiTags('Entities')
@Controller()
export class EntitiesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('entities')
  @ApiKeyOnly()
  @ApiRoute({
    id: 'createQuickStartEntity',
    summary: 'Quick start: create an individual',
    description:
      'Approved at once with a sandbox key (answers status active); with a live key it is pending until an operator reviews it.',
    ok: { status: 201, schema: 'QuickStartEntity', description: 'The entity, flat' },
  })
  async quickStart(@Ctx() ctx: CommandContext, @Body() body: QuickStartEntityDto) {
    const profile = {
      first_name: body.first_name,
      last_name: body.last_name,
      email: body.email,
      date_of_birth: null,
      country_of_residence: body.country,
    };
    return presentQuickStart(
      await this.commands.execute(
        new CreateEntityCommand(ctx, {
          type: 'individual',
          profile,
          address: null,
          meta: {},
          creation_context: 'quick_start',
        }),
      ),
    );
  }

  @Post('individual-entities')
  @ApiKeyOnly()
  @ApiRoute({
    id: 'createIndividualEntity',
    summary: 'Create an individual entity',
    description: 'Pending until submitted with its identity and address documents and reviewed.',
    ok: { status: 201, schema: 'IndividualEntity', description: 'The entity, with person_id for its documents' },
  })
  async createIndividual(@Ctx() ctx: CommandContext, @Body() body: CreateIndividualEntityDto) {
    const { meta, ...profile } = body;
    return presentEntity(
      await this.commands.execute(
        new CreateEntityCommand(ctx, {
          type: 'individual',
          profile: { ...profile },
          address: null,
          meta: meta ?? {},
          creation_context: 'api',
        }),
      ),
    );
  }

  @Post('business-entities')
  @ApiKeyOnly()
  @ApiRoute({
    id: 'createBusinessEntity',
    summary: 'Create a business entity',
    ok: { status: 201, schema: 'BusinessEntity', description: 'The entity, pending' },
  })
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
  @ApiRoute({
    id: 'listEntities',
    summary: 'List entities',
    description: 'With an entity token: its own entity.',
    ok: { status: 200, schema: styleAList(ref('Entity')), description: 'Entities, newest first' },
    readModel: true,
  })
  async list(@Ctx() ctx: CommandContext, @Query() query: ListEntitiesDto) {
    const filter = {
      organization_id: ctx.actor.organizationId,
      mode: ctx.actor.mode,
      entity_id: ctx.actor.entityId,
      type: query.type,
      status: query.status,
    };
    const page = await this.queries.execute(new ListEntitiesQuery(filter, styleAQuery(query)));
    return styleA(page, (doc) => presentEntity(doc.entity));
  }

  @Get('entities/:id')
  @AsOf()
  @ApiRoute({
    id: 'getEntity',
    summary: 'Retrieve an entity',
    ok: { status: 200, schema: 'Entity', description: 'The entity' },
    errors: {
      400: 'A malformed as_of (validation_error)',
      403: 'Another entity’s, with an entity token (forbidden)',
      404: 'No such entity, or none yet at as_of (entity_not_found)',
    },
  })
  async get(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    return presentEntity(await this.queries.execute(new GetEntityQuery(ctx.actor, id)));
  }

  @Patch('individual-entities/:id')
  @ApiRoute({
    id: 'updateIndividualEntity',
    summary: 'Update an individual entity',
    ok: { status: 200, schema: 'IndividualEntityUpdate', description: 'What changed, and the entity after it' },
    errors: {
      403: 'Another entity’s (forbidden)',
      404: 'No such individual entity (entity_not_found)',
      409: 'Under review or decided (entity_under_review, entity_rejected)',
      422: 'A business rule (entity_mismatch, …)',
    },
  })
  async updateIndividual(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: UpdateIndividualEntityDto) {
    const { state, applied } = await this.commands.execute(
      new UpdateEntityCommand(ctx, id, { type: 'individual', patch: body }),
    );
    if (state.type !== 'individual') throw new Error('an individual update returned a business');
    return presentIndividualUpdate(state, applied);
  }

  @Patch('business-entities/:id')
  @ApiRoute({
    id: 'updateBusinessEntity',
    summary: 'Update a business entity',
    description: 'Business details, addresses, officers (add, update, remove) and review meta.',
    ok: { status: 200, schema: 'BusinessEntityUpdate', description: 'What changed, and the entity after it' },
    errors: {
      403: 'Another entity’s (forbidden)',
      404: 'No such business entity, officer or person (entity_not_found, person_not_found)',
      409: 'Under review or decided (entity_under_review, entity_rejected)',
      422: 'A business rule (ownership_exceeds_total, …)',
    },
  })
  async updateBusiness(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: UpdateBusinessEntityDto) {
    const { state, applied } = await this.commands.execute(
      new UpdateEntityCommand(ctx, id, { type: 'business', patch: body }),
    );
    if (state.type !== 'business') throw new Error('a business update returned an individual');
    return presentBusinessUpdate(state, applied);
  }
}
