import { IsBoolean, IsEmail, IsIn, IsOptional, IsString, IsUrl, Length, Matches, MaxLength } from 'class-validator';
import { AUTH_MODELS, COLLECTION_PAYMENT_TYPES, type AuthModel, type CollectionPaymentType } from '@app/domain/collections';
import { Block } from '../http/blocks';

const text = (field: string, min: number, max: number) => [IsString({ message: `${field} must be a string` }), Length(min, max, { message: `${field} must be ${min}-${max} characters` })];
const apply = (decorators: PropertyDecorator[]): PropertyDecorator => (target, key) => decorators.forEach((d) => d(target, key));

export class BillingAddressDto {
  @IsOptional()
  @apply(text('address_line_one', 1, 255))
  address_line_one?: string;

  @IsOptional()
  @apply(text('city', 1, 100))
  city?: string;

  @IsOptional()
  @apply(text('state', 1, 100))
  state?: string;

  @Matches(/^[A-Z]{2}$/, { message: 'country must be an ISO 3166-1 alpha-2 code' })
  country: string;
}

/** The browser's 3-D Secure fields (spec): booleans for Java and JavaScript, strings otherwise. */
export class BrowserInfoDto {
  @IsOptional() @apply(text('accept_header', 1, 2048)) accept_header?: string;
  @IsOptional() @apply(text('user_agent', 1, 2048)) user_agent?: string;
  @IsOptional() @IsBoolean({ message: 'java_enabled must be a boolean' }) java_enabled?: boolean;
  @IsOptional() @IsBoolean({ message: 'javascript_enabled must be a boolean' }) javascript_enabled?: boolean;
  @IsOptional() @apply(text('language', 1, 35)) language?: string;
  @IsOptional() @apply(text('color_depth', 1, 8)) color_depth?: string;
  @IsOptional() @apply(text('screen_height', 1, 8)) screen_height?: string;
  @IsOptional() @apply(text('screen_width', 1, 8)) screen_width?: string;
  @IsOptional() @apply(text('timezone_offset', 1, 8)) timezone_offset?: string;
}

export class PaymentTypeDataDto {
  /** Base64 RSA-OAEP ciphertext; a 4096-bit key's block is 684 characters. */
  @IsOptional()
  @apply(text('data', 1, 2048))
  data?: string;

  @Block(() => BillingAddressDto)
  billing_address: BillingAddressDto;

  @IsOptional()
  @IsIn(AUTH_MODELS, { message: `auth_model must be one of ${AUTH_MODELS.join(', ')}` })
  auth_model?: AuthModel;

  @Block(() => BrowserInfoDto, { optional: true })
  browser_info?: BrowserInfoDto;
}

export class CustomerDto {
  @apply(text('first_name', 1, 100))
  first_name: string;

  @apply(text('last_name', 1, 100))
  last_name: string;

  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254, { message: 'email must be at most 254 characters' })
  email: string;
}

/** `intent_action` (spec): shapes here, the conditional rules in the confirm use case. */
export class IntentActionDto {
  @IsIn(['confirm'], { message: 'action must be confirm' })
  action: 'confirm';

  @IsIn(['collections'], { message: 'category must be collections' })
  category: 'collections';

  @IsIn(COLLECTION_PAYMENT_TYPES, { message: `payment_type must be one of ${COLLECTION_PAYMENT_TYPES.join(', ')}` })
  payment_type: CollectionPaymentType;

  @Block(() => PaymentTypeDataDto)
  payment_type_data: PaymentTypeDataDto;

  @Block(() => CustomerDto)
  customer: CustomerDto;

  /** The shape only: https and a public host, or loopback in sandbox, is the confirm use case's rule (return-url.ts). */
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }, { message: 'return_url must be an http or https URL' })
  @MaxLength(2048, { message: 'return_url must be at most 2048 characters' })
  return_url?: string;
}
