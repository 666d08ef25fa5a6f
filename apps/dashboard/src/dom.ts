/**
 * A tiny DOM builder. Text is always a text node and attributes are set one by one, so nothing the
 * API returns (a webhook receiver's answer included) is ever parsed as HTML; the page's CSP
 * (Trusted Types) would refuse it anyway.
 */
export type Child = Node | string | number | null | undefined | false | Child[];

type Props = Record<string, string | number | boolean | null | undefined | ((event: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, ''), value);
    else if (name === 'class') el.className = String(value);
    else if (name === 'href' && !String(value).startsWith('#/'))
      throw new Error(`links stay inside the dashboard, not ${String(value)}`);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else
      el.appendChild(
        typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child,
      );
  }
}

export function replace(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** A link inside the dashboard (hash routes only). */
export const link = (path: string, ...children: Child[]) => h('a', { href: `#/${path}` }, ...children);

/** Minor units to a localized amount: ISO currencies with their own decimals, others (USC) with two. */
export function money(minor: number | null | undefined, currency: string): string {
  if (minor === null || minor === undefined) return '—';
  let digits = 2;
  try {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    // not a code Intl knows: two decimals
  }
  const value = minor / 10 ** digits;
  return `${value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${currency}`;
}

/** ms since the epoch, in UTC, to the second. */
export function time(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  return `${new Date(ms).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
}

/** A time in a table or a timeline: on one line (CSS `.time`), never broken at its spaces or hyphens. */
export const stamp = (ms: number | null | undefined) => h('span', { class: 'time' }, time(ms));

export const pretty = (value: unknown): string => JSON.stringify(value, null, 2);

/** A status as a coloured pill (`status-successful`, `status-failed`, …). */
export const pill = (status: string | null | undefined) =>
  h('span', { class: `pill status-${String(status ?? 'unknown').replace(/[^a-z_]/g, '')}` }, status ?? '—');

export function table(headers: string[], rows: Child[][], options: { id?: string; empty?: string } = {}): HTMLElement {
  if (!rows.length) return h('p', { class: 'empty', id: options.id }, options.empty ?? 'Nothing yet.');
  return scroller(
    h(
      'table',
      { id: options.id },
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          headers.map((name) => h('th', null, name)),
        ),
      ),
      h(
        'tbody',
        null,
        rows.map((cells) =>
          h(
            'tr',
            null,
            cells.map((cell) => h('td', null, cell)),
          ),
        ),
      ),
    ),
  );
}

/** A table scrolls inside its own box, so a narrow screen (390 px) scrolls it, never the page. */
export const scroller = (table: HTMLElement) => h('div', { class: 'scroll' }, table);

export const section = (title: string, ...children: Child[]) => h('section', null, h('h2', null, title), ...children);

/** Key/value pairs of a resource. */
export const facts = (pairs: [string, Child][]) =>
  h(
    'dl',
    { class: 'facts' },
    pairs.map(([k, v]) => [h('dt', null, k), h('dd', null, v)]),
  );

export const code = (text: string) => h('code', null, text);
export const json = (value: unknown) => h('pre', { class: 'json' }, pretty(value));
