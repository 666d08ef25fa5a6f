import fc from 'fast-check';
import { scanJson } from './json-scan';

const scan = (text: string, maxDepth = 64) => scanJson(Buffer.from(text), maxDepth);

describe('scanJson', () => {
  it.each([
    ['{"a":1,"a":2}', 'a', 'a'],
    ['{"a":"x\\"","a":1}', 'a', 'a'],
    ['{"\\u0061":1,"a":2}', 'a', 'a'],
    ['{"é":1,"\\u00e9":2}', 'é', 'é'],
    ['{"x":[{"b":1},{"b":1,"c":2,"b":3}]}', 'b', 'x[1].b'],
    ['[1,2,{"k":1,"k":1}]', 'k', '[2].k'],
    [`{"s":"${'q\\\\'.repeat(40)}","s":1}`, 's', 's'],
    [
      JSON.stringify(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i]))).replace('}', ',"k3":1}'),
      'k3',
      'k3',
    ],
  ])('finds the repeated key in %s', (text, key, path) => {
    expect(scan(text)).toEqual({ kind: 'duplicate_key', key, path });
  });

  it.each(['{"a":1,"b":{"a":1}}', `{"s":"${'y'.repeat(40)}\\\\\\"","t":1}`, '{"a":', '{"a":"unterminated', '{}', '[]'])(
    'finds nothing in %s',
    (text) => {
      expect(scan(text)).toBeNull();
    },
  );

  it('refuses nesting past the bound, and takes it at the bound', () => {
    expect(scan('{"a":'.repeat(65) + '1' + '}'.repeat(65))).toEqual({ kind: 'too_deep' });
    expect(scan('{"a":'.repeat(63) + '{}' + '}'.repeat(63))).toBeNull();
  });

  it('finds nothing in any serialized value, and a key repeated beside any value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.string({ maxLength: 8 }), (value, key) => {
        const text = JSON.stringify(value);
        expect(scan(text)).toBeNull();
        const repeated = `{"v":[${text}],${JSON.stringify(key)}:${text},${JSON.stringify(key)}:1}`;
        expect(scan(repeated)).toEqual({ kind: 'duplicate_key', key, path: key });
      }),
    );
  });
});
