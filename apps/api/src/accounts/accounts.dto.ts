import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min, ValidateBy } from 'class-validator';
import {
  ASSET_TYPES,
  DISPLAY_NAME_MAX,
  isSupportedCurrency,
  RAIL_NAMES,
  type AssetType,
  type Rail,
} from '@app/domain/accounts';
import { StyleAQuery } from '../http/pagination';

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
const ENTITY_ID = new RegExp(`^ent_${ULID}$`);
const ACCOUNT_ID = new RegExp(`^acc_${ULID}$`);

/** ISO 4217 (uppercase) or USC/UST; the list itself lives in the domain. */
const IsSupportedCurrency = () =>
  ValidateBy({
    name: 'isSupportedCurrency',
    validator: {
      validate: isSupportedCurrency,
      defaultMessage: () => 'currency must be an uppercase ISO 4217 code, USC or UST',
    },
  });

export class CreateAccountDto {
  /** Required with an API key, inferred from an entity token (checked by entityScope). */
  @ApiPropertyOptional({
    pattern: '^ent_[0-9A-HJKMNP-TV-Z]{26}$',
    description: 'Required with an API key; inferred from an entity token',
  })
  @IsOptional()
  @Matches(ENTITY_ID, { message: 'entity_id must be an entity id (ent_…)' })
  entity_id?: string;

  @ApiPropertyOptional({ enum: ['checking'], default: 'checking' })
  @IsOptional()
  @IsIn(['checking'], { message: 'type must be "checking"' })
  type?: 'checking';

  @ApiProperty({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 (upper case), or USC (USDC) / UST (USDT)' })
  @IsSupportedCurrency()
  currency: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: DISPLAY_NAME_MAX, description: 'Defaults to "<currency> account"' })
  @IsOptional()
  @IsString()
  @Length(1, DISPLAY_NAME_MAX)
  @Matches(/\S/, { message: 'display_name must not be blank' })
  display_name?: string;
}

export class ListAccountsDto extends StyleAQuery {
  @ApiPropertyOptional({ pattern: '^ent_[0-9A-HJKMNP-TV-Z]{26}$' })
  @IsOptional()
  @Matches(ENTITY_ID, { message: 'entity_id must be an entity id (ent_…)' })
  entity_id?: string;

  @ApiPropertyOptional({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 (upper case), or USC (USDC) / UST (USDT)' })
  @IsOptional()
  @IsSupportedCurrency()
  currency?: string;
}

export class CreateAccountDetailsDto {
  @ApiProperty({ pattern: '^acc_[0-9A-HJKMNP-TV-Z]{26}$' })
  @Matches(ACCOUNT_ID, { message: 'account_id must be an account id (acc_…)' })
  account_id: string;

  @ApiProperty({ enum: ASSET_TYPES })
  @IsIn(ASSET_TYPES, { message: `asset_type must be one of ${ASSET_TYPES.join(', ')}` })
  asset_type: AssetType;

  @ApiPropertyOptional({ enum: RAIL_NAMES, description: 'Defaults to the currency’s first rail' })
  @IsOptional()
  @IsIn(RAIL_NAMES, { message: `rail must be one of ${RAIL_NAMES.join(', ')}` })
  rail?: Rail;
}

export class FundAccountDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Smallest currency unit' })
  @IsInt({ message: 'amount must be an integer of minor units' })
  @Min(1, { message: 'amount must be at least 1' })
  @Max(Number.MAX_SAFE_INTEGER, { message: `amount must be at most ${Number.MAX_SAFE_INTEGER}` })
  amount: number;

  @ApiProperty({ pattern: '^[A-Z]{3}$', description: 'Must be the account’s currency (422 currency_mismatch)' })
  @IsSupportedCurrency()
  currency: string;
}
