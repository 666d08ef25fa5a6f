import { IsEmail, IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { Block } from '../http/blocks';
import { IsBirthDate, IsCountryCode, IsStringMap } from './validators';

export const BUSINESS_TYPES = ['llc', 'corporation', 'partnership', 'sole_proprietorship'] as const;

/** The person fields that quick start and the full individual creation share. */
class PersonFields {
  @IsString()
  @Length(1, 100)
  first_name: string;

  @IsString()
  @Length(1, 100)
  last_name: string;

  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email: string;
}

/** POST /entities: the quick start, always an individual. */
export class QuickStartEntityDto extends PersonFields {
  @IsOptional()
  @IsIn(['individual'], { message: 'type must be individual (create businesses with POST /business-entities)' })
  type?: 'individual';

  @IsCountryCode()
  country: string;
}

export class CreateIndividualEntityDto extends PersonFields {
  @IsBirthDate()
  date_of_birth: string;

  @IsCountryCode()
  country_of_residence: string;

  @IsOptional()
  @IsStringMap()
  meta?: Record<string, string>;
}

export class RegisteredAddressDto {
  @IsString()
  @Length(1, 255)
  line_1: string;

  @IsString()
  @Length(1, 100)
  city: string;

  @IsString()
  @Length(1, 100)
  state: string;

  @IsString()
  @Length(1, 20)
  postal_code: string;

  @IsCountryCode()
  country_code: string;
}

export class CreateBusinessEntityDto {
  @IsString()
  @Length(1, 255)
  legal_name: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  trading_name?: string;

  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email: string;

  @IsIn(BUSINESS_TYPES, { message: `business_type must be one of ${BUSINESS_TYPES.join(', ')}` })
  business_type: (typeof BUSINESS_TYPES)[number];

  @IsCountryCode()
  country_of_incorporation: string;

  @Block(() => RegisteredAddressDto)
  registered_address: RegisteredAddressDto;

  @IsOptional()
  @IsStringMap()
  meta?: Record<string, string>;
}
