import { h, pill, stamp } from '../dom';
import type { ApiKeySummary } from '../types';
import { pagedTable } from './paged';

/** The organization's API keys of the signed-in key's reach (a sandbox key sees sandbox keys only, decisions §1): never a secret, the last four only. */
export async function apiKeysView(): Promise<Node> {
  return h(
    'div',
    null,
    h('h1', null, 'API keys'),
    h(
      'p',
      { class: 'hint' },
      'Secrets are shown once, when a key is created or rotated; here only their last four characters.',
    ),
    await pagedTable<ApiKeySummary>(
      '/api-keys',
      {},
      ['name', 'key', 'mode', 'status', 'created', 'updated'],
      (k) => [
        k.name ?? '—',
        h('code', null, `${k.id} …${k.last4}`),
        pill(k.mode),
        pill(k.status),
        stamp(k.created),
        stamp(k.updated),
      ],
      { id: 'api-keys', empty: 'No keys.' },
    ),
  );
}
