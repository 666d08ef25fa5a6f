import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { CreateApiKeyCommand, GetApiKeyQuery, IssueEntityTokenCommand, managedKeyModes, RevokeApiKeyCommand, RotateApiKeyCommand } from '@app/application/access';
import type { CommandContext } from '@app/application/command-handling';
import { presentApiKey } from '@app/read-models/access/api-key.presenter';
import { ListApiKeysQuery } from '@app/read-models/access/list-api-keys.query';
import { ApiKeyOnly, Ctx } from '../http/auth/auth.decorators';
import { StyleAQuery, styleA, styleAQuery } from '../http/pagination';
import { CreateApiKeyDto, CreateEntityTokenDto } from './api-key.dto';

@Controller()
export class ApiKeysController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('api-keys/current')
  async current(@Ctx() ctx: CommandContext) {
    return presentApiKey(await this.queries.execute(new GetApiKeyQuery(ctx.actor, ctx.actor.id)));
  }

  @Post('api-keys')
  @ApiKeyOnly()
  async create(@Ctx() ctx: CommandContext, @Body() body: CreateApiKeyDto) {
    const { key, state } = await this.commands.execute(new CreateApiKeyCommand(ctx, { name: body.name ?? null, mode: body.mode ?? 'sandbox' }));
    return { ...presentApiKey(state), key };
  }

  @Get('api-keys')
  @ApiKeyOnly()
  async list(@Ctx() ctx: CommandContext, @Query() query: StyleAQuery) {
    return styleA(await this.queries.execute(new ListApiKeysQuery(ctx.actor.organizationId, managedKeyModes(ctx.actor), styleAQuery(query))), presentApiKey);
  }

  @Post('api-keys/:id/rotate')
  @ApiKeyOnly()
  @HttpCode(200)
  async rotate(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    const { key, state } = await this.commands.execute(new RotateApiKeyCommand(ctx, id));
    return { ...presentApiKey(state), key };
  }

  @Delete('api-keys/:id')
  @ApiKeyOnly()
  async revoke(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    return presentApiKey(await this.commands.execute(new RevokeApiKeyCommand(ctx, id)));
  }

  @Post('entity-tokens')
  @ApiKeyOnly()
  async issueToken(@Ctx() ctx: CommandContext, @Body() body: CreateEntityTokenDto) {
    return this.commands.execute(new IssueEntityTokenCommand(ctx, { entityId: body.entity_id, expiresInSeconds: body.expires_in ?? 3600 }));
  }
}
