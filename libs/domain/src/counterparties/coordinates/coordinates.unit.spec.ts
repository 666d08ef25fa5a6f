import { checkBankCoordinates } from './bank-schemes';
import { isEvmAddress, isSolanaAddress, phoneProblem } from './wallets';

const ok = (
  scheme: Parameters<typeof checkBankCoordinates>[0]['scheme'],
  code: string,
  account_number: string | null,
  country: string,
) => checkBankCoordinates({ scheme, code, account_number, country });

describe('bank schemes', () => {
  it.each([
    ['aba', '021000021', '123456789', 'US'],
    ['aba', '011000138', '1234', 'US'],
    ['iban', 'GB82 WEST 1234 5698 7654 32', null, 'GB'],
    ['iban', 'DE89370400440532013000', null, 'DE'],
    ['in_ifsc', 'SBIN0000300', '123456789', 'IN'],
    ['swift', 'DEUTDEFF', '1', 'DE'],
    ['swift', 'DEUTDEFF500', '1', 'DE'],
    ['swift', 'DEUTDEFF', 'DE89370400440532013000', 'DE'],
    ['ca_cpa', '000300002', '1234567', 'CA'],
  ] as const)('accepts %s %s', (scheme, code, account, country) => {
    expect(Array.isArray(ok(scheme, code, account, country))).toBe(false);
  });

  it.each([
    ['aba', '021000022', '123', 'US', 'code'],
    ['iban', 'GB82WEST12345698765431', null, 'GB', 'code'],
    ['iban', 'DE89370400440532013001', null, 'DE', 'code'],
    ['in_ifsc', 'SBIN0000300', '12345678', 'IN', 'account_number'],
    ['in_ifsc', 'SBI00000300', '123456789', 'IN', 'code'],
    ['swift', 'DEUTDEF', '1', 'DE', 'code'],
    ['ca_cpa', '100300002', '1234567', 'CA', 'code'],
    ['aba', '021000021', '123', 'GB', 'country'],
    // An IBAN-shaped account number is an IBAN whatever the scheme (decisions §5): broken check digits, wrong length for DE.
    ['swift', 'DEUTDEFF', 'DE89370400440532013001', 'DE', 'account_number'],
    ['swift', 'DEUTDEFF', 'DE8937040044053201300', 'DE', 'account_number'],
    ['chips', '123456', 'GB82WEST12345698765431', 'US', 'account_number'],
    ['iban', 'DE89370400440532013000', 'DE89370400440532013001', 'DE', 'account_number'],
  ] as const)('refuses %s %s naming %s', (scheme, code, account, country, field) => {
    const result = ok(scheme, code, account, country);
    expect(Array.isArray(result) && result[0].field).toBe(field);
  });

  it('normalizes an IBAN and returns it as the account number when none is given', () => {
    expect(ok('iban', 'gb82 west 1234 5698 7654 32', null, 'GB')).toMatchObject({
      code: 'GB82WEST12345698765432',
      account_number: 'GB82WEST12345698765432',
    });
  });
});

describe('wallets and phones', () => {
  it('checks EIP-55 only for mixed case', () => {
    expect(isEvmAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(true);
    expect(isEvmAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe(true);
    expect(isEvmAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toBe(false);
    expect(isEvmAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1bea')).toBe(false);
  });
  it('takes 32-byte base58 Solana keys only', () => {
    expect(isSolanaAddress('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')).toBe(true);
    expect(isSolanaAddress('11111111111111111111111111111111')).toBe(true);
    expect(isSolanaAddress('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5D')).toBe(false);
    expect(isSolanaAddress('0okenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')).toBe(false);
  });
  it('takes E.164 numbers of the stated country', () => {
    expect(phoneProblem('+254712345678', 'KE')).toBeNull();
    expect(phoneProblem('+254712345678', 'GH')).toMatch(/not a GH number/);
    expect(phoneProblem('254712345678', null)).toMatch(/E.164/);
  });
});
