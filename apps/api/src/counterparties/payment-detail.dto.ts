import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, Matches, ValidateBy } from 'class-validator';
import { BANK_SCHEMES, CHAINS, PAYMENT_METHODS, type BankScheme, type Chain, type PaymentMethod } from '@app/domain';
import { isSupportedCurrency } from '@app/domain/accounts';
import { Block } from '../http/blocks';
import { IsCountryCode } from '../onboarding/validators';

export const IsSupportedCurrency = () =>
  ValidateBy({
    name: 'isSupportedCurrency',
    validator: {
      validate: isSupportedCurrency,
      defaultMessage: () => 'currency must be an uppercase ISO 4217 code, USC or UST',
    },
  });

export class BankDto {
  /** Optional only with scheme `iban`, where the IBAN is the code (checked by the domain). */
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 100,
    description: 'Optional only with scheme iban (the IBAN is the code)',
  })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  account_number?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 140 })
  @IsOptional()
  @IsString()
  @Length(1, 140)
  account_name?: string;
  @ApiProperty({ enum: BANK_SCHEMES })
  @IsIn(BANK_SCHEMES, { message: `scheme must be one of ${BANK_SCHEMES.join(', ')}` })
  scheme: BankScheme;
  @ApiProperty({ minLength: 1, maxLength: 50, description: 'Bank code, routing number, or the IBAN with scheme iban' })
  @IsString()
  @Length(1, 50)
  code: string;
}

export class MomoDto {
  @ApiProperty({ minLength: 1, maxLength: 20, description: 'E.164' }) @IsString() @Length(1, 20) phone_number: string;
  @ApiProperty({ pattern: '^[a-z0-9_]{2,40}$', description: 'mpesa, mtn, airtel…' })
  @Matches(/^[a-z0-9_]{2,40}$/, {
    message: 'provider must be 2-40 lower-case letters, digits or _ (e.g. mpesa, mtn, airtel)',
  })
  provider: string;
}

export class WalletDto {
  @ApiProperty({ minLength: 1, maxLength: 100, description: 'EVM 0x + 40 hex, or Solana base58' })
  @IsString()
  @Length(1, 100)
  address: string;
  @ApiProperty({ enum: CHAINS }) @IsIn(CHAINS, { message: `chain must be one of ${CHAINS.join(', ')}` }) chain: Chain;
}

export class BookDto {
  @ApiProperty({ minLength: 1, maxLength: 40, description: 'An account of the same organization' })
  @IsString()
  @Length(1, 40)
  account_id: string;
}

export class CreatePaymentDetailDto {
  @ApiProperty({ enum: PAYMENT_METHODS })
  @IsIn(PAYMENT_METHODS, { message: `payment_method must be one of ${PAYMENT_METHODS.join(', ')}` })
  payment_method: PaymentMethod;
  @ApiProperty({ pattern: '^[A-Z]{3}$' }) @IsSupportedCurrency() currency: string;
  @ApiProperty({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' }) @IsCountryCode() country: string;
  @ApiPropertyOptional({ type: () => BankDto, description: 'The block of payment_method bank-transfer' })
  @Block(() => BankDto, { optional: true })
  bank?: BankDto;
  @ApiPropertyOptional({ type: () => MomoDto, description: 'The block of payment_method momo-transfer' })
  @Block(() => MomoDto, { optional: true })
  momo?: MomoDto;
  @ApiPropertyOptional({ type: () => WalletDto, description: 'The block of payment_method stablecoin-transfer' })
  @Block(() => WalletDto, { optional: true })
  wallet?: WalletDto;
  @ApiPropertyOptional({ type: () => BookDto, description: 'The block of payment_method book-transfer' })
  @Block(() => BookDto, { optional: true })
  book?: BookDto;
}
