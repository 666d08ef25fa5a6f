import { specFor } from '../../shared/testing/given-when-then';
import { deliveryQueueDecider, type DeliveryQueueEvent } from './delivery-queue';

const given = specFor(deliveryQueueDecider);
const REF = { webhook_id: 'whk_1', resource: 'account-acc_1' };
const enqueue = (delivery_id: string, position: number, seq = 0) => ({ type: 'EnqueueDelivery' as const, ...REF, delivery_id, position, seq });
const dequeue = (delivery_id: string) => ({ type: 'DequeueDelivery' as const, ...REF, delivery_id });
const enqueued = (delivery_id: string, position: number, head: boolean, seq = 0): DeliveryQueueEvent => ({
  type: 'WebhookDeliveryEnqueued',
  data: { ...REF, delivery_id, position, seq, head },
});
const dequeued = (delivery_id: string, next_head: string | null): DeliveryQueueEvent => ({ type: 'WebhookDeliveryDequeued', data: { ...REF, delivery_id, next_head } });

describe('delivery queue (one webhook, one resource)', () => {
  it('makes the first delivery the head and queues later ones behind it', () => {
    given([]).when(enqueue('whd_a', 10)).then([enqueued('whd_a', 10, true)]);
    given([enqueued('whd_a', 10, true)]).when(enqueue('whd_b', 12)).then([enqueued('whd_b', 12, false)]);
  });

  it('orders the public events of one domain event by their rank', () => {
    given([enqueued('whd_a', 10, true)]).when(enqueue('whd_b', 10, 1)).then([enqueued('whd_b', 10, false, 1)]);
  });

  it('hands the head on when the head leaves', () => {
    const queue = [enqueued('whd_a', 10, true), enqueued('whd_b', 12, false), enqueued('whd_c', 15, false)];
    given(queue).when(dequeue('whd_a')).then([dequeued('whd_a', 'whd_b')]);
    given([...queue, dequeued('whd_a', 'whd_b')]).when(dequeue('whd_b')).then([dequeued('whd_b', 'whd_c')]);
    given([enqueued('whd_a', 10, true)]).when(dequeue('whd_a')).then([dequeued('whd_a', null)]);
  });

  it('makes a delivery enqueued into an emptied queue the head at once', () => {
    given([enqueued('whd_a', 10, true), dequeued('whd_a', null)]).when(enqueue('whd_b', 12)).then([enqueued('whd_b', 12, true)]);
  });

  it('records nothing for a repeat: enqueued again, a place already passed, or dequeued twice', () => {
    given([enqueued('whd_a', 10, true)]).when(enqueue('whd_a', 10)).then([]);
    given([enqueued('whd_a', 10, true), dequeued('whd_a', null)]).when(enqueue('whd_a', 10)).then([]);
    given([enqueued('whd_a', 10, true), dequeued('whd_a', null)]).when(dequeue('whd_a')).then([]);
  });
});
