import './style.css';
import { get, SignedOut } from './api';
import { h, replace } from './dom';
import { session } from './session';
import type { ApiKey } from './types';
import { route } from './views/routes';
import { searchBox } from './views/search';

/**
 * The dashboard: sign in with an API key, then read-only views of the key's organization and mode,
 * one per hash route (#/accounts/acc_…), each drawn from the API's own endpoints.
 */
const app = document.getElementById('app')!;
let listening = false;

async function start(): Promise<void> {
  const key = session.key();
  if (!key) return signInForm();
  let me: ApiKey;
  try {
    me = await get<ApiKey>('/api-keys/current', {}, key);
  } catch (error) {
    session.signOut();
    return signInForm(error instanceof SignedOut ? 'That key was refused: sign in again.' : (error as Error).message);
  }
  shell(me);
  if (!listening) window.addEventListener('hashchange', () => void render());
  listening = true;
  await render();
}

function signInForm(problem?: string): void {
  document.body.dataset.mode = '';
  document.title = 'Sign in · Payments dashboard';
  const input = h('input', {
    id: 'api-key',
    type: 'password',
    name: 'api-key',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'sk_test_… or sk_live_…',
    required: true,
  });
  const error = h('p', { id: 'sign-in-error', class: 'error', role: 'alert' }, problem ?? '');
  const form = h(
    'form',
    {
      id: 'sign-in',
      method: 'post',
      onsubmit: (event: Event) => {
        event.preventDefault();
        void signIn(input.value.trim(), error);
      },
    },
    h('h1', null, 'Payments dashboard'),
    h('label', { for: 'api-key' }, 'API key'),
    input,
    h('button', { type: 'submit' }, 'Sign in'),
    error,
    h(
      'p',
      { class: 'hint' },
      'Read-only. The key stays in this tab (session storage) and is sent to this API only; closing the tab signs you out.',
    ),
  );
  replace(app, h('main', { class: 'sign-in' }, form));
  input.focus();
}

async function signIn(key: string, error: HTMLElement): Promise<void> {
  if (!/^sk_(test|live)_\S+$/.test(key)) {
    error.textContent = 'An API key starts sk_test_ or sk_live_ (entity tokens cannot read the event history).';
    return;
  }
  try {
    await get<ApiKey>('/api-keys/current', {}, key);
  } catch (e) {
    error.textContent = e instanceof SignedOut ? 'That key was refused.' : (e as Error).message;
    return;
  }
  session.signIn(key);
  if (!window.location.hash) window.location.hash = '#/';
  replace(app);
  await start();
}

const view = h('main', { id: 'view' });

function shell(me: ApiKey): void {
  const live = me.mode === 'live';
  document.body.dataset.mode = me.mode;
  document.title = `${live ? 'LIVE' : 'Sandbox'} · Payments dashboard`;
  const banner = h(
    'div',
    { id: 'mode-banner', class: `banner banner-${me.mode}`, role: 'status' },
    h('strong', null, live ? 'LIVE' : 'SANDBOX'),
    live ? ' · real money: every figure here is real' : ' · test data: nothing here is real money',
    h('span', { class: 'who' }, `${me.organization_id} · key ${me.name ?? me.id} …${me.last4}`),
  );
  const nav = h(
    'nav',
    null,
    [
      ['', 'Overview'],
      ['entities', 'Entities'],
      ['accounts', 'Accounts'],
      ['transfers', 'Transfers'],
      ['counterparties', 'Counterparties'],
      ['webhooks', 'Webhooks'],
      ['ledger', 'Ledger'],
      ['payment-intents', 'Payment intents'],
      ['events', 'Events'],
      ['history', 'History'],
      ['api-keys', 'API keys'],
    ].map(([path, label]) => h('a', { href: `#/${path}`, 'data-nav': path || 'overview' }, label)),
    h(
      'button',
      {
        id: 'sign-out',
        type: 'button',
        onclick: () => {
          session.signOut();
          window.location.hash = '';
          signInForm();
        },
      },
      'Sign out',
    ),
  );
  // On a narrow screen the links fold behind a menu button; a chosen link folds them again.
  const header = h('header', null);
  const menu = h(
    'button',
    {
      id: 'menu',
      type: 'button',
      'aria-controls': 'nav',
      'aria-expanded': 'false',
      onclick: () => toggle(!header.classList.contains('open')),
    },
    'Menu',
  );
  const toggle = (open: boolean) => {
    header.classList.toggle('open', open);
    menu.setAttribute('aria-expanded', String(open));
  };
  nav.id = 'nav';
  nav.addEventListener('click', (event) => (event.target as Element).closest('a') && toggle(false));
  replace(header, h('span', { class: 'brand' }, 'Payments'), searchBox(), menu, nav);
  replace(app, banner, header, view);
}

let rendering = 0;

async function render(): Promise<void> {
  // Signed out (the hash changed on the way out): the sign-in form is already there.
  if (!session.key()) return;
  const mine = ++rendering;
  const parts = window.location.hash
    .replace(/^#\/?/, '')
    .split('?')[0]
    .split('/')
    .filter(Boolean)
    .map(decodeURIComponent);
  for (const a of document.querySelectorAll<HTMLAnchorElement>('nav a'))
    a.classList.toggle('active', a.dataset.nav === (parts[0] ?? 'overview'));
  replace(view, h('p', { class: 'loading' }, 'Loading…'));
  try {
    const content = await route(parts);
    if (mine === rendering) replace(view, content);
  } catch (error) {
    if (error instanceof SignedOut) {
      session.signOut();
      return signInForm('The key was refused: sign in again.');
    }
    if (mine === rendering)
      replace(view, h('p', { class: 'error', role: 'alert' }, `Could not load this page: ${(error as Error).message}`));
  }
}

void start();
