import { IsEmail, IsIn, IsOptional, IsString, Length, MaxLength, ValidateBy, type ValidationArguments } from 'class-validator';
import { phoneProblem } from '@app/domain';
import { Block, BlockList } from '../http/blocks';
import { IsCountryCode } from '../onboarding/validators';

/** E.164 and a valid number by libphonenumber's metadata. */
const IsE164 = () =>
  ValidateBy({ name: 'isE164', validator: { validate: (v) => typeof v === 'string' && phoneProblem(v, null) === null, defaultMessage: () => 'phone.number must be a valid E.164 number, e.g. +447911123456' } });

/** phone.country, when given, must be the country of the number's calling code. */
const MatchesPhoneNumber = () =>
  ValidateBy({
    name: 'matchesPhoneNumber',
    validator: {
      validate: (v, args?: ValidationArguments) => typeof (args?.object as { number?: unknown })?.number !== 'string' || phoneProblem((args!.object as { number: string }).number, String(v)) === null,
      defaultMessage: () => 'phone.country must be the country of the phone number',
    },
  });

export const PHONE_TYPES = ['mobile', 'work', 'home', 'other'] as const;
export const IDENTIFICATION_ITEMS_MAX = 10;

export class AddressDto {
  @IsString() @Length(1, 255) line1: string;
  @IsOptional() @IsString() @Length(1, 255) line2?: string | null;
  @IsString() @Length(1, 100) city: string;
  @IsOptional() @IsString() @MaxLength(100) state_or_province?: string | null;
  @IsOptional() @IsString() @MaxLength(20) postal_code?: string | null;
  @IsCountryCode() country: string;
}

export class PhoneDto {
  @IsE164() number: string;
  @IsOptional() @IsIn(PHONE_TYPES, { message: `phone.type must be one of ${PHONE_TYPES.join(', ')}` }) type?: string;
  @IsOptional() @IsCountryCode() @MatchesPhoneNumber() country?: string | null;
}

export class IndividualIdentificationDto {
  @IsIn(['P', 'D', 'N'], { message: 'type must be P (passport), D (driving licence) or N (national ID)' }) type: string;
  @IsString() @Length(1, 100) number: string;
  @IsCountryCode() issuing_country: string;
}

export class BusinessIdentificationDto {
  @IsIn(['L'], { message: 'type must be L (registration or tax number)' }) type: string;
  @IsString() @Length(1, 100) number: string;
  @IsCountryCode() issuing_country: string;
}

class ProfileCommon {
  @IsOptional() @IsString() @Length(1, 100) relationship?: string | null;
  @IsOptional() @IsEmail({}, { message: 'email must be an email address' }) @MaxLength(254) email?: string | null;
  @Block(() => AddressDto, { optional: true, nullable: true }) address?: AddressDto | null;
  @Block(() => PhoneDto, { optional: true, nullable: true }) phone?: PhoneDto | null;
}

export class IndividualProfileDto extends ProfileCommon {
  @IsString() @Length(1, 100) first_name: string;
  @IsString() @Length(1, 100) last_name: string;
  @BlockList(() => IndividualIdentificationDto, IDENTIFICATION_ITEMS_MAX, { optional: true })
  identification?: IndividualIdentificationDto[];
}

export class BusinessProfileDto extends ProfileCommon {
  @IsString() @Length(1, 255) legal_name: string;
  @IsOptional() @IsString() @MaxLength(255) trading_name?: string | null;
  @BlockList(() => BusinessIdentificationDto, IDENTIFICATION_ITEMS_MAX, { optional: true })
  identification?: BusinessIdentificationDto[];
}
