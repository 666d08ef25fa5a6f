import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { Block } from '../http/blocks';
import { IsBirthDate, IsCountryCode, IsStringMap } from './validators';

export const BUSINESS_TYPES = ['llc', 'corporation', 'partnership', 'sole_proprietorship'] as const;

/** The person fields that quick start and the full individual creation share. */
class PersonFields {
  @ApiProperty({ minLength: 1, maxLength: 100 })
  @IsString()
  @Length(1, 100)
  first_name: string;

  @ApiProperty({ minLength: 1, maxLength: 100 })
  @IsString()
  @Length(1, 100)
  last_name: string;

  @ApiProperty({ format: 'email', maxLength: 254 })
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email: string;
}

/** POST /entities: the quick start, always an individual. */
export class QuickStartEntityDto extends PersonFields {
  @ApiPropertyOptional({ enum: ['individual'] })
  @IsOptional()
  @IsIn(['individual'], { message: 'type must be individual (create businesses with POST /business-entities)' })
  type?: 'individual';

  @ApiProperty({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' })
  @IsCountryCode()
  country: string;
}

export class CreateIndividualEntityDto extends PersonFields {
  @ApiProperty({ format: 'date', description: 'YYYY-MM-DD, in the past' })
  @IsBirthDate()
  date_of_birth: string;

  @ApiProperty({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' })
  @IsCountryCode()
  country_of_residence: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'At most 50 string values',
  })
  @IsOptional()
  @IsStringMap()
  meta?: Record<string, string>;
}

export class RegisteredAddressDto {
  @ApiProperty({ minLength: 1, maxLength: 255 })
  @IsString()
  @Length(1, 255)
  line_1: string;

  @ApiProperty({ minLength: 1, maxLength: 100 })
  @IsString()
  @Length(1, 100)
  city: string;

  @ApiProperty({ minLength: 1, maxLength: 100 })
  @IsString()
  @Length(1, 100)
  state: string;

  @ApiProperty({ minLength: 1, maxLength: 20 })
  @IsString()
  @Length(1, 20)
  postal_code: string;

  @ApiProperty({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' })
  @IsCountryCode()
  country_code: string;
}

export class CreateBusinessEntityDto {
  @ApiProperty({ minLength: 1, maxLength: 255 })
  @IsString()
  @Length(1, 255)
  legal_name: string;

  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  trading_name?: string;

  @ApiProperty({ format: 'email', maxLength: 254 })
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email: string;

  @ApiProperty({ enum: BUSINESS_TYPES })
  @IsIn(BUSINESS_TYPES, { message: `business_type must be one of ${BUSINESS_TYPES.join(', ')}` })
  business_type: (typeof BUSINESS_TYPES)[number];

  @ApiProperty({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' })
  @IsCountryCode()
  country_of_incorporation: string;

  @ApiProperty({ type: () => RegisteredAddressDto })
  @Block(() => RegisteredAddressDto)
  registered_address: RegisteredAddressDto;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @IsOptional()
  @IsStringMap()
  meta?: Record<string, string>;
}
