import { isDomainError } from '../../shared';
import { collectionFee, collectionFeesFrom, DEFAULT_COLLECTION_FEES } from '../collection-fees';
import { parseCardData, summarizeCard } from './card-data';

const NOW = new Date(Date.UTC(2026, 5, 15));
const valid = { card_number: '4242 4242 4242 4242', expiration_month: '06', expiration_year: '2026', cvv: '123' };

describe('card data (spec card-data table)', () => {
  it('accepts the spec fields, spaces ignored, and keeps only the summary for storage', () => {
    const card = parseCardData({ ...valid, card_holder_name: 'Ada' }, NOW);
    if (isDomainError(card)) throw new Error(card.message);
    expect(card).toEqual({
      number: '4242424242424242',
      expiration_month: 6,
      expiration_year: 2026,
      cvv: '123',
      card_holder_name: 'Ada',
    });
    expect(summarizeCard(card)).toEqual({ last_four_digits: '4242', card_brand: 'visa', card_type: 'credit' });
    expect(summarizeCard({ ...card, number: '5555555555554444' }).card_brand).toBe('mastercard');
  });

  it.each<[Record<string, unknown>, string]>([
    [{ card_number: '424242424242' }, 'card_number'],
    [{ card_number: '42424242424242424242' }, 'card_number'],
    [{ card_number: '4242424242424241' }, 'card_number'],
    [{ card_number: 4242424242424242 }, 'card_number'],
    [{ card_number: undefined }, 'card_number'],
    [{ expiration_month: '13' }, 'expiration_month'],
    [{ expiration_month: '0' }, 'expiration_month'],
    [{ expiration_year: '26' }, 'expiration_year'],
    [{ expiration_year: '2025' }, 'expiration_year'],
    [{ expiration_month: '05' }, 'expiration_year'],
    [{ cvv: '12' }, 'cvv'],
    [{ cvv: '12345' }, 'cvv'],
    [{ pin: '1234' }, 'pin'],
  ])('refuses %p naming %s', (over, field) => {
    const result = parseCardData({ ...valid, ...over }, NOW);
    expect(isDomainError(result) && result.errors?.[0].field).toBe(`intent_action.payment_type_data.data.${field}`);
  });

  it('refuses anything but an object', () => expect(isDomainError(parseCardData('4242', NOW))).toBe(true));
});

describe('collection fees (COLLECTION_FEES)', () => {
  it('charges basis points rounded up, defaults card 290 and wallet 250', () => {
    expect(collectionFee(DEFAULT_COLLECTION_FEES, 'card-acq', 10_000)).toBe(290);
    expect(collectionFee(DEFAULT_COLLECTION_FEES, 'walletpay-acq', 1)).toBe(1);
    expect(collectionFee(collectionFeesFrom({ 'card-acq': 0 }), 'card-acq', 10_000)).toBe(0);
  });
  it('refuses unknown types and rates', () => {
    expect(() => collectionFeesFrom({ 'bank-transfer': 10 })).toThrow('unknown payment type');
    expect(() => collectionFeesFrom({ 'card-acq': 10_001 })).toThrow('0-10000');
  });
});
