import { parseEndpointAnswer } from './authorization-answer';

describe('parseEndpointAnswer (decisions §16)', () => {
  it('reads an approval, a partial approval and a decline with its reason', () => {
    expect(parseEndpointAnswer('{"approved":true}', 500)).toEqual({ approved: true, amount: null, reason: null });
    expect(parseEndpointAnswer('{"approved":true,"amount":200}', 500)).toEqual({
      approved: true,
      amount: 200,
      reason: null,
    });
    expect(parseEndpointAnswer('{"approved":false,"reason":"over budget"}', 500)).toEqual({
      approved: false,
      amount: null,
      reason: 'over budget',
    });
  });

  it('refuses anything else: not JSON, no boolean, an amount out of 1..requested, a long reason', () => {
    for (const body of [
      'nope',
      '[]',
      '{"approved":"yes"}',
      '{"approved":true,"amount":0}',
      '{"approved":true,"amount":501}',
      '{"approved":true,"amount":1.5}',
      `{"approved":false,"reason":"${'x'.repeat(101)}"}`,
    ]) {
      expect(parseEndpointAnswer(body, 500)).toBeNull();
    }
  });
});
