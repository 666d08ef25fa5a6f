import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import countries from 'i18n-iso-countries';
import { bankCodeOf, checkBankCoordinates, domainError, type BankCoordinates } from '@app/domain';
import { findBankByBic, findBankByCode } from '@app/platform/bank-codes';
import { DomainException } from '../../command-handling';
import { sandboxAccountName } from '../account-name';
import { LookupCounterpartyQuery, type LookupResult } from './lookup-counterparty.query';

/** The lookup's field names: the code sits in `issuer`, the rest at the top level. */
const FIELD: Record<string, string> = { code: 'issuer.code', account_number: 'account_number', country: 'country' };

@QueryHandler(LookupCounterpartyQuery)
export class LookupCounterpartyHandler implements IQueryHandler<LookupCounterpartyQuery> {
  /** Validates coordinates against their scheme and names the bank when the dataset knows its code. */
  async execute({ input }: LookupCounterpartyQuery): Promise<LookupResult> {
    const alpha2 = countries.alpha3ToAlpha2(input.country) ?? '';
    const checked = checkBankCoordinates({
      scheme: input.issuer.scheme,
      code: input.issuer.code,
      account_number: input.account_number,
      country: alpha2,
    });
    if (Array.isArray(checked)) {
      const errors = checked.map((e) => ({ field: FIELD[e.field] ?? e.field, message: e.message }));
      throw new DomainException(
        domainError(
          'rule',
          'invalid_account_details',
          `The account details fail the ${input.issuer.scheme} checks: ${errors[0].message}`,
          { errors },
        ),
      );
    }
    const bank = bankOf(checked);
    return {
      account_number: checked.account_number,
      account_name: sandboxAccountName(checked.account_number),
      bank_code: checked.scheme === 'iban' ? bankCodeOf(checked) : checked.code,
      bank_name: bank?.bank_name ?? null,
      scheme: checked.scheme,
      country: input.country,
      currency: input.currency,
    };
  }
}

export function bankOf(c: BankCoordinates) {
  if (c.scheme === 'swift') return findBankByBic(c.country, c.code);
  return findBankByCode(c.country, bankCodeOf(c));
}
