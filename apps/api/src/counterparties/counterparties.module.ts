import { Module } from '@nestjs/common';
import {
  AddPaymentDetailHandler,
  CreateCounterpartyHandler,
  DeactivateCounterpartyHandler,
  GetCounterpartyHandler,
  LookupCounterpartyHandler,
  UpdateCounterpartyHandler,
} from '@app/application/counterparties';
import { ListCounterpartiesHandler } from '@app/read-models/counterparties/list-counterparties.query-handler';
import { ListPaymentDetailsHandler } from '@app/read-models/counterparties/list-payment-details.query-handler';
import { CounterpartyReactionsModule } from '@app/application/counterparties/counterparty-reactions.module';
import { CounterpartiesController } from './counterparties.controller';
import { CounterpartyLookupsController } from './counterparty-lookups.controller';

@Module({
  // IndexPaymentDetail, sent by the backfill process manager.
  imports: [CounterpartyReactionsModule],
  controllers: [CounterpartiesController, CounterpartyLookupsController],
  providers: [
    CreateCounterpartyHandler,
    UpdateCounterpartyHandler,
    DeactivateCounterpartyHandler,
    AddPaymentDetailHandler,
    GetCounterpartyHandler,
    LookupCounterpartyHandler,
    ListCounterpartiesHandler,
    ListPaymentDetailsHandler,
  ],
})
export class CounterpartiesModule {}
