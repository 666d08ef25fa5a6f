import { Module } from '@nestjs/common';
import { BankCodesController } from './bank-codes.controller';

@Module({ controllers: [BankCodesController] })
export class BankCodesModule {}
