import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { publicEvent, redact, resourceOf } from './public-event';

const recorded = (streamId: string, data: Record<string, unknown>): RecordedEvent => ({
  id: 'e1',
  streamId,
  type: 'Something',
  data,
  metadata: {
    event_id: '01J',
    organization_id: 'org_1',
    correlation_id: 'req_1',
    causation_id: 'req_1',
    schema_version: 1,
    occurred_at: 5,
    actor: 'api_key:key_1',
  },
  revision: 0,
  position: 7,
});

describe('the redaction guard', () => {
  it('removes PAN, CVV, secrets and document bytes at any depth, keeping everything else', () => {
    const data = {
      amount: 100,
      card: { pan: '4242424242424242', cvv: '123', card_number: '4000000000000002', cvc: '999', last4: '4242' },
      list: [{ secret: 's', signing_key: 'k', key_hash: 'h', token_hash: 't', encrypted_private_key: 'p', kept: 1 }],
      document: { content: 'JVBERi0=', bytes: 'AAAA', document_bytes: 'BBBB', sha256: 'abc' },
      encrypted_data: 'opaque',
    };
    expect(redact(data)).toEqual({
      amount: 100,
      card: { last4: '4242' },
      list: [{ kept: 1 }],
      document: { sha256: 'abc' },
    });
    expect(publicEvent(recorded('card-crd_01ABC', data))!.data).toEqual(redact(data));
  });
});

describe('the resource table', () => {
  it('names every decided resource and leaves the platform streams out', () => {
    expect(resourceOf('payment-intent-pi_01ABC')).toMatchObject({
      resource: { type: 'payment_intent', collection: 'payment-intents' },
      id: 'pi_01ABC',
    });
    expect(resourceOf('intent-action-ia_01ABC')?.resource.type).toBe('intent_action');
    expect(resourceOf('card-crd_01ABC')?.resource.type).toBe('card');
    expect(resourceOf('webhook-whk_01ABC')?.resource.collection).toBe('entity-webhooks');
    for (const platform of [
      'api-key-hash-abc',
      'card-number-abc',
      'webhook-queue-whk_1-x',
      'webhook-delivery-whd_01',
      'card-transaction-ctx_01',
      'payment-intent-reference-acc_1-abc',
    ]) {
      expect(resourceOf(platform)).toBeNull();
    }
  });
});
