import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, Matches, ValidateBy } from 'class-validator';
import countries from 'i18n-iso-countries';
import { BANK_SCHEMES, type BankScheme } from '@app/domain';
import { Block } from '../http/blocks';
import { ENTITY_ID } from './counterparty.dto';
import { IsSupportedCurrency } from './payment-detail.dto';

/** The spec's lookup body names the country in ISO 3166-1 alpha-3. */
const IsAlpha3Country = () =>
  ValidateBy({
    name: 'isAlpha3Country',
    validator: {
      validate: (v) => typeof v === 'string' && /^[A-Z]{3}$/.test(v) && !!countries.alpha3ToAlpha2(v),
      defaultMessage: () => 'country must be an ISO 3166-1 alpha-3 country code',
    },
  });

export class IssuerDto {
  @ApiProperty({ minLength: 1, maxLength: 50 }) @IsString() @Length(1, 50) code: string;
  @ApiProperty({ enum: BANK_SCHEMES })
  @IsIn(BANK_SCHEMES, { message: `scheme must be one of ${BANK_SCHEMES.join(', ')}` })
  scheme: BankScheme;
}

export class CounterpartyLookupDto {
  @ApiProperty({ pattern: '^[A-Z]{3}$' }) @IsSupportedCurrency() currency: string;
  @ApiProperty({ pattern: '^[A-Z]{3}$', description: 'ISO 3166-1 alpha-3' }) @IsAlpha3Country() country: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  account_number?: string;
  @ApiProperty({ type: () => IssuerDto }) @Block(() => IssuerDto) issuer: IssuerDto;
  /** Accepted for scope (an entity token's own entity, or any with an API key); the lookup reads no entity data. */
  @ApiPropertyOptional({ pattern: '^ent_[0-9A-HJKMNP-TV-Z]{26}$' })
  @IsOptional()
  @Matches(ENTITY_ID, { message: 'entity_id must be an entity id (ent_…)' })
  entity_id?: string;
}
