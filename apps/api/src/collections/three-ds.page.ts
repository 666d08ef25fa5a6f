import type { AuthenticationPage } from '@app/application/collections';
import { currencyInfo } from '@app/domain/accounts';
import { FORM_TOKEN_FIELD } from './three-ds.form';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const MESSAGES: Readonly<Record<Exclude<AuthenticationPage['state'], 'open'>, string>> = {
  used: 'This authentication has already been completed. Nothing more to do here.',
  expired: 'This authentication page has expired. Return to the merchant and try again.',
  unavailable: 'Test authentication is only available for sandbox payments.',
  not_found: 'There is no authentication waiting at this address.',
};

/**
 * The simulated issuer's 3-D Secure page (decisions §7): plain HTML, inline styles only, two
 * forms that POST without JavaScript, each carrying the action's form token. It names the
 * merchant amount and the card's last four digits, nothing more.
 */
export function renderPage({ state, action }: AuthenticationPage, token: string): string {
  const hidden = `<input type="hidden" name="${FORM_TOKEN_FIELD}" value="${escape(token)}">`;
  const body =
    state === 'open' && action
      ? `<p>Approve the payment of <strong>${escape(formatAmount(action.amount, action.currency))}</strong>` +
        `${action.payment_type_data.last_four_digits ? ` with the card ending in <strong>${escape(action.payment_type_data.last_four_digits)}</strong>` : ''}?</p>` +
        `<p class="ref">Reference: ${escape(action.reference)}</p>` +
        `<form method="post" action="/3ds/${escape(action.id)}/approve">${hidden}<button type="submit" id="approve">Approve</button></form>` +
        `<form method="post" action="/3ds/${escape(action.id)}/fail">${hidden}<button type="submit" id="fail">Fail authentication</button></form>`
      : `<p id="state" data-state="${state}">${MESSAGES[state as keyof typeof MESSAGES]}</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>3-D Secure test authentication</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}form{display:inline-block;margin-right:1rem}button{font-size:1rem;padding:.5rem 1rem}.ref{color:#555}</style>
</head><body><h1>Sandbox 3-D Secure</h1>${body}</body></html>`;
}

/**
 * No script may run, no other page may frame it, nothing is sniffed or told where the customer
 * came from. `form-action` allows the page's own POSTs and, while the forms are open, the origin of
 * `return_url`: Chromium checks the 303 that follows a form submission against form-action too, so
 * 'self' alone would block the customer's way back (decisions/collections.md).
 */
export function pageHeaders({ state, action }: AuthenticationPage): Record<string, string> {
  const formAction = [
    "'self'",
    ...(state === 'open' && action?.return_url ? [returnSource(action.return_url)] : []),
  ].filter(Boolean);
  const csp = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `form-action ${formAction.join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ];
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': csp.join('; '),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
  };
}

/**
 * The CSP source for `return_url`'s origin. An IPv6 literal cannot be written as a CSP host, so
 * its scheme stands for it (only sandbox loopback or a public IPv6 literal get there).
 */
function returnSource(returnUrl: string): string {
  if (!URL.canParse(returnUrl)) return '';
  const url = new URL(returnUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return '';
  return url.hostname.startsWith('[') ? url.protocol : url.origin;
}

/** 10000 USD minor units reads "USD 100.00". */
function formatAmount(amount: number, currency: string): string {
  const units = currencyInfo(currency)?.minor_units ?? 0;
  const digits = String(amount).padStart(units + 1, '0');
  return units === 0 ? `${currency} ${digits}` : `${currency} ${digits.slice(0, -units)}.${digits.slice(-units)}`;
}
