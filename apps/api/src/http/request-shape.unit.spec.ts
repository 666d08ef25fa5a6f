import { DomainException } from '@app/application/command-handling';
import { checkShape } from './request-shape.middleware';

const refusal = (value: unknown, where: 'body' | 'query' = 'body') => {
  try {
    checkShape(value, where);
    return null;
  } catch (error) {
    return (error as DomainException).error;
  }
};

const nested = (depth: number) => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

describe('request shape', () => {
  it('takes 64 levels and refuses 65, however deep, without recursion', () => {
    expect(refusal(nested(64))).toBeNull();
    expect(refusal(nested(65))).toMatchObject({ code: 'invalid_json' });
    expect(refusal(nested(200_000))).toMatchObject({ code: 'invalid_json' });
  });

  it('names prototype keys as unknown fields wherever they are', () => {
    expect(refusal(JSON.parse('{"bank":{"__proto__":{"x":1}}}'))).toMatchObject({
      errors: [{ field: 'bank.__proto__', message: 'bank.__proto__ is not an accepted field' }],
    });
    expect(refusal({ items: [{ constructor: 1 }] })).toMatchObject({ errors: [{ field: 'items[0].constructor' }] });
    expect(refusal(Object.assign(Object.create(null), { prototype: '1' }), 'query')).toMatchObject({
      errors: [{ field: 'prototype' }],
    });
  });

  it('refuses control characters in text, letting tab and newline through in description only', () => {
    expect(refusal({ profile: { first_name: 'A\u0000' } })).toMatchObject({
      errors: [{ field: 'profile.first_name' }],
    });
    expect(refusal({ name: 'x\u007f' })).toMatchObject({ errors: [{ field: 'name' }] });
    expect(refusal({ name: 'tab\there' })).toMatchObject({ errors: [{ field: 'name' }] });
    expect(refusal({ description: 'line\n\tline' })).toBeNull();
    expect(refusal({ description: 'carriage\rreturn' })).toMatchObject({ errors: [{ field: 'description' }] });
    expect(refusal({ 'we\u0001ird': 1 })).toMatchObject({ errors: [{ field: 'we?ird' }] });
    expect(refusal({ name: 'Zoë 😀 ‮' })).toBeNull();
  });
});
