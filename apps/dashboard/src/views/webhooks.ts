import { ApiError, get, path, post, type StyleA } from '../api';
import { facts, h, pill, replace, table, time, stamp } from '../dom';
import type { Webhook, WebhookLog } from '../types';
import { historyLink } from './timeline';

/** An entity's webhooks: state (and why the platform disabled one, decisions §15) and delivery statistics. */
export function webhooksTable(webhooks: readonly Webhook[]): HTMLElement {
  return table(
    ['url', 'status', 'deliveries', 'succeeded', 'failed', 'last answer', 'history'],
    webhooks.map((w) => [
      w.url,
      h(
        'span',
        { class: 'webhook-state' },
        pill(w.status),
        w.disabled_reason ? h('span', { class: 'disabled-reason' }, ` disabled: ${w.disabled_reason}`) : null,
      ),
      String(w.stats.deliveries_total),
      String(w.stats.deliveries_succeeded),
      String(w.stats.deliveries_failed),
      w.stats.last_response_status === null ? '—' : String(w.stats.last_response_status),
      historyLink(w.id),
    ]),
    { id: 'webhooks', empty: 'No webhooks.' },
  );
}

/** Looks again this many times, a second apart, for the attempt a resend made (the worker makes it within its poll interval). */
const RESEND_LOOKS = 15;

/**
 * An entity's webhook delivery attempts (GET /webhook-logs), newest first, filtered by outcome;
 * opening one shows what was sent and what the receiver answered (signature values read ***).
 */
export async function deliveriesSection(entityId: string): Promise<HTMLElement> {
  const detail = h('div', { id: 'delivery-detail' });
  const notice = h('p', { id: 'resend-status', role: 'status' });
  const list = h('div', { id: 'deliveries' });
  const filter = h(
    'select',
    { id: 'delivery-status', 'aria-label': 'outcome' },
    h('option', { value: '' }, 'every outcome'),
    h('option', { value: 'failed' }, 'failed'),
    h('option', { value: 'succeeded' }, 'succeeded'),
  );
  const load = async () => {
    const logs = await get<StyleA<WebhookLog>>('/webhook-logs', {
      entity_id: entityId,
      status: filter.value || null,
      limit: 100,
    });
    render(logs.data);
    return logs.data;
  };
  /** Decisions §15: one new attempt at once; the list is read again until it shows. */
  const resend = async (log: WebhookLog) => {
    replace(notice, `Resending ${log.event_id}…`);
    try {
      await post(path('entity-webhooks', log.webhook_id, 'resend'), { entity_id: entityId, event_id: log.event_id });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return replace(notice, `Not resent: ${err.message}`);
    }
    // Whatever the outcome filter shows, the webhook's own attempts say whether the new one is logged.
    const newer = async () =>
      (
        await get<StyleA<WebhookLog>>('/webhook-logs', { entity_id: entityId, webhook_id: log.webhook_id, limit: 100 })
      ).data.find((l) => l.event_id === log.event_id && l.attempt > log.attempt);
    for (let look = 0; look < RESEND_LOOKS; look++) {
      const attempt = await newer();
      if (attempt) {
        await load();
        return replace(notice, `Resent ${log.event_id}: attempt ${attempt.attempt} `, pill(attempt.status));
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
    replace(notice, `Resend of ${log.event_id} scheduled; its attempt is not logged yet.`);
  };
  const render = (logs: WebhookLog[]) => {
    replace(
      list,
      table(
        ['time', 'event', 'attempt', 'outcome', 'answer', 'ms', ''],
        logs.map((log) => [
          stamp(log.created),
          log.event,
          String(log.attempt),
          pill(log.status),
          log.response ? String(log.response.status_code) : (log.error ?? '—'),
          log.duration_ms === null ? '—' : String(log.duration_ms),
          h(
            'span',
            null,
            h(
              'button',
              {
                type: 'button',
                class: 'open-delivery',
                'data-id': log.id,
                onclick: () => replace(detail, deliveryDetail(log)),
              },
              'Open',
            ),
            ' ',
            h(
              'button',
              { type: 'button', class: 'resend-delivery', 'data-id': log.id, onclick: () => void resend(log) },
              'Resend',
            ),
          ),
        ]),
        { empty: 'No delivery attempts.' },
      ),
    );
  };
  filter.addEventListener('change', () => void load());
  await load();
  return h('section', null, h('h2', null, 'Webhook deliveries'), h('p', null, filter), notice, list, detail);
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
      ? [
          h('p', { class: 'response-status' }, `Status ${log.response.status_code}`),
          headers(log.response.headers),
          h('pre', { class: 'body response-body' }, log.response.body),
        ]
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
