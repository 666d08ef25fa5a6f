import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { DEQUEUE_GRACE_MS, dueDeliveriesProjection, type DueDeliveryDocument } from './due-deliveries.projection';

type Docs = Record<string, DueDeliveryDocument | null>;

/** Applies events as the projector does: each to the documents it names, in log order. */
function project(events: Array<{ type: string; data: Record<string, unknown> }>): Docs {
  const docs: Docs = {};
  events.forEach((e, i) => {
    const recorded = { ...e, position: i + 1 } as unknown as RecordedEvent;
    for (const id of dueDeliveriesProjection.documentIds(recorded)) docs[id] = dueDeliveriesProjection.evolve(docs[id] ?? null, recorded);
  });
  return docs;
}

const REF = { webhook_id: 'whk_1', resource: 'account-acc_1' };
const enqueued = (delivery_id: string, head: boolean) => ({ type: 'WebhookDeliveryEnqueued', data: { ...REF, delivery_id, position: 1, seq: 0, head } });
const scheduled = (delivery_id: string, resource: string | null = REF.resource) => ({ type: 'WebhookDeliveryScheduled', data: { delivery_id, resource, due_at: 100 } });
/** Scheduled before queues existed: no `resource` at all. */
const legacy = (delivery_id: string) => ({ type: 'WebhookDeliveryScheduled', data: { delivery_id, due_at: 100 } });
const succeeded = (delivery_id: string) => ({ type: 'WebhookDeliveryAttempted', data: { delivery_id, attempt: 1, status: 'succeeded', completed_at: 200, next_attempt_at: null } });
const dequeued = (delivery_id: string, next_head: string | null) => ({ type: 'WebhookDeliveryDequeued', data: { ...REF, delivery_id, next_head } });
const heads = (docs: Docs) => Object.values(docs).filter((d) => d?.head && !d.finished).map((d) => d!.id);

describe('ready deliveries (the scheduler list)', () => {
  it('lists only the head of a queue; the next one when the head leaves', () => {
    const queued = [enqueued('whd_a', true), scheduled('whd_a'), enqueued('whd_b', false), scheduled('whd_b')];
    expect(heads(project(queued))).toEqual(['whd_a']);
    const done = project([...queued, succeeded('whd_a'), dequeued('whd_a', 'whd_b')]);
    expect(done.whd_a).toBeNull();
    expect(heads(done)).toEqual(['whd_b']);
  });

  it('keeps a finished delivery until it is dequeued, due again after the grace period', () => {
    const docs = project([enqueued('whd_a', true), scheduled('whd_a'), succeeded('whd_a')]);
    expect(docs.whd_a).toMatchObject({ finished: true, due_at: 200 + DEQUEUE_GRACE_MS });
  });

  it('makes a head handed on before its scheduling is recorded stay the head', () => {
    const docs = project([enqueued('whd_a', true), scheduled('whd_a'), enqueued('whd_b', false), dequeued('whd_a', 'whd_b'), scheduled('whd_b')]);
    expect(docs.whd_b).toMatchObject({ head: true, due_at: 100 });
  });

  it('lets tests and deliveries from before the queues go at once, and drops them when done', () => {
    expect(heads(project([scheduled('whd_t', null), legacy('whd_old')]))).toEqual(['whd_t', 'whd_old']);
    expect(project([scheduled('whd_t', null), succeeded('whd_t')]).whd_t).toBeNull();
  });
});
