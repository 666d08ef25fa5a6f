import { Query } from '@nestjs/cqrs';
import type { BankScheme } from '@app/domain';

export interface LookupInput {
  readonly currency: string;
  /** ISO 3166-1 alpha-3, as the spec's lookup body has it. */
  readonly country: string;
  readonly account_number?: string;
  readonly issuer: { readonly code: string; readonly scheme: BankScheme };
}

export interface LookupResult {
  readonly account_number: string;
  readonly account_name: string;
  readonly bank_code: string;
  readonly bank_name: string | null;
  readonly scheme: BankScheme;
  readonly country: string;
  readonly currency: string;
}

/** Checks coordinates against their scheme and names the bank; creates nothing. */
export class LookupCounterpartyQuery extends Query<LookupResult> {
  constructor(readonly input: LookupInput) {
    super();
  }
}
