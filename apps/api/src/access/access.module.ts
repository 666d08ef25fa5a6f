import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeysService, BootstrapService, EntityTokensService } from '@app/application/access';
import { AuthGuard } from '../http/auth/auth.guard';
import { ApiKeysController } from './api-keys.controller';

@Module({
  controllers: [ApiKeysController],
  providers: [ApiKeysService, EntityTokensService, BootstrapService, { provide: APP_GUARD, useClass: AuthGuard }],
  exports: [ApiKeysService, EntityTokensService, BootstrapService],
})
export class AccessModule {}
