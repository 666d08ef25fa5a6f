import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsIn, IsOptional, IsString, IsUrl, Length, Matches, MaxLength } from 'class-validator';
import {
  AUTH_MODELS,
  COLLECTION_PAYMENT_TYPES,
  type AuthModel,
  type CollectionPaymentType,
} from '@app/domain/collections';
import { Block } from '../http/blocks';

const text = (field: string, min: number, max: number) => [
  IsString({ message: `${field} must be a string` }),
  Length(min, max, { message: `${field} must be ${min}-${max} characters` }),
];
const apply =
  (decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) =>
    decorators.forEach((d) => d(target, key));

export class BillingAddressDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 255 })
  @IsOptional()
  @apply(text('address_line_one', 1, 255))
  address_line_one?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @IsOptional()
  @apply(text('city', 1, 100))
  city?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @IsOptional()
  @apply(text('state', 1, 100))
  state?: string;

  @ApiProperty({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2; the only field walletpay-acq needs' })
  @Matches(/^[A-Z]{2}$/, { message: 'country must be an ISO 3166-1 alpha-2 code' })
  country: string;
}

/** The browser's 3-D Secure fields (spec): booleans for Java and JavaScript, strings otherwise. */
export class BrowserInfoDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 2048 })
  @IsOptional()
  @apply(text('accept_header', 1, 2048))
  accept_header?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 2048 })
  @IsOptional()
  @apply(text('user_agent', 1, 2048))
  user_agent?: string;
  @ApiPropertyOptional({ type: 'boolean' })
  @IsOptional()
  @IsBoolean({ message: 'java_enabled must be a boolean' })
  java_enabled?: boolean;
  @ApiPropertyOptional({ type: 'boolean' })
  @IsOptional()
  @IsBoolean({ message: 'javascript_enabled must be a boolean' })
  javascript_enabled?: boolean;
  @ApiPropertyOptional({ minLength: 1, maxLength: 35 }) @IsOptional() @apply(text('language', 1, 35)) language?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 8 })
  @IsOptional()
  @apply(text('color_depth', 1, 8))
  color_depth?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 8 })
  @IsOptional()
  @apply(text('screen_height', 1, 8))
  screen_height?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 8 })
  @IsOptional()
  @apply(text('screen_width', 1, 8))
  screen_width?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 8 })
  @IsOptional()
  @apply(text('timezone_offset', 1, 8))
  timezone_offset?: string;
}

export class PaymentTypeDataDto {
  /** Base64 RSA-OAEP ciphertext; a 4096-bit key's block is 684 characters. */
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 2048,
    description:
      'card-acq: the card JSON encrypted with RSA-OAEP (SHA-256) under the key’s encryption_public_key, Base64; omitted for walletpay-acq',
  })
  @IsOptional()
  @apply(text('data', 1, 2048))
  data?: string;

  @ApiProperty({ type: () => BillingAddressDto })
  @Block(() => BillingAddressDto)
  billing_address: BillingAddressDto;

  @ApiPropertyOptional({ enum: AUTH_MODELS, default: '3ds_required' })
  @IsOptional()
  @IsIn(AUTH_MODELS, { message: `auth_model must be one of ${AUTH_MODELS.join(', ')}` })
  auth_model?: AuthModel;

  @ApiPropertyOptional({ type: () => BrowserInfoDto, description: 'Required unless auth_model is 3ds_disabled' })
  @Block(() => BrowserInfoDto, { optional: true })
  browser_info?: BrowserInfoDto;
}

export class CustomerDto {
  @ApiProperty({ minLength: 1, maxLength: 100 })
  @apply(text('first_name', 1, 100))
  first_name: string;

  @ApiProperty({ minLength: 1, maxLength: 100 })
  @apply(text('last_name', 1, 100))
  last_name: string;

  @ApiProperty({ format: 'email', maxLength: 254 })
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254, { message: 'email must be at most 254 characters' })
  email: string;
}

/** `intent_action` (spec): shapes here, the conditional rules in the confirm use case. */
export class IntentActionDto {
  @ApiProperty({ enum: ['confirm'] })
  @IsIn(['confirm'], { message: 'action must be confirm' })
  action: 'confirm';

  @ApiProperty({ enum: ['collections'] })
  @IsIn(['collections'], { message: 'category must be collections' })
  category: 'collections';

  @ApiProperty({ enum: COLLECTION_PAYMENT_TYPES })
  @IsIn(COLLECTION_PAYMENT_TYPES, { message: `payment_type must be one of ${COLLECTION_PAYMENT_TYPES.join(', ')}` })
  payment_type: CollectionPaymentType;

  @ApiProperty({ type: () => PaymentTypeDataDto })
  @Block(() => PaymentTypeDataDto)
  payment_type_data: PaymentTypeDataDto;

  @ApiProperty({ type: () => CustomerDto })
  @Block(() => CustomerDto)
  customer: CustomerDto;

  /** The shape only: https and a public host, or loopback in sandbox, is the confirm use case's rule (return-url.ts). */
  @ApiPropertyOptional({
    format: 'uri',
    maxLength: 2048,
    description: 'Where the customer returns after 3-D Secure; required unless auth_model is 3ds_disabled',
  })
  @IsOptional()
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'return_url must be an http or https URL' },
  )
  @MaxLength(2048, { message: 'return_url must be at most 2048 characters' })
  return_url?: string;
}
