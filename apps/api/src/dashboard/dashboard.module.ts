import { Module } from '@nestjs/common';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { DashboardController } from './dashboard.controller';
import { DashboardFiles } from './dashboard-files';

/** The read-only dashboard at /dashboard (apps/dashboard, built by Vite). */
@Module({
  controllers: [DashboardController],
  providers: [
    {
      provide: DashboardFiles,
      inject: [PLATFORM_CONFIG],
      useFactory: (config: PlatformConfig) => new DashboardFiles(config.dashboardDir),
    },
  ],
})
export class DashboardModule {}
