import { number as cardNumber } from 'card-validator';
import luhn10 from 'card-validator/dist/luhn-10';
import { invalid, type DomainError } from '../../shared';

/**
 * The decrypted card (spec "Card data encryption"). It lives only in memory for the length of one
 * authorization: nothing here is ever put in an event, a document, a log line or a response.
 */
export interface CardData {
  readonly number: string;
  readonly expiration_month: number;
  readonly expiration_year: number;
  readonly cvv: string;
  readonly card_holder_name: string | null;
}

/** What may be kept of a card: the last four digits and what the number says about it. */
export interface CardSummary {
  readonly last_four_digits: string;
  readonly card_brand: string;
  readonly card_type: string;
}

export const CARD_FIELD_PREFIX = 'intent_action.payment_type_data.data';
const FIELDS = ['card_number', 'expiration_month', 'expiration_year', 'cvv', 'card_holder_name'];
const bad = (field: string, message: string) => invalid(`${CARD_FIELD_PREFIX}.${field}`, message);

function text(value: Record<string, unknown>, field: string, required: boolean): string | null | DomainError {
  const v = value[field];
  if (v === undefined || v === null) return required ? bad(field, `${field} is required`) : null;
  return typeof v === 'string' ? v : bad(field, `${field} must be a string`);
}

/** Checks every field the spec's table names, in its order; the first bad one is named. */
export function parseCardData(value: unknown, now: Date): CardData | DomainError {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return invalid(CARD_FIELD_PREFIX, 'the decrypted card data must be a JSON object');
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).find((k) => !FIELDS.includes(k));
  if (unknown) return bad(unknown, `${unknown} is not an accepted field`);
  const [num, month, year, cvv, holder] = FIELDS.map((f) => text(record, f, f !== 'card_holder_name'));
  for (const v of [num, month, year, cvv, holder]) if (v !== null && typeof v !== 'string') return v;
  return checkFields(num as string, month as string, year as string, cvv as string, holder as string | null, now);
}

function checkFields(
  rawNumber: string,
  month: string,
  year: string,
  cvv: string,
  holder: string | null,
  now: Date,
): CardData | DomainError {
  const number = rawNumber.replace(/ /g, '');
  if (!/^\d{13,19}$/.test(number)) return bad('card_number', 'card_number must be 13-19 digits');
  if (!luhn10(number)) return bad('card_number', 'card_number fails the Luhn check');
  if (!/^(0?[1-9]|1[0-2])$/.test(month)) return bad('expiration_month', 'expiration_month must be 1-12 or 01-12');
  if (!/^\d{4}$/.test(year)) return bad('expiration_year', 'expiration_year must be four digits');
  const expired =
    Number(year) < now.getUTCFullYear() ||
    (Number(year) === now.getUTCFullYear() && Number(month) < now.getUTCMonth() + 1);
  if (expired) return bad('expiration_year', 'the card has expired');
  if (!/^\d{3,4}$/.test(cvv)) return bad('cvv', 'cvv must be 3 or 4 digits');
  if (holder !== null && holder.length > 100)
    return bad('card_holder_name', 'card_holder_name must be at most 100 characters');
  return { number, expiration_month: Number(month), expiration_year: Number(year), cvv, card_holder_name: holder };
}

/**
 * Brand from the number's prefix (card-validator's table); the type is `credit` because a number
 * alone does not tell credit from debit, and the simulated acquirer has no BIN table.
 */
export function summarizeCard(card: CardData): CardSummary {
  const brand = cardNumber(card.number).card?.type ?? 'unknown';
  return { last_four_digits: card.number.slice(-4), card_brand: brand, card_type: 'credit' };
}
