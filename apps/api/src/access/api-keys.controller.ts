import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { CURRENT_API_VERSION } from '@app/domain';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  CreateApiKeyCommand,
  GetApiKeyQuery,
  IssueEntityTokenCommand,
  managedKeyModes,
  RevokeApiKeyCommand,
  RotateApiKeyCommand,
} from '@app/application/access';
import type { CommandContext } from '@app/application/command-handling';
import { presentApiKey } from '@app/read-models/access/api-key.presenter';
import { ListApiKeysQuery } from '@app/read-models/access/list-api-keys.query';
import { ApiKeyOnly, Ctx } from '../http/auth/auth.decorators';
import { StyleAQuery, styleA, styleAQuery } from '../http/pagination';
import { CreateApiKeyDto, CreateEntityTokenDto } from './api-key.dto';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/api-route.decorator';
import { ref, styleAList } from '@app/read-models/schema-dsl';

@ApiTags('Access')
@Controller()
export class ApiKeysController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('api-keys/current')
  @ApiRoute({
    id: 'getCurrentApiKey',
    summary: 'The caller’s API key',
    description: 'With an entity token: the key that issued it.',
    ok: { status: 200, schema: 'ApiKey', description: 'The key (never its secret)' },
  })
  async current(@Ctx() ctx: CommandContext) {
    return presentApiKey(await this.queries.execute(new GetApiKeyQuery(ctx.actor, ctx.actor.id)));
  }

  @Post('api-keys')
  @ApiKeyOnly()
  @ApiRoute({
    id: 'createApiKey',
    summary: 'Create an API key',
    ok: { status: 201, schema: 'ApiKeyWithSecret', description: 'The new key, with `key` (this response only)' },
    errors: { 403: 'A sandbox key asking for a live key (forbidden_mode)' },
  })
  async create(@Ctx() ctx: CommandContext, @Body() body: CreateApiKeyDto, @Req() req: Request) {
    // Pinned to the version the request names (checked by its middleware), else the current one, as Stripe pins a new key.
    const apiVersion =
      typeof req.headers['payments-version'] === 'string'
        ? req.headers['payments-version'].trim()
        : CURRENT_API_VERSION;
    const { key, state } = await this.commands.execute(
      new CreateApiKeyCommand(ctx, { name: body.name ?? null, mode: body.mode ?? 'sandbox', apiVersion }),
    );
    return { ...presentApiKey(state), key };
  }

  @Get('api-keys')
  @ApiKeyOnly()
  @ApiRoute({
    id: 'listApiKeys',
    summary: 'List the organization’s API keys',
    description: 'A sandbox key sees sandbox keys only.',
    ok: { status: 200, schema: styleAList(ref('ApiKey')), description: 'Keys, newest first' },
    errors: { 400: 'A bad limit or cursor (validation_error)' },
    readModel: true,
  })
  async list(@Ctx() ctx: CommandContext, @Query() query: StyleAQuery) {
    return styleA(
      await this.queries.execute(
        new ListApiKeysQuery(ctx.actor.organizationId, managedKeyModes(ctx.actor), styleAQuery(query)),
      ),
      presentApiKey,
    );
  }

  @Post('api-keys/:id/rotate')
  @ApiKeyOnly()
  @HttpCode(200)
  @ApiRoute({
    id: 'rotateApiKey',
    summary: 'Rotate an API key',
    description: 'A new secret and a new encryption_public_key; the old secret stops working.',
    ok: { status: 200, schema: 'ApiKeyWithSecret', description: 'The key with its new `key`' },
    errors: {
      404: 'No such key in the caller’s organization and mode (not_found)',
      409: 'The key is revoked (conflict)',
    },
  })
  async rotate(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    const { key, state } = await this.commands.execute(new RotateApiKeyCommand(ctx, id));
    return { ...presentApiKey(state), key };
  }

  @Delete('api-keys/:id')
  @ApiKeyOnly()
  @ApiRoute({
    id: 'revokeApiKey',
    summary: 'Revoke an API key',
    ok: { status: 200, schema: 'ApiKey', description: 'The revoked key' },
    errors: {
      404: 'No such key (not_found)',
      409: 'A key cannot revoke itself (cannot_revoke_self), or it is revoked already',
    },
  })
  async revoke(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    return presentApiKey(await this.commands.execute(new RevokeApiKeyCommand(ctx, id)));
  }

  @Post('entity-tokens')
  @ApiKeyOnly()
  @ApiRoute({
    id: 'createEntityToken',
    summary: 'Issue an entity token',
    description:
      'A bearer token (etk_…) scoped to one entity: entity_id is inferred on every route, another entity’s resource answers 403.',
    ok: { status: 201, schema: 'EntityToken', description: 'The token (shown once)' },
    errors: { 404: 'No such entity (not_found)' },
  })
  async issueToken(@Ctx() ctx: CommandContext, @Body() body: CreateEntityTokenDto) {
    return this.commands.execute(
      new IssueEntityTokenCommand(ctx, { entityId: body.entity_id, expiresInSeconds: body.expires_in ?? 3600 }),
    );
  }
}
