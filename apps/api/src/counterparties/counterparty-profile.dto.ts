import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  IsEmail,
  IsIn,
  IsOptional,
  IsString,
  Length,
  MaxLength,
  ValidateBy,
  type ValidationArguments,
} from 'class-validator';
import { phoneProblem } from '@app/domain';
import { Block, BlockList } from '../http/blocks';
import { IsCountryCode } from '../onboarding/validators';

/** E.164 and a valid number by libphonenumber's metadata. */
const IsE164 = () =>
  ValidateBy({
    name: 'isE164',
    validator: {
      validate: (v) => typeof v === 'string' && phoneProblem(v, null) === null,
      defaultMessage: () => 'phone.number must be a valid E.164 number, e.g. +447911123456',
    },
  });

/** phone.country, when given, must be the country of the number's calling code. */
const MatchesPhoneNumber = () =>
  ValidateBy({
    name: 'matchesPhoneNumber',
    validator: {
      validate: (v, args?: ValidationArguments) =>
        typeof (args?.object as { number?: unknown })?.number !== 'string' ||
        phoneProblem((args!.object as { number: string }).number, String(v)) === null,
      defaultMessage: () => 'phone.country must be the country of the phone number',
    },
  });

export const PHONE_TYPES = ['mobile', 'work', 'home', 'other'] as const;
export const IDENTIFICATION_ITEMS_MAX = 10;

@ApiSchema({ name: 'CounterpartyAddress' })
export class AddressDto {
  @ApiProperty({ minLength: 1, maxLength: 255 }) @IsString() @Length(1, 255) line1: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 255, type: 'string', nullable: true })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  line2?: string | null;
  @ApiProperty({ minLength: 1, maxLength: 100 }) @IsString() @Length(1, 100) city: string;
  @ApiPropertyOptional({ minLength: 0, maxLength: 100, type: 'string', nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  state_or_province?: string | null;
  @ApiPropertyOptional({ minLength: 0, maxLength: 20, type: 'string', nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  postal_code?: string | null;
  @ApiProperty({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' }) @IsCountryCode() country: string;
}

export class PhoneDto {
  @ApiProperty({ description: 'E.164, a valid number (+447911123456)' }) @IsE164() number: string;
  @ApiPropertyOptional({ enum: PHONE_TYPES })
  @IsOptional()
  @IsIn(PHONE_TYPES, { message: `phone.type must be one of ${PHONE_TYPES.join(', ')}` })
  type?: string;
  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    pattern: '^[A-Z]{2}$',
    description: 'The country of the number’s calling code',
  })
  @IsOptional()
  @IsCountryCode()
  @MatchesPhoneNumber()
  country?: string | null;
}

export class IndividualIdentificationDto {
  @ApiProperty({ enum: ['P', 'D', 'N'], description: 'P passport, D driving licence, N national ID' })
  @IsIn(['P', 'D', 'N'], { message: 'type must be P (passport), D (driving licence) or N (national ID)' })
  type: string;
  @ApiProperty({ minLength: 1, maxLength: 100 }) @IsString() @Length(1, 100) number: string;
  @ApiProperty({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' }) @IsCountryCode() issuing_country: string;
}

export class BusinessIdentificationDto {
  @ApiProperty({ enum: ['L'], description: 'L: registration or tax number' })
  @IsIn(['L'], { message: 'type must be L (registration or tax number)' })
  type: string;
  @ApiProperty({ minLength: 1, maxLength: 100 }) @IsString() @Length(1, 100) number: string;
  @ApiProperty({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' }) @IsCountryCode() issuing_country: string;
}

class ProfileCommon {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100, type: 'string', nullable: true })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  relationship?: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true, format: 'email', maxLength: 254 })
  @IsOptional()
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email?: string | null;
  @ApiPropertyOptional({ type: () => AddressDto, nullable: true })
  @Block(() => AddressDto, { optional: true, nullable: true })
  address?: AddressDto | null;
  @ApiPropertyOptional({ type: () => PhoneDto, nullable: true })
  @Block(() => PhoneDto, { optional: true, nullable: true })
  phone?: PhoneDto | null;
}

export class IndividualProfileDto extends ProfileCommon {
  @ApiProperty({ minLength: 1, maxLength: 100 }) @IsString() @Length(1, 100) first_name: string;
  @ApiProperty({ minLength: 1, maxLength: 100 }) @IsString() @Length(1, 100) last_name: string;
  @ApiPropertyOptional({ type: () => IndividualIdentificationDto, isArray: true, maxItems: IDENTIFICATION_ITEMS_MAX })
  @BlockList(() => IndividualIdentificationDto, IDENTIFICATION_ITEMS_MAX, { optional: true })
  identification?: IndividualIdentificationDto[];
}

export class BusinessProfileDto extends ProfileCommon {
  @ApiProperty({ minLength: 1, maxLength: 255 }) @IsString() @Length(1, 255) legal_name: string;
  @ApiPropertyOptional({ minLength: 0, maxLength: 255, type: 'string', nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  trading_name?: string | null;
  @ApiPropertyOptional({ type: () => BusinessIdentificationDto, isArray: true, maxItems: IDENTIFICATION_ITEMS_MAX })
  @BlockList(() => BusinessIdentificationDto, IDENTIFICATION_ITEMS_MAX, { optional: true })
  identification?: BusinessIdentificationDto[];
}
