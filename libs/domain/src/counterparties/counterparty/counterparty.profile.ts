import type { FieldError } from '../../shared';

export interface CounterpartyAddress {
  readonly line1: string;
  readonly line2: string | null;
  readonly city: string;
  readonly state_or_province: string | null;
  readonly postal_code: string | null;
  readonly country: string;
}

export interface CounterpartyPhone {
  readonly number: string;
  readonly type: 'mobile' | 'work' | 'home' | 'other';
  readonly country: string | null;
}

export interface CounterpartyIdentification {
  readonly type: 'P' | 'D' | 'N' | 'L';
  readonly number: string;
  readonly issuing_country: string;
}

interface ProfileBase {
  readonly relationship: string | null;
  readonly email: string | null;
  readonly address: CounterpartyAddress | null;
  readonly identification: readonly CounterpartyIdentification[];
  readonly phone: CounterpartyPhone | null;
}

export interface IndividualCounterpartyProfile extends ProfileBase {
  readonly first_name: string;
  readonly last_name: string;
}

export interface BusinessCounterpartyProfile extends ProfileBase {
  readonly legal_name: string;
  readonly trading_name: string | null;
}

export type CounterpartyType = 'individual' | 'business';
export type CounterpartyProfile = IndividualCounterpartyProfile | BusinessCounterpartyProfile;

/** A partial profile as sent: absent keys stay, `null` clears an optional field, objects merge field by field. */
export type ProfilePatch = Readonly<Record<string, unknown>>;

/** Absent and `undefined` mean the same: unchanged. */
const defined = (value: object) => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));

const EMPTY_BASE: ProfileBase = { relationship: null, email: null, address: null, identification: [], phone: null };
const NESTED = new Set(['address', 'phone']);
const REQUIRED_ADDRESS: readonly (keyof CounterpartyAddress)[] = ['line1', 'city', 'country'];
const ADDRESS_DEFAULTS = { line2: null, state_or_province: null, postal_code: null };

/** The fields and identification types only one type of profile has: the other's may not be set. */
const OWN: Record<
  CounterpartyType,
  { readonly fields: readonly string[]; readonly identification: readonly string[]; readonly message: string }
> = {
  individual: {
    fields: ['first_name', 'last_name'],
    identification: ['P', 'D', 'N'],
    message: 'must be P (passport), D (driving licence) or N (national ID)',
  },
  business: {
    fields: ['legal_name', 'trading_name'],
    identification: ['L'],
    message: 'must be L (registration or tax number)',
  },
};

/** A patch is of one type's shape (a PATCH body does not say which type it is for): the other type's fields are refused. */
function otherTypesFields(type: CounterpartyType, patch: ProfilePatch): FieldError[] {
  const other = OWN[type === 'individual' ? 'business' : 'individual'];
  const errors = other.fields
    .filter((name) => name in patch)
    .map((name) => ({ field: `profile.${name}`, message: `profile.${name} is not an accepted field` }));
  const items = Array.isArray(patch.identification)
    ? (patch.identification as readonly { readonly type?: unknown }[])
    : [];
  for (const [index, item] of items.entries()) {
    const field = `profile.identification[${index}].type`;
    if (!OWN[type].identification.includes(String(item?.type)))
      errors.push({ field, message: `${field} ${OWN[type].message}` });
  }
  return errors;
}

/**
 * Applies a patch (creation is a patch on nothing) and checks what only the whole profile can
 * tell: the fields are of its type, the names are present, and an address has its line1, city
 * and country once merged.
 */
export function applyProfile(
  type: CounterpartyType,
  current: CounterpartyProfile | null,
  patch: ProfilePatch,
): CounterpartyProfile | FieldError[] {
  const foreign = otherTypesFields(type, patch);
  if (foreign.length) return foreign;
  const base: Record<string, unknown> = {
    ...EMPTY_BASE,
    ...(type === 'business' ? { trading_name: null } : {}),
    ...(current ?? {}),
  };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    base[key] =
      NESTED.has(key) && value !== null
        ? { ...((base[key] as object | null) ?? {}), ...defined(value as object) }
        : value;
  }
  const errors: FieldError[] = [];
  const names = type === 'individual' ? ['first_name', 'last_name'] : ['legal_name'];
  for (const name of names)
    if (typeof base[name] !== 'string' || !(base[name] as string).trim())
      errors.push({ field: `profile.${name}`, message: `${name} is required` });
  if (base.address) {
    const address = { ...ADDRESS_DEFAULTS, ...(base.address as object) } as Record<string, unknown>;
    for (const key of REQUIRED_ADDRESS)
      if (!address[key])
        errors.push({ field: `profile.address.${key}`, message: `address.${key} is required in an address` });
    base.address = address;
  }
  if (base.phone) {
    const phone = { type: 'mobile', country: null, ...(base.phone as object) } as Record<string, unknown>;
    if (!phone.number) errors.push({ field: 'profile.phone.number', message: 'phone.number is required in a phone' });
    base.phone = phone;
  }
  return errors.length ? errors : (base as unknown as CounterpartyProfile);
}

/** The spec's default nickname: first and last name, or the legal name. */
export const defaultNickname = (type: CounterpartyType, profile: CounterpartyProfile): string =>
  type === 'individual'
    ? `${(profile as IndividualCounterpartyProfile).first_name} ${(profile as IndividualCounterpartyProfile).last_name}`
    : (profile as BusinessCounterpartyProfile).legal_name;

export const NICKNAME_MAX = 255;
