import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import {
  ApiKeysService,
  BootstrapService,
  CreateApiKeyHandler,
  EntityTokensService,
  GetApiKeyHandler,
  IssueEntityTokenHandler,
  RevokeApiKeyHandler,
  RotateApiKeyHandler,
} from '@app/application/access';
import { ListApiKeysHandler } from '@app/read-models/access/list-api-keys.query-handler';
import { AuthGuard } from '../http/auth/auth.guard';
import { ApiKeysController } from './api-keys.controller';

@Module({
  controllers: [ApiKeysController],
  providers: [
    // Commands
    CreateApiKeyHandler,
    RotateApiKeyHandler,
    RevokeApiKeyHandler,
    IssueEntityTokenHandler,
    // Queries
    GetApiKeyHandler,
    ListApiKeysHandler,
    // Authentication and the first start
    ApiKeysService,
    EntityTokensService,
    BootstrapService,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [ApiKeysService, EntityTokensService, BootstrapService],
})
export class AccessModule {}
