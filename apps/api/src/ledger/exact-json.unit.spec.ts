import { exactJson } from './exact-json';

describe('exactJson', () => {
  it('writes bigints as JSON integers with every digit, at any depth, and everything else as JSON.stringify does', () => {
    const body = {
      data: {
        position: 9,
        currencies: [
          { currency: 'USD', debits_posted: 10_000_000_000_000_005n, credits_posted: -123456789012345678901234567890n },
        ],
        note: 'bigint:1',
        none: null,
      },
    };
    expect(exactJson(body)).toBe(
      '{"data":{"position":9,"currencies":[{"currency":"USD","debits_posted":10000000000000005,"credits_posted":-123456789012345678901234567890}],"note":"bigint:1","none":null}}',
    );
    expect(exactJson({ a: 0n, b: [1n, 'x'] })).toBe('{"a":0,"b":[1,"x"]}');
  });
});
