import { Module } from '@nestjs/common';
import { CounterpartiesService, CounterpartyLookupsService } from '@app/application/counterparties';
import { CounterpartiesController } from './counterparties.controller';
import { CounterpartyLookupsController } from './counterparty-lookups.controller';

@Module({
  controllers: [CounterpartiesController, CounterpartyLookupsController],
  providers: [CounterpartiesService, CounterpartyLookupsService],
  exports: [CounterpartiesService],
})
export class CounterpartiesModule {}
