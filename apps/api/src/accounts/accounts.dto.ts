import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min, ValidateBy } from 'class-validator';
import { ASSET_TYPES, DISPLAY_NAME_MAX, isSupportedCurrency, RAIL_NAMES, type AssetType, type Rail } from '@app/domain/accounts';
import { StyleAQuery } from '../http/pagination';

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
const ENTITY_ID = new RegExp(`^ent_${ULID}$`);
const ACCOUNT_ID = new RegExp(`^acc_${ULID}$`);

/** ISO 4217 (uppercase) or USC/UST; the list itself lives in the domain. */
const IsSupportedCurrency = () =>
  ValidateBy({
    name: 'isSupportedCurrency',
    validator: { validate: isSupportedCurrency, defaultMessage: () => 'currency must be an uppercase ISO 4217 code, USC or UST' },
  });

export class CreateAccountDto {
  /** Required with an API key, inferred from an entity token (checked by entityScope). */
  @IsOptional()
  @Matches(ENTITY_ID, { message: 'entity_id must be an entity id (ent_…)' })
  entity_id?: string;

  @IsOptional()
  @IsIn(['checking'], { message: 'type must be "checking"' })
  type?: 'checking';

  @IsSupportedCurrency()
  currency: string;

  @IsOptional()
  @IsString()
  @Length(1, DISPLAY_NAME_MAX)
  @Matches(/\S/, { message: 'display_name must not be blank' })
  display_name?: string;
}

export class ListAccountsDto extends StyleAQuery {
  @IsOptional()
  @Matches(ENTITY_ID, { message: 'entity_id must be an entity id (ent_…)' })
  entity_id?: string;

  @IsOptional()
  @IsSupportedCurrency()
  currency?: string;
}

export class CreateAccountDetailsDto {
  @Matches(ACCOUNT_ID, { message: 'account_id must be an account id (acc_…)' })
  account_id: string;

  @IsIn(ASSET_TYPES, { message: `asset_type must be one of ${ASSET_TYPES.join(', ')}` })
  asset_type: AssetType;

  @IsOptional()
  @IsIn(RAIL_NAMES, { message: `rail must be one of ${RAIL_NAMES.join(', ')}` })
  rail?: Rail;
}

export class FundAccountDto {
  @IsInt({ message: 'amount must be an integer of minor units' })
  @Min(1, { message: 'amount must be at least 1' })
  @Max(Number.MAX_SAFE_INTEGER, { message: `amount must be at most ${Number.MAX_SAFE_INTEGER}` })
  amount: number;

  @IsSupportedCurrency()
  currency: string;
}
