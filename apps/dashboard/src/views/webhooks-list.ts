import { h, link, pill, section, stamp } from '../dom';
import type { Webhook, WebhookLog } from '../types';
import { entityName } from './overview';
import { boundHint, entityOptions, filterBar, mergedPages, organizationEntities, select } from './organization';
import { filtered, pagedRows, styleAPages } from './paged';

/**
 * Every webhook of the organization and their latest delivery attempts, newest first, by entity,
 * state and outcome (see organization.ts for how the entities' lists merge). The API filters
 * attempts by outcome; webhooks by state are filtered here, as the API has no such filter.
 */
export async function webhooksView(params: URLSearchParams): Promise<Node> {
  const { entities, more } = await organizationEntities();
  const names = new Map(entities.map((e) => [e.id, entityName(e)]));
  const entity = params.get('entity_id');
  const state = params.get('state');
  const list = <T extends { created: number; id: string }>(p: string, query: Record<string, string | null>) =>
    entity
      ? styleAPages<T>(p, { ...query, entity_id: entity })
      : mergedPages<T>(
          p,
          query,
          entities.map((e) => e.id),
        );
  const webhooks = filtered(list<Webhook>('/entity-webhooks', {}), (w) => !state || w.status === state);
  const filters = filterBar('webhooks', params, [
    select('entity_id', 'every entity', entityOptions(entities)),
    select('state', 'every state', [
      ['active', 'active'],
      ['inactive', 'inactive'],
    ]),
    select('status', 'every outcome', [
      ['failed', 'failed attempts'],
      ['succeeded', 'succeeded attempts'],
    ]),
  ]);
  const [table, attempts] = await Promise.all([
    pagedRows<Webhook>(
      webhooks,
      ['url', 'entity', 'state', 'deliveries', 'failed', 'last answer', 'last delivery'],
      (w) => [
        w.url,
        link(`entities/${w.entity_id}`, names.get(w.entity_id) ?? w.entity_id),
        h(
          'span',
          { class: 'webhook-state' },
          pill(w.status),
          w.disabled_reason ? ` disabled: ${w.disabled_reason}` : null,
        ),
        String(w.stats.deliveries_total),
        String(w.stats.deliveries_failed),
        w.stats.last_response_status === null ? '—' : String(w.stats.last_response_status),
        stamp(w.stats.last_delivery_at),
      ],
      { id: 'org-webhooks', empty: 'No webhooks.' },
    ),
    pagedRows<WebhookLog>(
      list<WebhookLog>('/webhook-logs', { status: params.get('status') }),
      ['time', 'event', 'attempt', 'outcome', 'answer', 'url', 'entity'],
      (l) => [
        stamp(l.created),
        l.event,
        String(l.attempt),
        pill(l.status),
        l.response ? String(l.response.status_code) : (l.error ?? '—'),
        l.url,
        // The entity's page opens the attempt, its request and answer, and resends it.
        link(`entities/${l.entity_id}`, names.get(l.entity_id) ?? l.entity_id),
      ],
      { id: 'org-deliveries', empty: 'No delivery attempts.' },
    ),
  ]);
  return h(
    'div',
    null,
    h('h1', null, 'Webhooks'),
    filters,
    entity ? null : boundHint(more, 'webhooks'),
    table,
    section('Delivery attempts', attempts),
  );
}
