import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { notFound } from '@app/domain';
import { ApiKeysService, EntityTokensService, type ActiveApiKey } from '@app/application/access';
import { DomainException, type CommandContext } from '@app/application/command-handling';
import { READ_STORE, type ReadStore } from '@app/platform/read-store/read-store.port';
import { ApiKeyOnly, Ctx } from '../http/auth/auth.decorators';
import { StyleAQuery, styleA, styleAQuery } from '../http/pagination';
import type { ApiKeyDocument } from '@app/read-models/access/api-key.projection';
import { CreateApiKeyDto, CreateEntityTokenDto } from './api-key.dto';

const present = (k: ActiveApiKey | ApiKeyDocument) => ({
  id: k.id,
  object: 'api_key',
  name: k.name,
  mode: k.mode,
  status: k.status,
  last4: k.key_last4,
  encryption_public_key: k.encryption_public_key,
  created: k.created,
  updated: k.updated,
});

@Controller()
export class ApiKeysController {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly tokens: EntityTokensService,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  @Get('api-keys/current')
  async current(@Ctx() ctx: CommandContext) {
    const key = await this.apiKeys.get(ctx, ctx.actor.id);
    if (!key) throw new DomainException(notFound('api_key', ctx.actor.id));
    return present(key);
  }

  @Post('api-keys')
  @ApiKeyOnly()
  async create(@Ctx() ctx: CommandContext, @Body() body: CreateApiKeyDto) {
    const { key, state } = await this.apiKeys.create(ctx, { name: body.name ?? null, mode: body.mode ?? 'sandbox' });
    return { ...present(state), key };
  }

  @Get('api-keys')
  @ApiKeyOnly()
  async list(@Ctx() ctx: CommandContext, @Query() query: StyleAQuery) {
    const page = await this.readStore.find<ApiKeyDocument>('api_keys', styleAQuery(query, { organization_id: ctx.actor.organizationId }));
    return styleA(page, present);
  }

  @Post('api-keys/:id/rotate')
  @ApiKeyOnly()
  @HttpCode(200)
  async rotate(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    const { key, state } = await this.apiKeys.rotate(ctx, id);
    return { ...present(state), key };
  }

  @Delete('api-keys/:id')
  @ApiKeyOnly()
  async revoke(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    return present(await this.apiKeys.revoke(ctx, id));
  }

  @Post('entity-tokens')
  @ApiKeyOnly()
  async issueToken(@Ctx() ctx: CommandContext, @Body() body: CreateEntityTokenDto) {
    return this.tokens.issue(ctx, body.entity_id, body.expires_in ?? 3600);
  }
}
