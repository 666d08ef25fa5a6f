import { domainError, rule, type DomainError, type FieldError } from '../../shared';
import { isSupportedCurrency } from '../../accounts/currency';
import { checkBankCoordinates, type BankScheme } from '../coordinates/bank-schemes';
import { isWalletAddress, phoneProblem, type Chain } from '../coordinates/wallets';
import type { PaymentDetailBlock, PaymentMethod } from './counterparty.events';

export interface NewPaymentDetail {
  readonly payment_method: PaymentMethod;
  readonly currency: string;
  readonly country: string;
  readonly bank?: {
    readonly account_number?: string | null;
    readonly account_name?: string | null;
    readonly scheme: BankScheme;
    readonly code: string;
  };
  readonly momo?: { readonly phone_number: string; readonly provider: string };
  readonly wallet?: { readonly address: string; readonly chain: Chain };
  readonly book?: { readonly account_id: string };
}

/** The destination of a book transfer, as folded from its account stream by the caller. */
export interface BookDestination {
  readonly account_id: string;
  readonly currency: string;
}

const BLOCK_OF: Record<PaymentMethod, 'bank' | 'momo' | 'wallet' | 'book'> = {
  'bank-transfer': 'bank',
  'momo-transfer': 'momo',
  'stablecoin-transfer': 'wallet',
  'book-transfer': 'book',
};
const STABLECOINS = ['USC', 'UST'];

const invalidFields = (errors: readonly FieldError[]): DomainError =>
  domainError('validation', 'validation_error', `${errors[0].field}: ${errors[0].message}`, { errors });

/** Checks a payment detail against its method and scheme; returns the normalized block or the error. */
export function checkPaymentDetail(
  input: NewPaymentDetail,
  book: BookDestination | null,
): PaymentDetailBlock | DomainError {
  const block = BLOCK_OF[input.payment_method];
  const errors: FieldError[] = [];
  for (const other of Object.values(BLOCK_OF)) {
    if (other !== block && input[other] !== undefined)
      errors.push({ field: other, message: `${other} is not accepted with payment_method ${input.payment_method}` });
  }
  if (input[block] === undefined)
    errors.push({ field: block, message: `${block} is required with payment_method ${input.payment_method}` });
  if (!isSupportedCurrency(input.currency))
    errors.push({ field: 'currency', message: 'currency must be an uppercase ISO 4217 code, USC or UST' });
  else if (
    (input.payment_method === 'stablecoin-transfer') !== STABLECOINS.includes(input.currency) &&
    input.payment_method !== 'book-transfer'
  ) {
    errors.push({
      field: 'currency',
      message:
        input.payment_method === 'stablecoin-transfer'
          ? 'stablecoin transfers carry USC or UST'
          : 'USC and UST move by stablecoin-transfer',
    });
  }
  if (errors.length) return invalidFields(errors);
  switch (input.payment_method) {
    case 'bank-transfer': {
      const bank = input.bank!;
      const checked = checkBankCoordinates({
        scheme: bank.scheme,
        code: bank.code,
        account_number: bank.account_number,
        country: input.country,
      });
      if (Array.isArray(checked))
        return invalidFields(
          checked.map((e) => ({ ...e, field: e.field === 'country' ? 'country' : `bank.${e.field}` })),
        );
      return {
        payment_method: 'bank-transfer',
        bank: {
          account_number: checked.account_number,
          account_name: bank.account_name ?? null,
          scheme: bank.scheme,
          code: checked.code,
        },
      };
    }
    case 'momo-transfer': {
      const problem = phoneProblem(input.momo!.phone_number, input.country);
      if (problem) return invalidFields([{ field: 'momo.phone_number', message: `momo.phone_number ${problem}` }]);
      return {
        payment_method: 'momo-transfer',
        momo: { phone_number: input.momo!.phone_number, provider: input.momo!.provider },
      };
    }
    case 'stablecoin-transfer': {
      const { address, chain } = input.wallet!;
      if (!isWalletAddress(chain, address)) {
        const format =
          chain === 'solana' ? 'a base58 32-byte public key' : '0x and 40 hex digits (EIP-55 checksum when mixed case)';
        return invalidFields([{ field: 'wallet.address', message: `wallet.address must be ${format} on ${chain}` }]);
      }
      return { payment_method: 'stablecoin-transfer', wallet: { address, chain } };
    }
    case 'book-transfer': {
      if (!book || book.account_id !== input.book!.account_id)
        return invalidFields([{ field: 'book.account_id', message: 'no account of this organization has this id' }]);
      if (book.currency !== input.currency) {
        return rule('currency_mismatch', `The destination account holds ${book.currency}, not ${input.currency}`, [
          { field: 'currency', message: `must be ${book.currency}` },
        ]);
      }
      return { payment_method: 'book-transfer', book: { account_id: book.account_id } };
    }
  }
}
