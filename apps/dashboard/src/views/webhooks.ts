import { get, type StyleA } from '../api';
import { facts, h, pill, replace, table, time } from '../dom';
import type { WebhookLog } from '../types';

/**
 * An entity's webhook delivery attempts (GET /webhook-logs), newest first, filtered by outcome;
 * opening one shows what was sent and what the receiver answered (signature values read ***).
 */
export async function deliveriesSection(entityId: string): Promise<HTMLElement> {
  const detail = h('div', { id: 'delivery-detail' });
  const list = h('div', { id: 'deliveries' });
  const filter = h(
    'select',
    { id: 'delivery-status', 'aria-label': 'outcome' },
    h('option', { value: '' }, 'every outcome'),
    h('option', { value: 'failed' }, 'failed'),
    h('option', { value: 'succeeded' }, 'succeeded'),
  );
  const load = async () => {
    const logs = await get<StyleA<WebhookLog>>('/webhook-logs', { entity_id: entityId, status: filter.value || null, limit: 100 });
    replace(
      list,
      table(
        ['time', 'event', 'attempt', 'outcome', 'answer', 'ms', ''],
        logs.data.map((log) => [
          time(log.created),
          log.event,
          String(log.attempt),
          pill(log.status),
          log.response ? String(log.response.status_code) : (log.error ?? '—'),
          log.duration_ms === null ? '—' : String(log.duration_ms),
          h('button', { type: 'button', class: 'open-delivery', 'data-id': log.id, onclick: () => replace(detail, deliveryDetail(log)) }, 'Open'),
        ]),
        { empty: 'No delivery attempts.' },
      ),
    );
  };
  filter.addEventListener('change', () => void load());
  await load();
  return h('section', null, h('h2', null, 'Webhook deliveries'), h('p', null, filter), list, detail);
}

function deliveryDetail(log: WebhookLog): HTMLElement {
  const headers = (map: Record<string, string> | undefined) =>
    table(
      ['header', 'value'],
      Object.entries(map ?? {}).map(([k, v]) => [k, v]),
    );
  return h(
    'article',
    { class: 'delivery', 'data-id': log.id },
    h('h3', null, `${log.event} · attempt ${log.attempt} · `, pill(log.status)),
    facts([
      ['delivery', log.id],
      ['event', log.event_id],
      ['url', log.url],
      ['sent', time(log.created)],
      ['duration', log.duration_ms === null ? '—' : `${log.duration_ms} ms`],
      ['error', log.error ?? '—'],
    ]),
    h('h4', null, `Request: ${log.request.method}`),
    headers(log.request.headers),
    h('pre', { class: 'body request-body' }, prettyJson(log.request.body)),
    h('h4', null, 'Response'),
    log.response
      ? [h('p', { class: 'response-status' }, `Status ${log.response.status_code}`), headers(log.response.headers), h('pre', { class: 'body response-body' }, log.response.body)]
      : h('p', { class: 'response-status' }, 'No response (the connection failed or timed out).'),
  );
}

/** The delivery body is JSON: shown indented; anything else as it is. */
function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
