import { isValidBIC, isValidIBAN } from 'ibantools';
import { isValidAbaRouting } from './account-numbers';
import { assetTypeOf, defaultRail, RAIL_NAMES, RAILS, RAILS_BY_CURRENCY, railsFor } from './rails';
import { seededRandom } from './testing/fixed-random';

describe('rails', () => {
  it('gives each served currency a default rail of its asset type', () => {
    for (const [currency, rails] of Object.entries(RAILS_BY_CURRENCY)) {
      expect(defaultRail(currency)).toBe(rails[0]);
      for (const rail of rails) expect(RAILS[rail].asset_type).toBe(assetTypeOf(currency));
    }
    expect(defaultRail('USD')).toBe('ach');
    expect(defaultRail('EUR')).toBe('sepa');
    expect(defaultRail('USC')).toBe('ethereum');
    expect(railsFor('JPY')).toEqual([]);
    expect(defaultRail('JPY')).toBeNull();
  });

  it.each(RAIL_NAMES)('draws %s numbers that pass its own check', (rail) => {
    const random = seededRandom(11);
    const numbers = Array.from({ length: 200 }, () => RAILS[rail].newNumber(random));
    for (const n of numbers) expect(RAILS[rail].isValidNumber(n)).toBe(true);
    expect(new Set(numbers).size).toBeGreaterThan(190);
  });

  it('issues SEPA coordinates as mod-97-valid IBANs and a well-formed BIC', () => {
    const iban = RAILS.sepa.newNumber(seededRandom(5));
    expect(iban).toMatch(/^LT\d{18}$/);
    expect(isValidIBAN(iban)).toBe(true);
    expect(isValidIBAN(iban.slice(0, -1) + String((Number(iban.slice(-1)) + 1) % 10))).toBe(false);
    expect(isValidBIC(RAILS.sepa.issuer.code)).toBe(true);
  });

  it('routes US rails through a checksum-valid ABA routing number', () => {
    expect(isValidAbaRouting(RAILS.ach.issuer.code)).toBe(true);
    expect(RAILS.wire.issuer).toEqual(RAILS.ach.issuer);
  });

  it('issues EVM addresses as 0x and 40 hex digits', () => {
    expect(RAILS.ethereum.newNumber(seededRandom(9))).toMatch(/^0x[0-9a-f]{40}$/);
    expect(RAILS.ethereum.isValidNumber('0x' + 'g'.repeat(40))).toBe(false);
  });
});
