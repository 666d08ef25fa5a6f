import { IsIn, IsOptional, IsString, Length, Matches, ValidateBy } from 'class-validator';
import { BANK_SCHEMES, CHAINS, PAYMENT_METHODS, type BankScheme, type Chain, type PaymentMethod } from '@app/domain';
import { isSupportedCurrency } from '@app/domain/accounts';
import { Block } from '../http/blocks';
import { IsCountryCode } from '../onboarding/validators';

export const IsSupportedCurrency = () =>
  ValidateBy({ name: 'isSupportedCurrency', validator: { validate: isSupportedCurrency, defaultMessage: () => 'currency must be an uppercase ISO 4217 code, USC or UST' } });

export class BankDto {
  /** Optional only with scheme `iban`, where the IBAN is the code (checked by the domain). */
  @IsOptional() @IsString() @Length(1, 100) account_number?: string;
  @IsOptional() @IsString() @Length(1, 140) account_name?: string;
  @IsIn(BANK_SCHEMES, { message: `scheme must be one of ${BANK_SCHEMES.join(', ')}` }) scheme: BankScheme;
  @IsString() @Length(1, 50) code: string;
}

export class MomoDto {
  @IsString() @Length(1, 20) phone_number: string;
  @Matches(/^[a-z0-9_]{2,40}$/, { message: 'provider must be 2-40 lower-case letters, digits or _ (e.g. mpesa, mtn, airtel)' }) provider: string;
}

export class WalletDto {
  @IsString() @Length(1, 100) address: string;
  @IsIn(CHAINS, { message: `chain must be one of ${CHAINS.join(', ')}` }) chain: Chain;
}

export class BookDto {
  @IsString() @Length(1, 40) account_id: string;
}

export class CreatePaymentDetailDto {
  @IsIn(PAYMENT_METHODS, { message: `payment_method must be one of ${PAYMENT_METHODS.join(', ')}` }) payment_method: PaymentMethod;
  @IsSupportedCurrency() currency: string;
  @IsCountryCode() country: string;
  @Block(() => BankDto, { optional: true }) bank?: BankDto;
  @Block(() => MomoDto, { optional: true }) momo?: MomoDto;
  @Block(() => WalletDto, { optional: true }) wallet?: WalletDto;
  @Block(() => BookDto, { optional: true }) book?: BookDto;
}
