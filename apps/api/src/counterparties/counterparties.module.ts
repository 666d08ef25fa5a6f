import { Module } from '@nestjs/common';
import {
  AddPaymentDetailHandler,
  CreateCounterpartyHandler,
  DeactivateCounterpartyHandler,
  GetCounterpartyHandler,
  IndexPaymentDetailHandler,
  LookupCounterpartyHandler,
  UpdateCounterpartyHandler,
} from '@app/application/counterparties';
import { ListCounterpartiesHandler } from '@app/read-models/counterparties/list-counterparties.query-handler';
import { ListPaymentDetailsHandler } from '@app/read-models/counterparties/list-payment-details.query-handler';
import { CounterpartiesController } from './counterparties.controller';
import { CounterpartyLookupsController } from './counterparty-lookups.controller';

@Module({
  controllers: [CounterpartiesController, CounterpartyLookupsController],
  providers: [
    CreateCounterpartyHandler,
    UpdateCounterpartyHandler,
    DeactivateCounterpartyHandler,
    AddPaymentDetailHandler,
    IndexPaymentDetailHandler,
    GetCounterpartyHandler,
    LookupCounterpartyHandler,
    ListCounterpartiesHandler,
    ListPaymentDetailsHandler,
  ],
})
export class CounterpartiesModule {}
